/// A grow-only map from non-zero addresses or runtime ids to values, for look-ups the async capture
/// makes several times per job (a task by its runtime id, an actor method by a resume function):
/// open addressing with a multiplicative hash instead of `Dictionary`'s seeded SipHash, which was
/// ~10% of an async job's instructions. Never iterated in a simulation (`keys` is for cleaning up).
struct AddressMap<Value> {
    /// 0 marks an empty slot: no address or task id is 0.
    private var keys: [UInt]
    private var values: [Value?]
    private(set) var count = 0

    init() {
        keys = Array(repeating: 0, count: 16)
        values = Array(repeating: nil, count: 16)
    }

    var isEmpty: Bool { count == 0 }

    /// The slot that holds `key`, or the empty slot where it would go.
    private func slot(of key: UInt) -> Int {
        let mask = keys.count - 1
        // Fibonacci hashing: the high bits of the product mix every bit of the key.
        var index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
        while keys[index] != 0 && keys[index] != key { index = (index + 1) & mask }
        return index
    }

    /// The value for `key` (`key` non-zero); setting nil is not supported (the map only grows).
    subscript(key: UInt) -> Value? {
        get {
            let index = slot(of: key)
            return keys[index] == 0 ? nil : values[index]
        }
        set {
            precondition(key != 0 && newValue != nil, "AddressMap: a zero key or a removal")
            var index = slot(of: key)
            if keys[index] == 0 {
                if (count + 1) * 4 > keys.count * 3 {
                    grow()
                    index = slot(of: key)
                }
                keys[index] = key
                count += 1
            }
            values[index] = newValue
        }
    }

    /// Every key, in no meaningful order (for unregistering; never for anything a run records).
    var allKeys: [UInt] { keys.filter { $0 != 0 } }

    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: nil, count: oldKeys.count * 2)
        for (index, key) in oldKeys.enumerated() where key != 0 {
            let target = slot(of: key)
            keys[target] = key
            values[target] = oldValues[index]
        }
    }
}
