/// A serial lane of the simulation: jobs posted to it run one at a time in FIFO order.
public struct LaneID: Hashable, Sendable {
    /// Position in the simulation's lane table.
    public let index: Int32
    /// The lane's name (e.g. `main`, `microtask`, `task.search`).
    public let name: Symbol

    /// The lane at `index` of a simulation's lane table, named `name` (the capture module's seams).
    package init(index: Int32, name: Symbol) {
        self.index = index
        self.name = name
    }
}

/// The stable identity of a job across runs and code changes: lane, label and ordinal.
public struct JobKey: Hashable, Sendable, CustomStringConvertible {
    /// The lane's name.
    public var lane: String
    /// The job's label.
    public var label: String
    /// Which job of that lane and label, from 1, in posting order.
    public var ordinal: UInt32

    /// The job `lane/label#ordinal`.
    public init(lane: String, label: String, ordinal: UInt32) {
        self.lane = lane
        self.label = label
        self.ordinal = ordinal
    }

    /// `lane/label#ordinal`.
    public var description: String { "\(lane)/\(label)#\(ordinal)" }
}
