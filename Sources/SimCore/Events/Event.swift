/// The sequence number of an event within its run; 1 is the first event, 0 means "none".
public typealias EventID = UInt64

/// A typed field value: an integer, an interned string, or a flag.
public enum FieldValue: Hashable, Sendable {
    case int(Int64)
    case symbol(Symbol)
    case bool(Bool)
}

/// One small typed field of an event.
public struct EventField: Hashable, Sendable {
    public var key: Symbol
    public var value: FieldValue

    @inlinable public init(_ key: Symbol, _ value: FieldValue) {
        self.key = key
        self.value = value
    }
}

/// Up to four fields stored inline, so that recording an event allocates nothing.
public struct EventFields: Hashable, Sendable, RandomAccessCollection {
    public static let capacity = 4
    @usableFromInline var storage: (EventField, EventField, EventField, EventField)
    @usableFromInline var storedCount: Int
    public var count: Int { storedCount }

    @inlinable
    public init() {
        let blank = EventField(.empty, .int(0))
        storage = (blank, blank, blank, blank)
        storedCount = 0
    }

    public init(_ fields: [EventField]) {
        self.init()
        for field in fields.prefix(Self.capacity) { append(field) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

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
        switch count {
        case 0: storage.0 = field
        case 1: storage.1 = field
        case 2: storage.2 = field
        case 3: storage.3 = field
        default: return
        }
        storedCount += 1
    }

    public static func == (lhs: EventFields, rhs: EventFields) -> Bool {
        lhs.elementsEqual(rhs)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for field in self { hasher.combine(field) }
    }
}

/// One recorded event: what happened, when (virtual time), where (lane), to what (subject), and why
/// (the event that caused it).
public struct Event: Hashable, Sendable {
    public var seq: EventID
    /// Virtual time in nanoseconds since the start of the run.
    public var time: Int64
    public var lane: Symbol
    /// Namespaced kind, e.g. `txn.commit`.
    public var kind: Symbol
    public var subject: Symbol
    public var fields: EventFields
    /// The event that caused this one, or 0.
    public var cause: EventID

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
