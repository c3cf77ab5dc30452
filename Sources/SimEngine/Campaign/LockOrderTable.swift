import SimCore

/// One edge of a run's lock order with the lowest seed whose run took it.
public struct LockOrderSighting: Sendable, Hashable {
    /// The edge: a lock of class `edge.to` taken while one of class `edge.from` was held.
    public var edge: LockOrderEdge
    /// The lowest seed of the campaign whose run took this order.
    public var seed: UInt64
}

/// The lock orders a campaign's runs took (issue #41): each pair of lock classes once, with the lowest
/// seed that took it, so that the same campaign reports the same sightings whatever its workers' pace.
package struct LockOrderTable: Sendable {
    private var byPair: [String: LockOrderSighting] = [:]

    package init() {}

    private static func key(_ edge: LockOrderEdge) -> String { "\(edge.from)\u{0}\(edge.to)" }

    /// Adds a run's edges; returns the ones whose pair was not in the table yet.
    @discardableResult
    package mutating func add(_ edges: [LockOrderEdge], seed: UInt64) -> [LockOrderEdge] {
        var new: [LockOrderEdge] = []
        for edge in edges { if note(LockOrderSighting(edge: edge, seed: seed)) { new.append(edge) } }
        return new
    }

    /// Keeps `sighting` when its pair is new or its seed is lower; true when the pair was new.
    @discardableResult
    package mutating func note(_ sighting: LockOrderSighting) -> Bool {
        let key = Self.key(sighting.edge)
        guard let known = byPair[key] else {
            byPair[key] = sighting
            return true
        }
        if sighting.seed < known.seed { byPair[key] = sighting }
        return false
    }

    /// Adds another table's sightings.
    package mutating func merge(_ other: LockOrderTable) {
        for sighting in other.byPair.values { note(sighting) }
    }

    /// Every sighting, in a fixed order.
    package var sightings: [LockOrderSighting] {
        byPair.values.sorted { ($0.edge, $0.seed) < ($1.edge, $1.seed) }
    }

    /// Every pair of lock classes taken in both orders, each once, in a fixed order.
    package var potentialDeadlocks: [PotentialDeadlock] {
        LockOrderCycle.cycles(in: sightings.map(\.edge)).compactMap { cycle in
            guard let first = byPair[Self.key(cycle.first)], let second = byPair[Self.key(cycle.second)] else {
                return nil
            }
            return PotentialDeadlock(first: first, second: second)
        }
    }
}

/// Two lock classes taken in both orders by a campaign's runs: a deadlock waiting for the schedule
/// that interleaves them, reported even when every run passed.
public struct PotentialDeadlock: Sendable {
    /// One order, with the lowest seed that took it.
    public var first: LockOrderSighting
    /// The other order.
    public var second: LockOrderSighting
    /// The traces of the two seeds' runs, when they were saved (first, then second).
    public var traces: [String] = []
    /// What the search aimed at the inverted schedule found: the deadlock's seed in that search, or
    /// nil when it found none (or did not run).
    public var aimedDeadlockSeed: UInt64?
    /// How many schedules the aimed search ran (0 when it did not run).
    public var aimedSchedules = 0
    /// Why something could not be done (saving a trace, the aimed search), or nil.
    public var problem: String?

    /// The one-line description: both classes and where each order took them.
    public var description: String {
        "\(first.edge.from) and \(first.edge.to) are taken in both orders: "
            + "seed \(first.seed) took \(first.edge.fromSite) then \(first.edge.toSite) (\(first.edge.lane)); "
            + "seed \(second.seed) took \(second.edge.fromSite) then \(second.edge.toSite) (\(second.edge.lane))"
    }
}

/// The line a worker process prints for a lock order its runs took for the first time:
/// `order\t<seed>\t<from>\t<to>\t<fromSite>\t<toSite>\t<lane>\t<decisions>` (names of functions and
/// lanes hold no tab or newline).
package struct LockOrderLine: Sendable, Equatable {
    package var sighting: LockOrderSighting

    package init(_ sighting: LockOrderSighting) { self.sighting = sighting }

    private static let prefix = "order\t"

    /// The line's text, without the newline.
    package var text: String {
        let edge = sighting.edge
        let fields = [edge.from, edge.to, edge.fromSite, edge.toSite, edge.lane].map(Self.clean)
        return Self.prefix + "\(sighting.seed)\t" + fields.joined(separator: "\t") + "\t\(edge.decisionsBefore)"
    }

    private static func clean(_ text: String) -> String {
        String(text.map { $0 == "\t" || $0 == "\n" ? " " : $0 })
    }

    /// Parses a line (without its newline); nil for anything else.
    package init?(parsing line: ArraySlice<UInt8>) {
        let prefix = Array(Self.prefix.utf8)
        guard line.count > prefix.count, line.prefix(prefix.count).elementsEqual(prefix) else { return nil }
        let fields = line.dropFirst(prefix.count).split(separator: 9, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard fields.count == 7, let seed = UInt64(fields[0]), let decisions = Int(fields[6]) else { return nil }
        sighting = LockOrderSighting(
            edge: LockOrderEdge(
                from: fields[1], to: fields[2], fromSite: fields[3], toSite: fields[4], lane: fields[5],
                decisionsBefore: decisions),
            seed: seed)
    }
}
