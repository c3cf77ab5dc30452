import ArgumentParser

/// `--time 30`, `30s`, `5m` or `2h`: how long a campaign runs, in wall-clock seconds (only the driver
/// reads the clock; no simulation sees it).
struct TimeLimit: Sendable, Equatable {
    /// Seconds, more than 0 and under 10^7 (about 115 days).
    var seconds: Double

    init(seconds: Double) { self.seconds = seconds }

    /// Parses the option's text, saying why it is refused.
    @Sendable static func parse(_ text: String) throws -> TimeLimit {
        let units: [(suffix: String, seconds: Double)] = [("s", 1), ("m", 60), ("h", 3600)]
        let unit = units.first { text.hasSuffix($0.suffix) }
        let number = unit.map { String(text.dropLast($0.suffix.count)) } ?? text
        let form = "expected seconds above 0 and below 10000000, as 30, 30s, 5m or 2h"
        guard let value = Double(number), value.isFinite else { throw NumberArgument.Refused(description: form) }
        let seconds = value * (unit?.seconds ?? 1)
        guard seconds > 0, seconds < 1e7 else { throw NumberArgument.Refused(description: "out of range; \(form)") }
        return TimeLimit(seconds: seconds)
    }
}
