import Feeds
import Platform

extension LocalCalendar {
    /// The board's time zone (TZ, else /etc/localtime).
    static let system = LocalCalendar.local(parts: LocalTime.parts, midnight: { LocalTime.midnight(year: $0, month: $1, day: $2) })
}
