import Dispatch
import Foundation
import SimCapture
import SimCore

/// A user's own code that reads the clocks app code reads: a `@MainActor` activity log stamps each
/// entry with `Date()`, measures its debounce window with `ContinuousClock.now`, and sets its timeout
/// from `DispatchTime.now()`; a `Task {}` and a `@MainActor` task log entries after odd sleeps (7 ms,
/// 16 ms, 333 ms).
///
/// Inside a run every one of those clocks is the run's virtual clock (SimCore's article "Your own async code": "Time inside a run"),
/// so the stamps are exactly the virtual instants of the entries, on a busy machine as on an idle one.
/// The oracles fail the run when any reading is real time or a sleep's length is not what was asked.
enum ActivityStamps {
    static let scenario = Scenario.async(
        name: "activity-stamps",
        summary: "Date(), ContinuousClock and DispatchTime read in @MainActor and Task {} code are virtual and exact",
        variants: [.init("default", "entries after sleeps of 7, 16 and 333 ms")]
    ) { simulation, _ in
        let log = ActivityLog()
        let sim = SimulationBox(simulation)
        let worker = Task {
            try? await Task.sleep(for: .milliseconds(7))
            await log.record("task", at: sim.simulation.now)
        }
        await worker.value
        await log.debounce(sim)
        let entries = await log.entries
        simulation.atEnd("stamps are the virtual time") {
            entries.lazy.compactMap(\.problem).first
        }
        simulation.atEnd("every entry was logged") {
            entries.map(\.source) == ["task", "main", "main-task"] ? nil : "entries \(entries.map(\.source))"
        }
    }
}

/// One log entry: what each clock read, and the run's virtual time then.
struct ActivityEntry: Sendable {
    let source: String
    let virtual: Int64
    let date: Date
    let uptime: UInt64

    /// Why the entry's stamps are not the run's virtual time, or nil.
    var problem: String? {
        let expectedDate = Date(
            timeIntervalSince1970: Double(VirtualClocks.wallClockEpochUnixSeconds) + Double(virtual) / 1e9)
        if abs(date.timeIntervalSince(expectedDate)) > 1e-6 {
            return "\(source): Date() read \(date), the virtual wall clock is \(expectedDate)"
        }
        let expectedUptime = UInt64(VirtualClocks.monotonicEpoch.nanosecondsClamped + virtual)
        if uptime != expectedUptime {
            return "\(source): DispatchTime.now() read \(uptime) ns, the virtual clock is \(expectedUptime) ns"
        }
        return nil
    }
}

@MainActor final class ActivityLog {
    var entries: [ActivityEntry] = []
    private var problems: [String] = []

    func record(_ source: String, at virtual: Int64) {
        entries.append(
            ActivityEntry(source: source, virtual: virtual, date: Date(), uptime: DispatchTime.now().uptimeNanoseconds))
    }

    /// Waits out a 16 ms debounce window measured on `ContinuousClock`, then a 333 ms timeout set from
    /// `DispatchTime.now()` in a `@MainActor` task.
    func debounce(_ sim: SimulationBox) async {
        let start = ContinuousClock.now
        try? await Task.sleep(for: .milliseconds(16))
        let window = ContinuousClock.now - start
        record(window == .milliseconds(16) ? "main" : "main (window \(window))", at: sim.simulation.now)
        let deadline = DispatchTime.now() + .milliseconds(333)
        await Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(333))
            let late = Int64(DispatchTime.now().uptimeNanoseconds) - Int64(deadline.uptimeNanoseconds)
            self.record(late == 0 ? "main-task" : "main-task (late by \(late) ns)", at: sim.simulation.now)
        }.value
    }
}

/// The simulation, handed to code on the run's lanes (all on the run's thread).
struct SimulationBox: @unchecked Sendable {
    let simulation: Simulation
    init(_ simulation: Simulation) { self.simulation = simulation }
}
