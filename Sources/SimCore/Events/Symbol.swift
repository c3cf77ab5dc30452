/// An interned string: kinds, subjects, lane names, labels and field keys are stored once per
/// simulation (and once per trace) and referred to by number.
public struct Symbol: Hashable, Comparable, Sendable {
    public var raw: UInt32

    @inlinable public init(raw: UInt32) { self.raw = raw }

    /// The empty string, always symbol 0.
    public static let empty = Symbol(raw: 0)

    public static func < (lhs: Symbol, rhs: Symbol) -> Bool { lhs.raw < rhs.raw }
}

/// The strings of one simulation, numbered in the order they were first used.
///
/// Numbering follows the run, so it is deterministic for a given schedule. A symbol's content hash is
/// cached so that digests depend on text, not on numbering.
public final class SymbolTable {
    // Confined to its simulation's thread; no access spans a call out (see `Simulation`).
    @exclusivity(unchecked) public private(set) var strings: [String] = [""]
    @exclusivity(unchecked) @usableFromInline var hashes: [UInt64] = [Digest.hash(text: "")]
    @exclusivity(unchecked) private var index: [String: Symbol] = ["": .empty]
    /// Called once for each new symbol, before it is used (the trace writer's hook).
    public var onDefine: ((Symbol, String) -> Void)?

    public init() {}

    /// The symbol for `text`, defining it if new.
    public func intern(_ text: String) -> Symbol {
        if let symbol = index[text] { return symbol }
        let symbol = Symbol(raw: UInt32(strings.count))
        strings.append(text)
        hashes.append(Digest.hash(text: text))
        index[text] = symbol
        onDefine?(symbol, text)
        return symbol
    }

    /// The symbol for `text` if it was ever used, without defining it.
    public func lookup(_ text: String) -> Symbol? { index[text] }

    public subscript(symbol: Symbol) -> String {
        Int(symbol.raw) < strings.count ? strings[Int(symbol.raw)] : "?\(symbol.raw)"
    }

    @inlinable
    public func contentHash(_ symbol: Symbol) -> UInt64 { hashes[Int(symbol.raw)] }

    public var count: Int { strings.count }
}
