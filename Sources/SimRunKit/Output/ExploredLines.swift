import SimEngine

/// The lines a campaign's summary ends with (`fuzz`, `merge`): how many distinct schedules ran, what
/// the runs did not control, and what a pass must still say (``Explored/note``).
enum ExploredLines {
    /// `  explored: 7 distinct schedules of 7 runs`, then one `  not controlled: …` line per kind and
    /// the note, if any.
    static func lines(_ explored: Explored) -> [String] {
        var lines = ["  explored: \(explored.figure)"]
        lines += explored.uncontrolledLines.map { "  not controlled: \($0)" }
        if let note = explored.note { lines.append("  \(note)") }
        return lines
    }

    /// Prints the lines on stdout.
    static func print(_ explored: Explored, console: Console) {
        for line in lines(explored) { console.out(line) }
    }
}
