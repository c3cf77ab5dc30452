import SimEngine
import SimTrace

/// One line of the benchmark table: a figure, its baseline measured in the same run, how they
/// compare, and the target the figure is held to.
public struct BenchFigure: Sendable {
    /// A stable machine name (the key in `--json`).
    public var key: String
    /// What is measured, for the table.
    public var name: String
    public var value: Double
    public var unit: String
    /// What the baseline is, for the table.
    public var baselineName: String
    /// The baseline in the same unit as `value` (nil when there is none, e.g. "never found").
    public var baseline: Double?
    /// How the figure compares with its baseline, e.g. `3.1x slower` (the table's ratio column).
    public var ratioText: String
    /// The comparison as one number, defined per figure in `ratioMeaning`.
    public var ratio: Double?
    public var ratioMeaning: String
    /// The target, as text.
    public var target: String
    /// Whether the target was met (nil for figures given as context only).
    public var met: Bool?
    /// Sizes and caveats of the measurement.
    public var note: String
}

extension Double {
    /// `self` with `digits` significant digits at most, without exponent (for tables).
    func rounded(significant digits: Int) -> String {
        guard isFinite else { return "n/a" }
        if self == 0 { return "0" }
        var magnitude = 0
        var probe = Swift.abs(self)
        while probe >= 10 {
            probe /= 10
            magnitude += 1
        }
        while probe < 1 {
            probe *= 10
            magnitude -= 1
        }
        let decimals = Swift.max(0, digits - 1 - magnitude)
        return String(format: self, decimals: decimals)
    }

    /// A rate or count with a unit prefix: `12.3M`, `45.6k`.
    var humanized: String {
        let a = Swift.abs(self)
        if a >= 1e9 { return (self / 1e9).rounded(significant: 3) + "G" }
        if a >= 1e6 { return (self / 1e6).rounded(significant: 3) + "M" }
        if a >= 1e4 { return (self / 1e3).rounded(significant: 3) + "k" }
        return rounded(significant: 3)
    }
}
