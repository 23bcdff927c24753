/// A unit of energy as Apple Health writes it: `kcal`, `Cal` (the same as kcal) or `kJ`.
public enum EnergyUnit: String, Sendable, CaseIterable {
    case kilocalorie = "kcal"
    case largeCalorie = "Cal"
    case kilojoule = "kJ"

    /// Kilojoules in one kilocalorie (thermochemical calorie).
    public static let kilojoulesPerKilocalorie = 4.184

    /// The unit for a symbol as found in exports and on the command line.
    ///
    /// `Cal` (capital C) is the food calorie, i.e. a kilocalorie; a lower-case `cal` would be a
    /// thousand times smaller and never appears in Activity data, so it is not accepted.
    public init?(symbol: String) {
        switch symbol {
        case "kcal", "Kcal", "KCAL", "kCal": self = .kilocalorie
        case "Cal", "Calories", "Calorie": self = .largeCalorie
        case "kJ", "kj", "KJ": self = .kilojoule
        default: return nil
        }
    }

    /// How many kilocalories one of this unit is.
    public var kilocalories: Double {
        switch self {
        case .kilocalorie, .largeCalorie: 1
        case .kilojoule: 1 / Self.kilojoulesPerKilocalorie
        }
    }
}

/// An amount of energy with the unit it was given in.
public struct Energy: Sendable, Equatable, Hashable {
    public var value: Double
    public var unit: EnergyUnit

    public init(_ value: Double, _ unit: EnergyUnit = .kilocalorie) {
        self.value = value
        self.unit = unit
    }

    public static func kilocalories(_ value: Double) -> Energy { Energy(value, .kilocalorie) }

    /// The amount in kilocalories, whatever unit it was given in.
    public var kilocalories: Double { value * unit.kilocalories }
}
