import SimCore
import CSimInterpose
import Synchronization

/// The last guard against a run that never ends (issue #41: nothing hangs), armed only in simrun's own
/// child processes. A job that never returns — a loop that never yields, a wait in the kernel that no
/// interposer and no carrier watchdog sees — would hold its worker, and the campaign, for ever. Runs
/// bump a progress counter every few steps; a thread of this process checks it, and when a run has
/// made no progress for `seconds` of real time it prints a trap line naming the cause and kills the
/// process, so the parent records the seed as a crash with that message, and its trace up to the stuck
/// job. Real time decides only *whether* a run is given up, never a schedule. Off in processes simrun
/// does not own (a test process): there nothing can end a job that never returns, so nothing is tried.
package enum RunStallGuard {
    private static let progress = Atomic<UInt64>(0)
    private static let runsInFlight = Atomic<Int>(0)
    private static let armedSeconds = Atomic<Int>(0)

    /// The trap line's prefix: a crash whose message starts with it is a run that never ended.
    package static let messagePrefix = "Fatal error: simrun: a run made no progress for"

    /// Starts watching this process's runs (idempotent): `seconds` of no progress ends the process.
    /// `SIMRUN_STALL_SECONDS` overrides the default (tests shorten it).
    package static func arm(defaultSeconds: Int = 60) {
        var seconds = defaultSeconds
        if let text = getenv("SIMRUN_STALL_SECONDS").map({ String(cString: $0) }), let value = Int(text), value > 0 {
            seconds = value
        }
        guard armedSeconds.exchange(seconds, ordering: .acquiringAndReleasing) == 0 else { return }
        _ = simrun_thread_spawn(stallGuardEntry, nil)
    }

    /// A run starts.
    @inline(__always) static func enter() {
        guard armedSeconds.load(ordering: .relaxed) != 0 else { return }
        runsInFlight.add(1, ordering: .relaxed)
        progress.add(1, ordering: .relaxed)
    }

    /// A run ended.
    @inline(__always) static func leave() {
        guard armedSeconds.load(ordering: .relaxed) != 0 else { return }
        runsInFlight.subtract(1, ordering: .relaxed)
        progress.add(1, ordering: .relaxed)
    }

    /// A run made progress (called every few steps: a relaxed add on a counter no other thread writes
    /// often).
    @inline(__always) static func tick() { progress.add(1, ordering: .relaxed) }

    fileprivate static func watch() {
        var last = progress.load(ordering: .relaxed)
        var quiet = 0
        while true {
            _ = usleep(500_000)
            let now = progress.load(ordering: .relaxed)
            if now != last || runsInFlight.load(ordering: .relaxed) == 0 {
                last = now
                quiet = 0
                continue
            }
            quiet += 1
            let seconds = armedSeconds.load(ordering: .relaxed)
            guard quiet >= seconds * 2 else { continue }
            // No allocation, no lock: the stuck thread may hold any of the runtime's.
            var line = "\(messagePrefix) \(seconds) s of real time: a job that never returns "
            line += "(a loop that never yields, or a wait outside the model)\n"
            line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
            _ = kill(getpid(), SIGKILL)
        }
    }
}

private let stallGuardEntry: @convention(c) (UnsafeMutableRawPointer?) -> Void = { _ in RunStallGuard.watch() }
