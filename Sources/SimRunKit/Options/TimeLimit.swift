import ArgumentParser

/// `--time 30` or `--time 30s`: how long a campaign runs, in wall-clock seconds (only the driver
/// reads the clock; no simulation sees it).
struct TimeLimit: ExpressibleByArgument, Sendable, Equatable {
    /// Seconds, more than 0 and under 10^7 (about 115 days).
    var seconds: Double

    init?(argument: String) {
        let number = argument.hasSuffix("s") ? String(argument.dropLast()) : argument
        guard let value = Double(number), value > 0, value < 1e7 else { return nil }
        seconds = value
    }
}
