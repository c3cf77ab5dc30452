/// The sequence number of an event within its run; 1 is the first event, 0 means "none".
public typealias EventID = UInt64

/// A typed field value: an integer, an interned string, or a flag.
public enum FieldValue: Hashable, Sendable {
    /// A signed integer.
    case int(Int64)
    /// An interned string.
    case symbol(Symbol)
    /// A flag.
    case bool(Bool)
}

/// One small typed field of an event.
public struct EventField: Hashable, Sendable {
    /// The field's name.
    public var key: Symbol
    /// The field's value.
    public var value: FieldValue

    /// A field named `key` holding `value`.
    @inlinable public init(_ key: Symbol, _ value: FieldValue) {
        self.key = key
        self.value = value
    }
}

/// Up to four fields stored inline, so that recording an event allocates nothing.
public struct EventFields: Hashable, Sendable, RandomAccessCollection {
    /// The most fields an event holds; more are dropped.
    public static let capacity = 4
    @usableFromInline var storage: (EventField, EventField, EventField, EventField)
    @usableFromInline var storedCount: Int
    /// The fields held.
    public var count: Int { storedCount }

    /// No fields.
    @inlinable
    public init() {
        let blank = EventField(.empty, .int(0))
        storage = (blank, blank, blank, blank)
        storedCount = 0
    }

    /// The first `capacity` of `fields`.
    public init(_ fields: [EventField]) {
        self.init()
        for field in fields.prefix(Self.capacity) { append(field) }
    }

    /// The first field's position: always zero.
    public var startIndex: Int { 0 }
    /// One past the last field.
    public var endIndex: Int { count }

    /// The field at `position` (traps out of range).
    @inlinable
    public subscript(position: Int) -> EventField {
        precondition(position >= 0 && position < count, "field index out of range")
        switch position {
        case 0: return storage.0
        case 1: return storage.1
        case 2: return storage.2
        default: return storage.3
        }
    }

    /// Removes every field (the storage is kept, to be overwritten).
    @inlinable
    public mutating func removeAll() { storedCount = 0 }

    /// Appends a field; fields past the capacity are dropped (models keep events small on purpose).
    @inlinable
    public mutating func append(_ field: EventField) {
        let index = storedCount
        guard index < Self.capacity else { return }
        // The tuple's elements are laid out as an array of four: one indexed store instead of a
        // switch on the count (a jump table per decoded field).
        withUnsafeMutablePointer(to: &storage) { tuple in
            tuple.withMemoryRebound(to: EventField.self, capacity: Self.capacity) { $0[index] = field }
        }
        storedCount = index + 1
    }

    /// Equal when they hold the same fields in the same order.
    public static func == (lhs: EventFields, rhs: EventFields) -> Bool {
        lhs.elementsEqual(rhs)
    }

    /// Hashes the count and the fields held.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for field in self { hasher.combine(field) }
    }
}

/// One recorded event: what happened, when (virtual time), where (lane), to what (subject), and why
/// (the event that caused it).
public struct Event: Hashable, Sendable {
    /// Its number within the run, from 1.
    public var seq: EventID
    /// Virtual time in nanoseconds since the start of the run.
    public var time: Int64
    /// The lane whose job emitted it.
    public var lane: Symbol
    /// Namespaced kind, e.g. `txn.commit`.
    public var kind: Symbol
    /// What it happened to (an input's id, a view's path, …).
    public var subject: Symbol
    /// Up to four typed details.
    public var fields: EventFields
    /// The event that caused this one, or 0.
    public var cause: EventID

    /// An event as recorded.
    @inlinable
    public init(
        seq: EventID, time: Int64, lane: Symbol, kind: Symbol, subject: Symbol,
        fields: EventFields = EventFields(), cause: EventID = 0
    ) {
        self.seq = seq
        self.time = time
        self.lane = lane
        self.kind = kind
        self.subject = subject
        self.fields = fields
        self.cause = cause
    }
}
