import SimCapture
import SimCore

/// An actor buffer of capacity one whose `offer` checks for room, awaits its journal, then appends:
/// two offers during one await both succeed and the buffer holds more than it may.
///
/// `buggy`: check room, await the journal, append. `fixed`: append (taking the room) before the
/// await. `poll()` takes the oldest item without awaiting.
///
/// Known minimal scenario: `offer(1)` ‖ `offer(1)` → true and true (one at a time: true, then false:
/// the buffer is full).
public enum BoundedBufferCheck {
    /// The minimal failing scenario shrinking reaches.
    public static let minimal = CallScenario(tasks: [[.init(0, 0)], [.init(0, 0)]])

    /// The declaration: `offer(x)` and `poll()`.
    public static let check = ObjectCheck<JournaledBuffer>(
        name: "bounded-buffer-check",
        summary: "a buffer of one checks for room, awaits its journal, appends: two offers both succeed",
        variants: [
            .init("buggy", "check for room, await the journal, append") { _ in JournaledBuffer(reservesFirst: false) },
            .init("fixed", "append first (taking the room), then await the journal") { _ in
                JournaledBuffer(reservesFirst: true)
            },
        ],
        operations: [
            .init("offer", arguments: [1, 2]) { buffer, item in await buffer.offer(item) },
            .init("poll") { await $0.poll() },
        ])

    /// The scenario `simrun list` shows.
    public static let scenario = check.scenario()
}

/// The buffer under test: capacity one.
public actor JournaledBuffer {
    let journal = WriteAheadLog()
    let reservesFirst: Bool
    let capacity = 1
    private var items: [Int] = []

    init(reservesFirst: Bool) { self.reservesFirst = reservesFirst }

    /// Adds `item` when there is room; false when the buffer is full.
    public func offer(_ item: Int) async -> Bool {
        guard items.count < capacity else { return false }
        if reservesFirst {
            items.append(item)
            await journal.append(item)
            return true
        }
        await journal.append(item)
        items.append(item)
        return true
    }

    /// The oldest item, or nil when empty.
    public func poll() -> Int? { items.isEmpty ? nil : items.removeFirst() }
}
