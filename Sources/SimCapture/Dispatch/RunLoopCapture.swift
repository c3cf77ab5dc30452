import SimCore
import CSimInterpose

/// The run-loop work of one run (issue #40): Foundation's `Timer.scheduledTimer`,
/// `RunLoop.main.add(_:forMode:)` and `RunLoop.main.perform {}` made on the run's thread. Inside a
/// run nothing runs the main run loop (the main thread drives the simulation), so this work would
/// never run and the run would pass without it. CSimInterpose's runloop.c hands it here instead:
///
/// - a timer of the main run loop fires as a `main`-lane job (`runloop.timer`) at its virtual fire
///   date, and again after each interval while it repeats and is valid; `invalidate()` cancels it;
/// - a block performed on the main run loop runs as a `main`-lane job (`runloop.perform`);
/// - from a `main`-lane job the thread's current run loop is the main run loop's stand-in (inside
///   `swift test` `@MainActor` code runs on a carrier, not on the process's main thread);
/// - a timer or block on the run loop of another thread — which nothing runs, inside a run or on a
///   device — fails the run (`stays-in-simulation`) saying it would never fire.
final class RunLoopCapture {
    unowned let simulation: Simulation
    /// Timers waiting for their fire date, by their CoreFoundation object.
    private var pending: [UInt: TimerHandle] = [:]

    init(simulation: Simulation) { self.simulation = simulation }

    deinit {
        // Timers that never fired (the run ended first): the run retained each when it was added.
        for timer in pending.keys.sorted() {
            if let pointer = UnsafeMutableRawPointer(bitPattern: timer) { simrun_runloop_forget(pointer) }
        }
    }

    /// Whether work added to a run loop (`where`: 1 the main run loop, 2 this thread's current one,
    /// 0 another) runs on the `main` lane; fails the run when it would never run.
    private func runsOnMain(_ place: Int32, what: String) -> Bool {
        if place == 1 { return true }
        if place == 2, let lane = simulation.currentLane, simulation.symbols[lane.name] == "main" { return true }
        simulation.noteUncontrolled(.escape, "\(what) on a run loop nothing runs")
        simulation.fail(
            "stays-in-simulation",
            "work escaped the simulation: \(what) on the run loop of a thread that does not run it (\(place == 2 ? "the current thread's" : "another thread's")): it would never run")
        return false
    }

    /// A timer added to a run loop: scheduled `delay` seconds from now on the `main` lane.
    func add(_ timer: UnsafeMutableRawPointer, place: Int32, delay: Double, interval: Double) -> Bool {
        guard runsOnMain(place, what: "a Timer") else { return false }
        let key = UInt(bitPattern: timer)
        if let old = pending[key] { simulation.cancel(old) }
        pending[key] = schedule(timer, after: delay)
        return true
    }

    private func schedule(_ timer: UnsafeMutableRawPointer, after seconds: Double) -> TimerHandle {
        // Fire dates are seconds since 2001 in a Double: about 0.1 µs apart at today's dates, so the
        // delay is rounded to the microsecond (a 300 ms timer fires at 300 ms, not 299.999952 ms).
        let delay = Int64((max(0, seconds) * 1e6).rounded()) * 1_000
        let main = simulation.lane("main")
        return simulation.schedule(at: simulation.now &+ delay, on: main, "runloop.timer") { [unowned self] in
            fire(timer)
        }
    }

    private func fire(_ timer: UnsafeMutableRawPointer) {
        let key = UInt(bitPattern: timer)
        guard pending.removeValue(forKey: key) != nil else { return }
        if simrun_runloop_fire(timer) == 1 {
            pending[key] = schedule(timer, after: simrun_runloop_interval(timer))
        } else {
            simrun_runloop_forget(timer)
        }
    }

    /// A timer invalidated before it fired: its fire is cancelled.
    func invalidate(_ timer: UnsafeMutableRawPointer) {
        guard let handle = pending.removeValue(forKey: UInt(bitPattern: timer)) else { return }
        simulation.cancel(handle)
        simrun_runloop_forget(timer)
    }

    /// A block performed on a run loop: a `main`-lane job.
    func perform(_ block: UnsafeMutableRawPointer, place: Int32) -> Bool {
        guard runsOnMain(place, what: "a RunLoop.perform block") else { return false }
        let kept = simrun_runloop_copy_block(block)
        simulation.post(on: "main", "runloop.perform") { simrun_runloop_run_block(kept) }
        return true
    }
}

extension Simulation {
    fileprivate var runLoops: RunLoopCapture {
        if let capture = runLoopCapture { return capture }
        let capture = RunLoopCapture(simulation: self)
        runLoopCapture = capture
        return capture
    }
}

@_cdecl("simrun_runloop_timer")
func simrunRunLoopTimer(
    _ run: UnsafeMutableRawPointer, _ timer: UnsafeMutableRawPointer, _ place: Int32, _ delay: Double,
    _ interval: Double
) -> Int32 {
    Unmanaged<Simulation>.fromOpaque(run).takeUnretainedValue().runLoops.add(
        timer, place: place, delay: delay, interval: interval) ? 1 : 0
}

@_cdecl("simrun_runloop_invalidate")
func simrunRunLoopInvalidate(_ run: UnsafeMutableRawPointer, _ timer: UnsafeMutableRawPointer) {
    Unmanaged<Simulation>.fromOpaque(run).takeUnretainedValue().runLoops.invalidate(timer)
}

@_cdecl("simrun_runloop_block")
func simrunRunLoopBlock(_ run: UnsafeMutableRawPointer, _ block: UnsafeMutableRawPointer, _ place: Int32) -> Int32 {
    Unmanaged<Simulation>.fromOpaque(run).takeUnretainedValue().runLoops.perform(block, place: place) ? 1 : 0
}

/// Whether Foundation's run-loop timers and blocks run under the scheduler in this process (Linux, an
/// executable or test executable that links SimCapture); elsewhere they stay Foundation's.
public enum RunLoopCapturing {
    /// True where `Timer.scheduledTimer` and `RunLoop.main.perform` made in a run go to the run.
    public static let isActive: Bool = simrun_runloop_interposed() != 0
}
