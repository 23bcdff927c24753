import JSON
import Testing

@testable import Configuration

/// A setting's default is said once, by its value: the text the pages, the manual and `--help`
/// give is the default value as its form writes it (with what that means where it needs saying),
/// and what the form writes reads back as the same value.
@Suite("Each setting's default text is its default value's", .timeLimit(.minutes(10)))
struct DefaultTextTests {
    /// Every setting: the file's and the command line's (`Configuration.settings`), and the
    /// members of the objects inside a value (a cycle, each gauge, each window, the broker).
    static var everySetting: [(name: String, text: String, problem: @Sendable () -> String?)] {
        Configuration.leaves.map { ($0.name, $0.defaultText, $0.defaultProblem) }
            + Configuration.valueObjects.flatMap { object in object.defaults.map { ("\(object.path).\($0.key)", $0.text, $0.problem) } }
    }

    @Test("every setting's default, written by its form, reads back as the default value")
    func readsBack() {
        let all = Self.everySetting
        #expect(all.count >= 90, "\(all.count) settings")
        for setting in all {
            #expect(setting.problem() == nil, "\(setting.name): \(setting.problem() ?? "")")
        }
    }

    @Test("the default text starts with the value as the file writes it")
    func textIsTheValue() throws {
        for leaf in Configuration.leaves where leaf.inFile {
            guard case .json(let json)? = leaf.write(Configuration()) else { continue }
            #expect(leaf.defaultText.hasPrefix(json.settingText), "\(leaf.name): \(leaf.defaultText) is not \(json.settingText)")
            // And the file takes that text: JSON the reader reads.
            #expect((try? JSONParser.parse(json.settingText)) == json, "\(leaf.name): \(json.settingText)")
        }
    }

    @Test("what the pages say, by examples")
    func examples() {
        func said(_ name: String) -> String? { Configuration.setting(named: name)?.defaultText }
        #expect(said("idle.dimAfter") == "60")
        #expect(said("idle.dimLevel") == "30")
        #expect(said("display.brightness") == "null: the backlight's as found at start")
        #expect(said("display.shape") == "\"rectangle\"")
        #expect(said("display.rotate") == "0")
        #expect(said("screens") == "[\"rings\", \"gauges\", \"progress\"]")
        #expect(said("longPress") == "{\"previousDay\": \"refresh\", \"nextDay\": \"today\", \"select\": \"today\"}")
        #expect(said("locale") == "null: from LC_ALL, LC_MESSAGES or LANG")
        #expect(said("serve.maxBody") == "8388608")
        #expect(said("cycle") == "null")
        // The command line's help says it without the file's null and quotes.
        #expect(Configuration.setting(named: "display.connector")?.commandLineDefault == "the first connected one")
        #expect(Configuration.setting(option: "--input-dir")?.commandLineDefault == "/dev/input")
        let gauge = Dictionary(uniqueKeysWithValues: Configuration.valueObjects[1].defaults.map { ($0.key, $0.text) })
        #expect(gauge["source"] == "(required)" && gauge["min"]?.hasPrefix("the metric's own") == true)
        #expect(gauge["tint"] == "[\"#64D2FF\", \"#FFD60A\", \"#FF9F0A\"]: blue, yellow, orange")
        let broker = Dictionary(uniqueKeysWithValues: Configuration.valueObjects[3].defaults.map { ($0.key, $0.text) })
        #expect(broker["username"] == "none" && broker["keepAlive"] == "60")
    }

    @Test("a default the form would not read back is caught")
    func catchesDrift() {
        // A form that writes what it does not read: the check says so.
        let drifting = Form<Double>.number(0...1).mapped({ $0 }, { $0 * 2 })
        #expect(drifting.readBackProblem(0.4, same: ==) != nil)
        #expect(Form<Double>.number(0...1).readBackProblem(0.4, same: ==) == nil)
    }
}
