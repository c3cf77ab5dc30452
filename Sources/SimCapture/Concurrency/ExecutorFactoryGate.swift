import SimCore
import CSimInterpose
import Synchronization

/// Whether simrun's executors may be installed in this process, decided once when the process loads.
///
/// The executor factory captures `@MainActor` code, `Task {}` and sleeps, but only if it is installed
/// before the process's executors start: installing it later hangs the runtime. CSimInterpose's
/// load-time constructor calls ``installAtLoad()`` before `main` runs — the test runner's `main` in a
/// `swift test` process, `SimRun.main`'s caller in an executable — and the gate installs only when it
/// can tell that it is first: on the main thread, outside any task, with no other thread running. A
/// host that loads test code later (a test bundle opened with `dlopen` on macOS) has threads running
/// by then: the gate refuses, says why once (``ExecutorCapture/routeNote``), and the process keeps
/// the enqueue-hook route. Jobs of no simulation always go on to the platform's executors.
///
/// Set `SIMRUN_EXECUTOR_FACTORY=off` to keep simrun's executors out of a process (the enqueue hook
/// is then used); `on` (or unset) lets the gate decide.
public enum ExecutorFactoryGate {
    /// The environment variable that opts a process out: `off` (also `0`, `no`, `false`).
    public static let environmentVariable = "SIMRUN_EXECUTOR_FACTORY"

    /// What the gate knows about the process when it decides.
    public struct Facts: Sendable, Equatable {
        /// The value of `SIMRUN_EXECUTOR_FACTORY`, or nil when unset.
        public var setting: String?
        /// Whether the caller runs inside a task (the process's executors are running).
        public var insideTask: Bool
        /// Whether the caller runs on the process's initial thread (nil: the platform cannot tell).
        public var onMainThread: Bool?
        /// Threads in the process (nil: the platform cannot tell).
        public var threadCount: Int?

        /// Facts given explicitly (a test simulating a host; the gate reads the real ones itself).
        public init(setting: String?, insideTask: Bool, onMainThread: Bool?, threadCount: Int?) {
            self.setting = setting
            self.insideTask = insideTask
            self.onMainThread = onMainThread
            self.threadCount = threadCount
        }

        /// The facts of this process, now, on this thread.
        public static var current: Facts {
            let threads = Int(simrun_process_thread_count())
            let main = simrun_on_main_thread()
            return Facts(
                setting: getenv(environmentVariable).map { String(cString: $0) },
                insideTask: withUnsafeCurrentTask { $0 != nil },
                onMainThread: main < 0 ? nil : main == 1,
                threadCount: threads < 0 ? nil : threads)
        }
    }

    /// The gate's answer.
    public enum Decision: Sendable, Equatable, CustomStringConvertible {
        /// First in the process: install simrun's executors now.
        case install
        /// The user turned the factory off (the reason names the setting).
        case optedOut(String)
        /// The process's executors may already run: installing now could hang, so the factory is
        /// not installed (the reason says what was seen).
        case notFirst(String)

        /// The reason, or "installed".
        public var description: String {
            switch self {
            case .install: "installed"
            case .optedOut(let reason), .notFirst(let reason): reason
            }
        }
    }

    /// The decision for `facts`: install only when the setting allows it and nothing can have started
    /// the process's executors yet. Pure, so that every kind of host is tested without being one.
    public static func decide(_ facts: Facts) -> Decision {
        if isOptedOut(facts.setting), let setting = facts.setting?.lowercased() {
            let known = ["off", "0", "no", "false"].contains(setting)
            return .optedOut(
                "\(environmentVariable)=\(facts.setting ?? "")"
                    + (known ? "" : " (not on or off: taken as off)"))
        }
        if facts.insideTask {
            return .notFirst("simrun was loaded from inside a task: this process's executors were already running")
        }
        guard let onMainThread = facts.onMainThread, let threads = facts.threadCount else {
            return .notFirst("this platform cannot tell whether the process had started its executors")
        }
        if !onMainThread {
            return .notFirst(
                "simrun was loaded on a thread other than the main thread (a host that loads test code with dlopen)")
        }
        if threads > 1 {
            return .notFirst(
                "\(threads) threads were already running when simrun was loaded (a host that loads test code "
                    + "after starting its executors); installing executors then could hang")
        }
        return .install
    }

    /// Whether `setting` (the variable's value) keeps the factory out: anything but unset, empty, `on`,
    /// `1`, `yes` or `true`.
    static func isOptedOut(_ setting: String?) -> Bool {
        guard let setting = setting?.lowercased() else { return false }
        return !["", "on", "1", "yes", "true"].contains(setting)
    }

    /// What the load-time constructor decided, or nil when it has not run in this process.
    public static var atLoad: Decision? { loadDecision.withLock { $0 } }

    /// Decides from the real facts and installs simrun's executors when the answer is ``Decision/install``.
    /// CSimInterpose's constructor calls it before `main`; called again later it decides again (and
    /// refuses: by then the executors run) without changing the route or the recorded load decision.
    @discardableResult
    public static func installAtLoad() -> Decision {
        let decision = decide(.current)
        if decision == .install { ExecutorCapture.installFactoryFirst() }
        // Only the constructor's own call is the load-time decision (it marks itself run first).
        if simrun_load_constructor_ran() != 0 {
            loadDecision.withLock { recorded in
                if recorded == nil { recorded = decision }
            }
        }
        return decision
    }

    private static let loadDecision = Mutex<Decision?>(nil)

    /// Says once per process, on standard error, that the factory could not be installed and why.
    static func reportFallbackOnce(_ route: CaptureRoute) {
        guard case .notFirst(let reason) = atLoad, !reported.exchange(true, ordering: .acquiringAndReleasing) else {
            return
        }
        let line = fallbackMessage(reason: reason, route: route) + "\n"
        _ = Array(line.utf8).withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// The line said (once) when a process could not install the factory first: why, the route used
    /// instead, and where `@MainActor` scenarios can run.
    public static func fallbackMessage(reason: String, route: CaptureRoute) -> String {
        "simrun: the executor factory is not installed in this process: \(reason). The \(route) route is used: "
            + "@MainActor code and sleeps inside Task {} cannot be explored here; run them from an executable "
            + "built on SimRun.main."
    }

    private static let reported = Atomic<Bool>(false)
}

/// CSimInterpose's constructor calls this before `main` (see `include/CSimInterpose.h`).
@_cdecl("simrun_executors_at_load")
func simrunExecutorsAtLoad() {
    // The kernel's runs reach this module through its host (issue #42), from the first run on.
    RunHosts.install(CaptureHost())
    ExecutorFactoryGate.installAtLoad()
}
