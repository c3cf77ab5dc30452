/// One edge of a run's lock order (issue #41): a carrier took a lock of class `to` while it held one of
/// class `from`. A campaign that sees both `A → B` and `B → A`, in any runs, has found a potential
/// deadlock even when every run passed — as Linux's lock validator and go-deadlock report, but across
/// the schedules of a campaign and with the Swift runtime's task status lock among the locks.
///
/// A lock's class is where it was made (`lock made in DependencyCache.lock`, from its
/// `pthread_mutex_init`: every `NSLock()` of one property is one class), else where it was taken, and
/// the runtime's per-task status lock is one class of its own. Classes and sites are names of the
/// program's own functions, so edges from different processes and builds compare.
public struct LockOrderEdge: Hashable, Sendable, Comparable {
    /// The class of the lock held.
    public var from: String
    /// The class of the lock taken while `from` was held.
    public var to: String
    /// Where the held lock was taken (a lock point's label: `lock DependencyCache.value(_:)`).
    public var fromSite: String
    /// Where the second lock was taken.
    public var toSite: String
    /// The lane (task) that took both.
    public var lane: String
    /// Decisions made in the run before the second lock's lock point: a schedule that keeps this many
    /// of the run's decisions leaves the taker holding `from`, paused just before `to`.
    public var decisionsBefore: Int

    /// An edge.
    public init(from: String, to: String, fromSite: String, toSite: String, lane: String, decisionsBefore: Int) {
        self.from = from
        self.to = to
        self.fromSite = fromSite
        self.toSite = toSite
        self.lane = lane
        self.decisionsBefore = decisionsBefore
    }

    /// Edges in a fixed order (classes, then sites), so reports never depend on hash order.
    public static func < (a: LockOrderEdge, b: LockOrderEdge) -> Bool {
        (a.from, a.to, a.fromSite, a.toSite, a.lane, a.decisionsBefore)
            < (b.from, b.to, b.fromSite, b.toSite, b.lane, b.decisionsBefore)
    }
}

/// Two orders of the same two lock classes, seen in a campaign's runs: a potential deadlock.
public struct LockOrderCycle: Hashable, Sendable {
    /// `from` then `to`, as one run took them.
    public var first: LockOrderEdge
    /// `to` then `from`, as another (or the same) run took them.
    public var second: LockOrderEdge

    /// Every pair of opposite edges among `edges`, each pair once (the pair whose `first.from` sorts
    /// first), in a fixed order. Self-edges (two locks of one class) are not orders.
    public static func cycles(in edges: [LockOrderEdge]) -> [LockOrderCycle] {
        let sorted = edges.filter { $0.from != $0.to }.sorted()
        var firstByPair: [String: LockOrderEdge] = [:]
        for edge in sorted where firstByPair["\(edge.from)\u{0}\(edge.to)"] == nil {
            firstByPair["\(edge.from)\u{0}\(edge.to)"] = edge
        }
        var found: [LockOrderCycle] = []
        for edge in sorted where edge.from < edge.to {
            guard firstByPair["\(edge.from)\u{0}\(edge.to)"] == edge,
                let back = firstByPair["\(edge.to)\u{0}\(edge.from)"]
            else { continue }
            found.append(LockOrderCycle(first: edge, second: back))
        }
        return found
    }
}
