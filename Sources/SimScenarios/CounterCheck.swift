import SimCapture
import SimCore

/// An actor counter with an `await` between the read and the write of its value: the classic lost
/// update, found by the linearizability check alone.
///
/// `buggy`: `increment()` reads the value, awaits the write-ahead log, then stores value + 1, so two
/// increments that overlap both return 1. `fixed`: the value is updated before the await; the log
/// write follows.
///
/// Known minimal scenario: `increment()` ‖ `increment()` → 1 and 1 (one at a time: 1 and 2).
public enum CounterCheck {
    /// The minimal failing scenario shrinking reaches.
    public static let minimal = CallScenario(tasks: [[.init(0)], [.init(0)]])

    /// The declaration: `increment()`, `add(n)` and `value()`.
    public static let check = ObjectCheck<LoggedCounter>(
        name: "counter-check",
        summary: "an actor counter awaits its log between reading and writing the value: increments are lost",
        variants: [
            .init("buggy", "read, await the log, write: an increment during the await is overwritten") { _ in
                LoggedCounter(writesFirst: false)
            },
            .init("fixed", "update the value, then await the log") { _ in LoggedCounter(writesFirst: true) },
        ],
        operations: [
            .init("increment") { await $0.increment() },
            .init("add", arguments: [2, 5]) { counter, amount in await counter.add(amount) },
            .init("value") { await $0.value },
        ])

    /// The scenario `simrun list` shows.
    public static let scenario = check.scenario()
}

/// A write-ahead log: appending takes a couple of hops.
actor WriteAheadLog {
    private(set) var entries: [Int] = []
    func append(_ value: Int) async {
        await Task.yield()
        entries.append(value)
    }
}

/// The counter under test.
public actor LoggedCounter {
    let log = WriteAheadLog()
    let writesFirst: Bool
    /// The current value.
    public private(set) var value = 0

    init(writesFirst: Bool) { self.writesFirst = writesFirst }

    /// Adds one; returns the new value.
    public func increment() async -> Int { await add(1) }

    /// Adds `amount`; returns the new value.
    public func add(_ amount: Int) async -> Int {
        if writesFirst {
            value += amount
            let written = value
            await log.append(written)
            return written
        }
        let read = value
        await log.append(read + amount)
        value = read + amount
        return value
    }
}
