/// A named piece of shared state whose every read and write is an event, so that which write each
/// read saw (its *reads-from* pair) is observable: in the trace (`shared.read` carries `from`, the
/// event of the write it saw, 0 for the initial value) and by a strategy that adopts
/// `ReadsFromObserver` (the coverage-guided mode keeps schedules that show new pairs).
///
/// ```swift
/// let x = sim.shared("x", 0)
/// sim.post(on: "t1", "write x") { x.write(1) }
/// sim.post(on: "t2", "read x") { if x.read() == 1 { … } }
/// ```
///
/// Like the simulation it belongs to, a cell is confined to the simulation's thread.
public final class SharedCell<Value>: @unchecked Sendable {
    unowned let simulation: Simulation
    let keys: SharedSymbols
    /// The cell's name, as recorded in the events' subject.
    public let name: Symbol
    private var value: Value
    /// The event of the last write (0: the initial value) and the site that wrote it.
    private var lastWrite: EventID = 0
    private var lastWriteSite: UInt64 = 0
    /// The last write's lane and label hashes (0, 0: the initial value), for `SharedAccessObserver`.
    private var lastWriteLane: UInt64 = 0
    private var lastWriteLabel: UInt64 = 0

    init(simulation: Simulation, keys: SharedSymbols, name: Symbol, initial: Value) {
        self.simulation = simulation
        self.keys = keys
        self.name = name
        self.value = initial
    }

    /// Reads the value: records `shared.read` and reports the reads-from pair.
    public func read() -> Value {
        let sim = simulation
        var fields = EventFields()
        fields.append(EventField(keys.from, .int(Int64(lastWrite))))
        if let shown = Self.fieldValue(value) { fields.append(EventField(keys.value, shown)) }
        sim.emit(keys.read, subject: name, fields: fields)
        if let observer = sim.readsFromObserver {
            observer.observeReadsFrom(sim.readsFromPair(cell: name, writeSite: lastWriteSite))
        }
        if let observer = sim.accessObserver {
            observer.observeAccess(
                SharedAccess(
                    cell: sim.symbols.contentHash(name), lane: sim.accessLane(), label: sim.accessLabel(),
                    isWrite: false, fromLane: lastWriteLane, fromLabel: lastWriteLabel))
        }
        return value
    }

    /// Writes the value: records `shared.write`; later reads see this write.
    public func write(_ newValue: Value) {
        let sim = simulation
        value = newValue
        var fields = EventFields()
        if let shown = Self.fieldValue(newValue) { fields.append(EventField(keys.value, shown)) }
        lastWrite = sim.emit(keys.write, subject: name, fields: fields)
        lastWriteSite = sim.accessSite()
        if let observer = sim.accessObserver {
            lastWriteLane = sim.accessLane()
            lastWriteLabel = sim.accessLabel()
            observer.observeAccess(
                SharedAccess(
                    cell: sim.symbols.contentHash(name), lane: lastWriteLane, label: lastWriteLabel, isWrite: true,
                    fromLane: 0, fromLabel: 0))
        }
    }

    /// The value without an event: for oracles, which observe rather than take part.
    public var peek: Value { value }

    private static func fieldValue(_ value: Value) -> FieldValue? {
        switch value {
        case let number as Int: .int(Int64(number))
        case let flag as Bool: .bool(flag)
        default: nil
        }
    }
}

/// A strategy that wants to see every reads-from pair of a run (the coverage-guided mode).
public protocol ReadsFromObserver: AnyObject {
    /// A read saw a write: `pair` identifies (cell, reading site, writing site) stably across runs.
    func observeReadsFrom(_ pair: UInt64)
}

/// One access to a shared cell, as a `SharedAccessObserver` sees it: every name by its content hash,
/// stable across runs.
public struct SharedAccess: Sendable, Hashable {
    /// The cell's name.
    public var cell: UInt64
    /// The lane of the job that accessed it (0 outside any job).
    public var lane: UInt64
    /// That job's label (0 outside any job).
    public var label: UInt64
    /// A write, or a read.
    public var isWrite: Bool
    /// For a read: the lane and label of the job whose write it saw (0, 0: the initial value).
    public var fromLane: UInt64
    /// See `fromLane`.
    public var fromLabel: UInt64

    /// An access of `cell` by the job `label` on `lane`; a read names the write it saw.
    public init(cell: UInt64, lane: UInt64, label: UInt64, isWrite: Bool, fromLane: UInt64, fromLabel: UInt64) {
        self.cell = cell
        self.lane = lane
        self.label = label
        self.isWrite = isWrite
        self.fromLane = fromLane
        self.fromLabel = fromLabel
    }

    /// The site of the access, lane and label together (as `Simulation.accessSite` computes it).
    public var site: UInt64 { Self.site(lane: lane, label: label) }

    /// The site of lane and label hashes; never 0.
    public static func site(lane: UInt64, label: UInt64) -> UInt64 {
        var hash = Digest()
        hash.mix(lane)
        hash.mix(label)
        return hash.value | 1
    }
}

/// A strategy that wants every shared-cell access of a run: which job touched which cell, and for a
/// read, which job's write it saw (`surw` chooses its interesting events from these, `rff` its
/// reads-from pairs).
public protocol SharedAccessObserver: AnyObject {
    /// A job read or wrote a shared cell.
    func observeAccess(_ access: SharedAccess)
}

extension Simulation {
    /// The site a candidate job would access shared cells from (`SharedAccess.site`).
    public static func accessSite(lane: Symbol, label: Symbol, in symbols: SymbolTable) -> UInt64 {
        SharedAccess.site(lane: symbols.contentHash(lane), label: symbols.contentHash(label))
    }

    /// A shared cell named `name` holding `initial`; its reads and writes are events.
    public func shared<Value>(_ name: String, _ initial: Value) -> SharedCell<Value> {
        let keys =
            sharedSymbols
            ?? SharedSymbols(
                read: symbols.intern("shared.read"), write: symbols.intern("shared.write"),
                from: symbols.intern("from"), value: symbols.intern("value"))
        sharedSymbols = keys
        return SharedCell(simulation: self, keys: keys, name: symbols.intern(name), initial: initial)
    }

    /// The site of an access: the running job's lane and label (a stand-in for the program location),
    /// as a hash stable across runs (symbols hash by content).
    func accessSite() -> UInt64 {
        guard currentLaneIndex >= 0 else { return 1 }
        var hash = Digest()
        hash.mix(symbols.contentHash(lanes[Int(currentLaneIndex)].name))
        hash.mix(symbols.contentHash(currentJobLabel))
        return hash.value | 1
    }

    /// The running job's lane, by its name's hash (0 outside any job).
    func accessLane() -> UInt64 {
        guard currentLaneIndex >= 0 else { return 0 }
        return symbols.contentHash(lanes[Int(currentLaneIndex)].name)
    }

    /// The running job's label, by its text's hash (0 outside any job).
    func accessLabel() -> UInt64 {
        guard currentLaneIndex >= 0 else { return 0 }
        return symbols.contentHash(currentJobLabel)
    }

    func readsFromPair(cell: Symbol, writeSite: UInt64) -> UInt64 {
        var hash = Digest()
        hash.mix(symbols.contentHash(cell))
        hash.mix(accessSite())
        hash.mix(writeSite)
        return hash.value
    }
}

/// The kinds and keys shared-cell events use.
struct SharedSymbols {
    let read: Symbol
    let write: Symbol
    let from: Symbol
    let value: Symbol
}
