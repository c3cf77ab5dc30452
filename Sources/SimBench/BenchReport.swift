import SimEngine

/// Renders benchmark figures as a Markdown table or as one JSON object.
package struct BenchReport {
    var figures: [BenchFigure]
    var quick: Bool

    /// A report of `figures`, measured at the reduced sizes when `quick`.
    package init(figures: [BenchFigure], quick: Bool) {
        self.figures = figures
        self.quick = quick
    }

    func value(_ number: Double?, _ unit: String) -> String {
        guard let number, number.isFinite else { return "n/a" }
        switch unit {
        case "B/event", "MiB": return "\(number.rounded(significant: 3)) \(unit)"
        case "schedules", "allocations": return number.rounded(significant: 3)
        default: return "\(number.humanized)/s"
        }
    }

    package var table: [String] {
        var lines = [
            "| figure | value | baseline (same run) | ratio | target | met |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        for figure in figures {
            let met = figure.met.map { $0 ? "yes" : "**no**" } ?? "—"
            let baseline =
                figure.baseline == nil && figure.key == "until_bug_random"
                ? "\(figure.baselineName): never" : "\(figure.baselineName): \(value(figure.baseline, figure.unit))"
            lines.append(
                "| \(figure.name) | \(value(figure.value, figure.unit)) | \(baseline) | \(figure.ratioText) | \(figure.target) | \(met) |"
            )
        }
        return lines
    }

    package var notes: [String] { figures.map { "- \($0.name): \($0.note)" } }

    package var json: String {
        var parts: [String] = []
        for figure in figures {
            let fields = [
                "\"key\":\(quoted(figure.key))", "\"name\":\(quoted(figure.name))", "\"value\":\(number(figure.value))",
                "\"unit\":\(quoted(figure.unit))", "\"baseline_name\":\(quoted(figure.baselineName))",
                "\"baseline\":\(number(figure.baseline))", "\"ratio\":\(number(figure.ratio))",
                "\"ratio_meaning\":\(quoted(figure.ratioMeaning))", "\"target\":\(quoted(figure.target))",
                "\"met\":\(figure.met.map { $0 ? "true" : "false" } ?? "null")", "\"note\":\(quoted(figure.note))",
            ]
            parts.append("{" + fields.joined(separator: ",") + "}")
        }
        let allMet = figures.allSatisfy { $0.met != false }
        return "{\"command\":\"simrun bench\",\"quick\":\(quick),\"all_met\":\(allMet),\"figures\":[\n"
            + parts.joined(separator: ",\n") + "\n]}"
    }

    private func number(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "null" }
        if value == value.rounded() && Swift.abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    private func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 {
                    out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
