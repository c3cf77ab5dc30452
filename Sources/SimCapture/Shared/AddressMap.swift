import SimCore

/// A grow-only map from non-zero addresses or runtime ids to values, for look-ups the async capture
/// makes several times per job (a task by its runtime id, an actor method by a resume function):
/// open addressing with a multiplicative hash instead of `Dictionary`'s seeded SipHash, which was
/// ~10% of an async job's instructions. Never iterated in a simulation (`allKeys` is for cleaning
/// up). A class owning its slots, so a look-up is a few loads with no copy-on-write check.
final class AddressMap<Value> {
    private struct Slot {
        /// 0 marks an empty slot: no address or task id is 0.
        var key: UInt
        var value: Value?
    }

    private var slots: UnsafeMutablePointer<Slot>
    private var mask: Int
    private(set) var count = 0

    init() {
        mask = 15
        slots = .allocate(capacity: 16)
        slots.initialize(repeating: Slot(key: 0, value: nil), count: 16)
    }

    deinit {
        slots.deinitialize(count: mask + 1)
        slots.deallocate()
    }

    var isEmpty: Bool { count == 0 }

    /// The slot that holds `key`, or the empty slot where it would go.
    @inline(__always)
    private func index(of key: UInt) -> Int {
        // Fibonacci hashing: the high bits of the product mix every bit of the key.
        var index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
        while slots[index].key != 0 && slots[index].key != key { index = (index + 1) & mask }
        return index
    }

    /// The value for `key` (`key` non-zero); setting nil is not supported (the map only grows).
    subscript(key: UInt) -> Value? {
        @inline(__always) get { slots[index(of: key)].value }
        set {
            precondition(key != 0 && newValue != nil, "AddressMap: a zero key or a removal")
            var at = index(of: key)
            if slots[at].key == 0 {
                if (count + 1) * 4 > (mask + 1) * 3 {
                    grow()
                    at = index(of: key)
                }
                slots[at].key = key
                count += 1
            }
            slots[at].value = newValue
        }
    }

    /// Every key, in no meaningful order (for unregistering; never for anything a run records).
    var allKeys: [UInt] { (0...mask).compactMap { slots[$0].key == 0 ? nil : slots[$0].key } }

    private func grow() {
        let old = slots
        let oldCapacity = mask + 1
        mask = oldCapacity * 2 - 1
        slots = .allocate(capacity: oldCapacity * 2)
        slots.initialize(repeating: Slot(key: 0, value: nil), count: oldCapacity * 2)
        for position in 0..<oldCapacity where old[position].key != 0 {
            slots[index(of: old[position].key)] = old[position]
        }
        old.deinitialize(count: oldCapacity)
        old.deallocate()
    }
}
