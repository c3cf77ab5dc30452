/// An interned string: kinds, subjects, lane names, labels and field keys are stored once per
/// simulation (and once per trace) and referred to by number.
public struct Symbol: Hashable, Comparable, Sendable {
    /// Its number in the symbol table.
    public var raw: UInt32

    /// The symbol numbered `raw`.
    @inlinable public init(raw: UInt32) { self.raw = raw }

    /// The empty string, always symbol 0. Computed and inlinable, so that other modules get a
    /// constant instead of calling a global's accessor (it cost a call per decoded decision).
    @inlinable public static var empty: Symbol { Symbol(raw: 0) }

    /// Orders by number, that is by first use.
    public static func < (lhs: Symbol, rhs: Symbol) -> Bool { lhs.raw < rhs.raw }
}

/// The strings of one simulation, numbered in the order they were first used.
///
/// Numbering follows the run, so it is deterministic for a given schedule. A symbol's content hash is
/// cached so that digests depend on text, not on numbering.
public final class SymbolTable {
    // Confined to its simulation's thread; no access spans a call out (see `Simulation`).
    /// Every interned string, by number.
    @exclusivity(unchecked) public private(set) var strings: [String] = [""]
    @exclusivity(unchecked) @usableFromInline var hashes: [UInt64] = [Digest.hash(text: "")]
    /// Open addressing by the text's FNV hash (which `hashes` keeps anyway): slot = symbol raw + 1,
    /// 0 = empty; at most half full. A `[String: Symbol]` hashed every text with SipHash and resized
    /// as a run's ~40 symbols arrived: a third of a lost-input fuzz run's instructions.
    @exclusivity(unchecked) private var slots: [UInt32] = SymbolTable.emptySlots
    private static let emptySlots: [UInt32] = {
        var slots = [UInt32](repeating: 0, count: 128)
        slots[Int(truncatingIfNeeded: Digest.hash(text: "")) & 127] = 1
        return slots
    }()
    /// Called once for each new symbol, before it is used (the trace writer's hook).
    public var onDefine: ((Symbol, String) -> Void)?

    /// A table holding only the empty string.
    public init() {}

    /// The symbol for `text`, defining it if new.
    public func intern(_ text: String) -> Symbol {
        let hash = Digest.hash(text: text)
        let (found, slot) = find(text, hash: hash)
        if let found { return found }
        let symbol = Symbol(raw: UInt32(strings.count))
        strings.append(text)
        hashes.append(hash)
        slots[slot] = symbol.raw + 1
        if strings.count * 2 > slots.count { growSlots() }
        onDefine?(symbol, text)
        return symbol
    }

    /// The symbol for `text` if it was ever used, without defining it.
    public func lookup(_ text: String) -> Symbol? { find(text, hash: Digest.hash(text: text)).symbol }

    /// The symbol with this text, or the empty slot where it would go.
    private func find(_ text: String, hash: UInt64) -> (symbol: Symbol?, slot: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return (nil, slot) }
            let index = Int(entry - 1)
            if hashes[index] == hash && strings[index] == text { return (Symbol(raw: entry - 1), slot) }
            slot = (slot + 1) & mask
        }
    }

    private func growSlots() {
        let capacity = slots.count * 2
        var grown = [UInt32](repeating: 0, count: capacity)
        for index in strings.indices {
            var slot = Int(truncatingIfNeeded: hashes[index]) & (capacity - 1)
            while grown[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            grown[slot] = UInt32(index + 1)
        }
        slots = grown
    }

    /// The text of `symbol`, or `?N` for a number it never gave.
    public subscript(symbol: Symbol) -> String {
        Int(symbol.raw) < strings.count ? strings[Int(symbol.raw)] : "?\(symbol.raw)"
    }

    /// The FNV-1a hash of the symbol's text (cached).
    @inlinable
    public func contentHash(_ symbol: Symbol) -> UInt64 { hashes[Int(symbol.raw)] }

    /// The number of symbols, the empty string included.
    public var count: Int { strings.count }
}
