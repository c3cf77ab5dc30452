import SimEngine
import SimTrace

/// One line of the benchmark table: a figure, its baseline measured in the same run, how they
/// compare, and the target the figure is held to.
package struct BenchFigure: Sendable {
    /// A stable machine name (the key in `--json`).
    var key: String
    /// What is measured, for the table.
    var name: String
    var value: Double
    var unit: String
    /// What the baseline is, for the table.
    var baselineName: String
    /// The baseline in the same unit as `value` (nil when there is none, e.g. "never found").
    var baseline: Double?
    /// How the figure compares with its baseline, e.g. `3.1x slower` (the table's ratio column).
    var ratioText: String
    /// The comparison as one number, defined per figure in `ratioMeaning`.
    var ratio: Double?
    var ratioMeaning: String
    /// The target, as text.
    var target: String
    /// Whether the target was met (nil for figures given as context only).
    var met: Bool?
    /// Sizes and caveats of the measurement.
    var note: String
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

extension BenchFigure {
    /// A rate held against a faster baseline rate of the same run: the ratio is baseline / rate,
    /// shown as `N x slower` (the kernel, timer and async rows).
    static func rate(
        key: String, name: String, _ rate: Double, unit: String = "jobs/s", against baselineName: String,
        _ baseline: Double, ratioMeaning: String, target: String, met: Bool?, note: String
    ) -> BenchFigure {
        let slower = baseline / rate
        return BenchFigure(
            key: key, name: name, value: rate, unit: unit, baselineName: baselineName, baseline: baseline,
            ratioText: "\(slower.rounded(significant: 3))x slower", ratio: slower, ratioMeaning: ratioMeaning,
            target: target, met: met, note: note)
    }
}
