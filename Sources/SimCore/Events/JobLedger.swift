/// An event sink that notes every job a run ran, by identity (from its `sched.pick` events): the
/// jobs of a recorded run, or how many jobs of a replay the recording did not know.
public final class JobLedger: EventSink {
    private var texts: [String] = [""]
    private var pickKind: Symbol?
    private var ordinalKey: Symbol?
    /// The recorded run's jobs, when counting the jobs outside them.
    public let known: Set<JobKey>?
    /// Every job that ran.
    public private(set) var jobs: Set<JobKey> = []
    /// When each job ran (its step, from 0).
    public private(set) var ranAt: [JobKey: Int] = [:]
    /// Jobs that ran and are not in `known`.
    public private(set) var unknown = 0

    /// Collects the jobs that run, and counts those outside `known` (when given).
    public init(known: Set<JobKey>? = nil) { self.known = known }

    /// Learns a symbol's text, so jobs can be named by their lane and label.
    public func define(_ symbol: Symbol, _ text: String) {
        while texts.count <= Int(symbol.raw) { texts.append("") }
        texts[Int(symbol.raw)] = text
        if text == "sched.pick" { pickKind = symbol }
        if text == "ordinal" { ordinalKey = symbol }
    }

    /// Notes the job an event starts (a `sched.pick`), in the order jobs ran.
    public func record(_ event: Event) {
        guard event.kind == pickKind, let ordinalKey else { return }
        var ordinal: UInt32 = 0
        for index in 0..<event.fields.count where event.fields[index].key == ordinalKey {
            if case .int(let value) = event.fields[index].value { ordinal = UInt32(truncatingIfNeeded: value) }
        }
        let key = JobKey(lane: text(event.lane), label: text(event.subject), ordinal: ordinal)
        if let known, !known.contains(key) { unknown += 1 }
        if ranAt[key] == nil { ranAt[key] = jobs.count }
        jobs.insert(key)
    }

    /// Decisions carry nothing the ledger needs: the picks' events name the jobs.
    public func record(_ decision: Decision) {}

    private func text(_ symbol: Symbol) -> String {
        Int(symbol.raw) < texts.count ? texts[Int(symbol.raw)] : ""
    }
}
