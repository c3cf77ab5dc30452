/// What a job label says the job will touch, by the convention `"<verb> <object> [more]"`: `"read x"`,
/// `"write balance"`, `"lock m"`. POS decides which pending jobs race with the one that ran from it;
/// `nsurw` counts the jobs that touch an object as the "interesting" ones. A label without an object
/// (`"txn.commit"`) is taken to touch everything: nothing is assumed independent that might not be.
struct JobAccess: Hashable {
    /// The object's name hash, or nil for "anything".
    let object: UInt64?
    let isRead: Bool

    init(label text: String) {
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        if words.count >= 2 {
            object = Digest.hash(text: String(words[1]))
            isRead = words[0] == "read"
        } else {
            object = nil
            isRead = false
        }
    }

    /// Two accesses race when they may touch the same object and are not both reads.
    func races(with other: JobAccess) -> Bool {
        if isRead && other.isRead { return false }
        guard let object, let otherObject = other.object else { return true }
        return object == otherObject
    }
}

/// Per-run cache of label accesses (labels are interned per run, so a symbol maps to one text).
struct JobAccessCache {
    private var known: [Symbol: JobAccess] = [:]

    mutating func reset() { known.removeAll(keepingCapacity: true) }

    mutating func access(_ label: Symbol, in symbols: SymbolTable) -> JobAccess {
        if let cached = known[label] { return cached }
        let access = JobAccess(label: symbols[label])
        known[label] = access
        return access
    }
}
