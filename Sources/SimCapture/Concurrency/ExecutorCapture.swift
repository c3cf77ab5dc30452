// The one Swift file that touches the concurrency runtime's SPI and underscored entry points (DESIGN
// §9): the executor factory (`_createExecutors(factory:)`), the global enqueue hook
// (`swift_task_enqueueGlobal_hook`), a job's task id (`swift_task_getJobTaskId`) and a thread-local
// slot. The rest of SimCapture sees only `CapturedJob`, `JobRouter` and `CaptureRoute` (the task
// objects' fields are read in C, CSimInterpose's task_state.c); the kernel, SimCore, none of it.
// `CaptureProbeTests` pins down what each route captures, so a toolchain that changes any of this
// fails `swift test` instead of silently letting work escape.

import SimCore
import CSimInterpose
import Synchronization

#if compiler(>=6.3)
    @_spi(ExperimentalCustomExecutors) @_spi(ExperimentalScheduling) import _Concurrency
#endif
/// A job handed to the simulation by one of the capture routes, with what the router needs to place it.
struct CapturedJob {
    let job: UnownedJob
    /// The runtime's id of the job's task (unique in the process while the task lives), or 0 for a job
    /// that is not a task (an actor's drain job). A key only: never an identity in a trace.
    let taskID: UInt64
}

/// Where captured jobs go: the capture of the simulation running on this thread.
protocol JobRouter: AnyObject, Sendable {
    /// A job for the global (default) executor, enqueued on the simulation's thread.
    func enqueueGlobal(_ job: CapturedJob)
    /// A job for the main actor, enqueued on the simulation's thread.
    func enqueueMain(_ job: CapturedJob)
    /// A job due `delay` of virtual time from now (a sleep; see `SleepDelay`).
    func enqueueTimed(_ job: CapturedJob, delay: Duration)
    /// A job that belongs to a task of this simulation but was enqueued from another thread.
    func enqueueForeign(_ job: CapturedJob, what: String)
    /// The instant the job running now started on the continuous clock: only read where the clocks
    /// stay real (`SleepDelay.roundest`).
    var jobStartContinuous: ContinuousClock.Instant { get }
}

/// How plain Swift concurrency reaches the scheduler in this process.
public enum CaptureRoute: String, Sendable, CustomStringConvertible {
    /// simrun's executors were installed with `_createExecutors(factory:)` from a synchronous main:
    /// `Task {}`, `Task.detached`, actors, `@MainActor` and `Task.sleep` are all captured.
    case executorFactory = "executor-factory"
    /// The runtime's global enqueue hook: `Task {}`, `Task.detached` and actor jobs are captured;
    /// `@MainActor` hops and sleeps are not (they are reported as escapes).
    case enqueueHook = "enqueue-hook"
    /// Neither route is available with this toolchain: async scenarios cannot run.
    case unavailable = "unavailable"

    /// The route's name, as the capture matrix ("Your own async code") and the bench notes print it.
    public var description: String { rawValue }

    /// Whether `@MainActor` jobs and clock sleeps reach the scheduler on this route.
    public var capturesMainActor: Bool { self == .executorFactory }
}

/// The capture routes: installing them, and the per-thread binding of a run to its router.
public enum ExecutorCapture {
    /// The route in force in this process (after `installExecutorFactory()` or the first async run).
    public static var route: CaptureRoute {
        switch installed.load(ordering: .acquiring) {
        case 1: .executorFactory
        case 2: .enqueueHook
        default: .unavailable
        }
    }

    /// 0 nothing, 1 factory, 2 hook. Process-wide on purpose: a route is a property of the process.
    private static let installed = Atomic<Int>(0)
    private static let installLock = Mutex<Void>(())

    /// Why the executor factory is not the route in force (opted out, or the process could not install
    /// it first), or nil when it is.
    public static var routeNote: String? {
        if route == .executorFactory { return nil }
        switch ExecutorFactoryGate.atLoad {
        case .optedOut(let reason), .notFirst(let reason): return reason
        case .install: return "this toolchain or OS offers no executor factory"
        case nil: return "simrun's load-time constructor did not run in this process"
        }
    }

    /// Installs simrun's main and default executors for the whole process. Call it first thing in a
    /// synchronous `main`, before any task exists (`SimRun.main` does); later it would hang the
    /// runtime, so it refuses inside a task and once any route is installed. In executables that link
    /// SimCore the load-time constructor has usually installed them already: this then changes
    /// nothing. `SIMRUN_EXECUTOR_FACTORY=off` keeps them out. Returns the route in force afterwards.
    @discardableResult
    public static func installExecutorFactory() -> CaptureRoute {
        // Called from inside a task, the platform's executors are already running: installing now
        // would hang (probes). Refuse, and leave the hook route to `ensureRoute`.
        guard !withUnsafeCurrentTask(body: { $0 != nil }) else { return route }
        guard !ExecutorFactoryGate.isOptedOut(ExecutorFactoryGate.Facts.current.setting) else { return route }
        installFactoryFirst()
        return route
    }

    /// Installs the factory unless a route is in force; the caller has made sure it is first.
    static func installFactoryFirst() {
        installLock.withLock { _ in
            guard installed.load(ordering: .acquiring) == 0 else { return }
            #if compiler(>=6.3)
                if #available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *) {
                    _createExecutors(factory: SimExecutorFactory.self)
                    installed.store(1, ordering: .releasing)
                }
            #endif
        }
    }

    /// Makes sure some route is in force: the factory if it was installed, else the enqueue hook
    /// (any process, tests included). Returns the route in force.
    @discardableResult
    public static func ensureRoute() -> CaptureRoute {
        if installed.load(ordering: .acquiring) != 0 { return route }
        installLock.withLock { _ in
            guard installed.load(ordering: .acquiring) == 0 else { return }
            if EnqueueHook.install() { installed.store(2, ordering: .releasing) }
        }
        ExecutorFactoryGate.reportFallbackOnce(route)
        return route
    }

    // MARK: The router of this thread

    /// The router of the run on this thread (a weak box in a pthread slot: a run binds itself for
    /// its duration and unbinds at the end).
    static var current: (any JobRouter)? {
        guard let raw = pthread_getspecific(slot.key) else { return nil }
        return Unmanaged<RouterBox>.fromOpaque(raw).takeUnretainedValue().router
    }

    /// Binds this thread to `router` (nil: to none). `pinned`: the binding is undone on this
    /// thread before the router goes (a run's own thread: `Scenario.run` unbinds before its
    /// simulation, which holds the capture, is released), so the router is read without the weak
    /// reference's retain and release, which take the side-table path (the capture is referred to
    /// weakly) at every job. A pool carrier's binding outlives its run and is never pinned.
    static func bind(_ router: (any JobRouter)?, pinned: Bool = false) {
        if let old = pthread_getspecific(slot.key) { Unmanaged<RouterBox>.fromOpaque(old).release() }
        let box = router.map { Unmanaged.passRetained(RouterBox($0, pinned: pinned)).toOpaque() }
        _ = pthread_setspecific(slot.key, box)
    }

    /// Undoes this thread's binding if it is pinned (to `router`, when given): a pinned binding must
    /// not outlive its router.
    static func unbindPinned(from router: AsyncCapture? = nil) {
        guard let pinned = pinnedRouter else { return }
        if let router, pinned.toOpaque() != Unmanaged.passUnretained(router).toOpaque() { return }
        bind(nil)
    }

    /// This thread's router when its binding is pinned (`bind(_:pinned:)`), unretained.
    static var pinnedRouter: Unmanaged<AsyncCapture>? {
        guard let raw = pthread_getspecific(slot.key) else { return nil }
        return Unmanaged<RouterBox>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.pinned }
    }

    private static let slot = ThreadSlot()

    /// Routers by task id, for jobs of a simulation's tasks that arrive from another thread.
    static let owners = Mutex<[UInt64: WeakRouter]>([:])

    /// How many tasks `owners` holds: while none, a job of no run skips the table's lock (the test
    /// runner's own jobs, in a test process with the factory installed).
    private static let ownerCount = Atomic<Int>(0)

    static func register(_ taskID: UInt64, to router: any JobRouter) {
        owners.withLock {
            if $0.updateValue(WeakRouter(router), forKey: taskID) == nil { ownerCount.add(1, ordering: .releasing) }
        }
    }

    static func unregister(_ taskIDs: [UInt64]) {
        owners.withLock { table in
            for id in taskIDs where table.removeValue(forKey: id) != nil {
                ownerCount.subtract(1, ordering: .releasing)
            }
        }
    }

    /// Starts a run's first task. On the hook route it prefers simrun's executor: without a
    /// preference `Task.yield()` goes to `Task.defaultExecutor` (the platform's) behind the hook.
    static func startTask(_ body: @escaping @Sendable () async -> Void) {
        #if compiler(>=6.3)
            if route == .enqueueHook {
                Task(executorPreference: simGlobalExecutor) { await body() }
                return
            }
        #endif
        Task { await body() }
    }

    /// The router a job belongs to when it arrives on a thread that runs no simulation.
    static func owner(of taskID: UInt64) -> (any JobRouter)? {
        guard taskID != 0, ownerCount.load(ordering: .acquiring) > 0 else { return nil }
        return owners.withLock { $0[taskID]?.router }
    }
}

/// A real (wall-clock) pause, used only while waiting for escaped work to come back.
enum RealSleep {
    static func milliseconds(_ count: Int) { _ = usleep(useconds_t(count * 1_000)) }
}

/// Runs `body` on a thread of its own and waits for it. On the hook route a run inside a task (a
/// test function) would nest its jobs inside that task's job, and the runtime then hands some actor
/// jobs to the platform's executor behind the hook; a plain thread runs them as the probe does. The
/// thread is simrun's own, so it goes to the C library even when asked for inside a run's job (a
/// thread the user's code starts there belongs to the run).
func runOnPlainThread<T>(_ body: () -> T) -> T {
    var result: T?
    withoutActuallyEscaping({ result = body() }) { work in
        let context = Unmanaged.passRetained(ThreadBody(work)).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let status = simrun_real_pthread_create(&thread, nil, threadEntry, context)
        precondition(status == 0, "cannot start a thread for the run: \(status)")
        #if canImport(Darwin)
            pthread_join(thread!, nil)
        #else
            pthread_join(thread, nil)
        #endif
    }
    return result!
}

#if canImport(Darwin)
    private func threadEntry(_ raw: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue().body()
        return nil
    }
#else
    private func threadEntry(_ raw: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue().body()
        return nil
    }
#endif

private final class ThreadBody: @unchecked Sendable {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
}

final class RouterBox {
    weak var router: (any JobRouter)?
    /// The router itself, unretained, when the binding is pinned (`ExecutorCapture.bind(_:pinned:)`).
    let pinned: Unmanaged<AsyncCapture>?
    init(_ router: any JobRouter, pinned: Bool) {
        self.router = router
        self.pinned = pinned ? (router as? AsyncCapture).map { Unmanaged.passUnretained($0) } : nil
    }
}

struct WeakRouter: Sendable {
    weak var router: (any JobRouter)?
    init(_ router: any JobRouter) { self.router = router }
}

/// One pthread key for the process, created once.
private final class ThreadSlot: Sendable {
    let key: pthread_key_t
    init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            #if canImport(Darwin)
                Unmanaged<RouterBox>.fromOpaque(raw).release()
            #else
                if let raw { Unmanaged<RouterBox>.fromOpaque(raw).release() }
            #endif
        }
        precondition(status == 0, "cannot create a thread-local slot: \(status)")
        self.key = key
    }
}

#if compiler(>=6.3)
    @_silgen_name("swift_task_getJobTaskId")
    private func runtimeJobTaskID(_ job: UnownedJob) -> UInt64

    extension CapturedJob {
        init(_ job: UnownedJob) {
            self.job = job
            taskID = runtimeJobTaskID(job)
        }
    }

    extension ExecutorCapture {
        /// The runtime's id of the task running on this thread, or 0 outside any task. An
        /// `UnsafeCurrentTask` holds the task's pointer and a task is a job (its header is what
        /// `swift_task_getJobTaskId` reads); its bytes are read, not cast, so no reference count moves.
        static var currentTaskID: UInt64 {
            #if os(Linux)
                // Read twice per job placed: `withUnsafeCurrentTask` copied and destroyed a
                // reference and called a closure each time.
                guard let task = simrun_current_task() else { return 0 }
                return runtimeJobTaskID(unsafeBitCast(task, to: UnownedJob.self))
            #else
                withUnsafeCurrentTask { task -> UInt64 in
                    guard let task, MemoryLayout<UnsafeCurrentTask>.size == MemoryLayout<UnownedJob>.size else { return 0 }
                    return runtimeJobTaskID(withUnsafeBytes(of: task) { $0.load(as: UnownedJob.self) })
                }
            #endif
        }
    }

    extension CapturedJob {
        /// For a default actor's drain job, the actor it drains; nil for any other job. The runtime's
        /// drain job (`ProcessOutOfLineJob`, job kind 193) holds the actor right after the job
        /// header: flags at byte 32, the actor at byte 64 on 64-bit platforms. `ActorCallerTests`
        /// pins this down, so a runtime that moves them fails `swift test`. The actor is alive while
        /// a job of it is pending or running; it is only compared and typed, never retained.
        var drainedActor: UnsafeRawPointer? {
            guard taskID == 0, MemoryLayout<UInt>.size == 8 else { return nil }
            let raw = unsafeBitCast(job, to: UnsafeRawPointer.self)
            guard raw.load(fromByteOffset: 32, as: UInt32.self) & 0xff == 193 else { return nil }
            return raw.load(fromByteOffset: 64, as: UnsafeRawPointer?.self)
        }
    }

    extension ExecutorCapture {
        // A task's resume functions, innermost first: its resume function (swift/ABI/Task.h: the job
        // header's `ResumeTask`, byte 56 on 64-bit platforms), then each caller's continuation up the
        // async context chain (`ResumeContext` at byte 64; an `AsyncContext` is its `Parent`, then its
        // `ResumeParent`), at most `ResumeChain.capacity` deep. Inside an actor's drain job one of them
        // is a part of the actor method the task called (`(2) resume partial function for
        // ProfileCache.profile(_:)`), also when the method went on into another actor. The functions
        // are only names, never called. `ActorCallerTests` pins this down.

        /// The current task's resume functions when its chain was just set (the task is enqueueing its
        /// own next job, or giving up the actor whose drain job runs: the runtime sets a task's resume
        /// point before it enqueues or unlocks, or the task would resume in the wrong place), read
        /// in-process at once: every context on such a chain is a frame still awaiting its callee,
        /// alive as long as the task. Nil outside a task, and where task state is not read.
        static var freshResumeChain: ResumeChain? {
            #if os(Linux)
                guard let raw = simrun_current_task(), MemoryLayout<UInt>.size == 8,
                    let resume = raw.load(fromByteOffset: 56, as: UInt?.self), resume != 0
                else { return nil }
                var chain = ResumeChain()
                chain.append(resume)
                var context = raw.load(fromByteOffset: 64, as: UInt.self)
                while context != 0, context & 7 == 0, chain.count < ResumeChain.capacity {
                    let address = UnsafeRawPointer(bitPattern: context)!
                    let parent = address.load(fromByteOffset: 8, as: UInt.self)
                    guard parent != 0 else { break }
                    chain.append(parent)
                    context = address.load(as: UInt.self)
                }
                return chain
            #else
                return nil
            #endif
        }

        /// The first of the current task's resume functions for which `match` answers, or nil, when
        /// its chain may be stale: set at its last suspension, so a context on it may be gone since.
        /// The task's own header is live and read directly; each context is read without faulting
        /// (`simrun_read_words`, a system call per context: reading so per drain job made an async
        /// job ~5x costlier, hence `freshResumeChain` where the chain is known to be live), and the
        /// walk stops at the first that cannot be read, or as soon as `match` answers.
        static func firstResumeFunction<T>(where match: (UnsafeRawPointer) -> T?) -> T? {
            func walk(from raw: UnsafeRawPointer) -> T? {
                guard let resume = raw.load(fromByteOffset: 56, as: UnsafeRawPointer?.self) else { return nil }
                if let found = match(resume) { return found }
                var context = raw.load(fromByteOffset: 64, as: UInt.self)
                var words: (UInt, UInt) = (0, 0)
                var depth = 1
                while context != 0, context & 7 == 0, depth < ResumeChain.capacity {
                    let address = UnsafeRawPointer(bitPattern: context)!
                    let read = withUnsafeMutableBytes(of: &words) { buffer in
                        simrun_read_words(address, buffer.baseAddress!.assumingMemoryBound(to: UInt.self), 2)
                    }
                    guard read == 1, let parent = UnsafeRawPointer(bitPattern: words.1) else { break }
                    if let found = match(parent) { return found }
                    depth += 1
                    context = words.0
                }
                return nil
            }
            #if os(Linux)
                guard let raw = simrun_current_task(), MemoryLayout<UInt>.size == 8 else { return nil }
                return walk(from: raw)
            #else
                return withUnsafeCurrentTask { task -> T? in
                    guard let task, MemoryLayout<UnsafeCurrentTask>.size == 8, MemoryLayout<UInt>.size == 8 else { return nil }
                    return walk(from: withUnsafeBytes(of: task) { $0.load(as: UnsafeRawPointer.self) })
                }
            #endif
        }
    }

    /// The executor every captured job runs on (and the default executor on the factory route).
    let simGlobalExecutor = SimGlobalExecutor()

    extension CapturedJob {
        /// Runs a global job on simrun's default executor.
        func runGlobal() {
            job.runSynchronously(on: simGlobalExecutor.asUnownedTaskExecutor())
        }

        /// Runs a main-actor job isolated to the main actor.
        func runMain() {
            job.runSynchronously(
                isolatedTo: MainActor.sharedUnownedExecutor, taskExecutor: simGlobalExecutor.asUnownedTaskExecutor())
        }
    }

    /// simrun's default executor: jobs enqueued by a run's thread go to its simulation; jobs of a
    /// run's task from another thread are escapes; everything else goes to the platform's executor.
    final class SimGlobalExecutor: TaskExecutor, @unchecked Sendable {
        func enqueue(_ job: consuming ExecutorJob) {
            let captured = CapturedJob(UnownedJob(job))
            if let pinned = ExecutorCapture.pinnedRouter {
                pinned._withUnsafeGuaranteedRef { $0.enqueueGlobal(captured) }
            } else if let router = ExecutorCapture.current {
                router.enqueueGlobal(captured)
            } else if let owner = ExecutorCapture.owner(of: captured.taskID) {
                owner.enqueueForeign(captured, what: "a job enqueued from a thread outside the simulation")
            } else {
                Self.fallback(captured.job)
            }
        }

        /// A job of no run: the platform's default executor runs it, as it would without simrun.
        static func fallback(_ job: UnownedJob) {
            if #available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *) {
                PlatformExecutorFactory.defaultExecutor.enqueue(ExecutorJob(job))
            } else {
                globalConcurrentExecutor.enqueue(ExecutorJob(job))
            }
        }
    }

    @available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    extension SimGlobalExecutor: SchedulingExecutor {
        func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C)
        {
            let captured = CapturedJob(UnownedJob(job))
            guard let router = ExecutorCapture.current, let lower = delay as? Duration else {
                if let owner = ExecutorCapture.owner(of: captured.taskID) {
                    owner.enqueueForeign(captured, what: "a sleep started outside the simulation")
                } else if let platform = PlatformExecutorFactory.defaultExecutor as? any SchedulingExecutor {
                    platform.enqueue(ExecutorJob(captured.job), after: delay, tolerance: tolerance, clock: clock)
                }
                return
            }
            // The runtime turned the sleep's deadline (now + duration, read by the task during this job)
            // into a delay from a later now: on virtual clocks the two nows are one instant.
            let readsClock = clock is ContinuousClock || clock is SuspendingClock
            router.enqueueTimed(
                captured,
                delay: SleepDelay.virtual(lower, computedFromNow: readsClock, jobStart: router.jobStartContinuous))
        }

        func enqueue<C: Clock>(
            _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
        ) {
            let captured = CapturedJob(UnownedJob(job))
            if let router = ExecutorCapture.current {
                if let deadline = instant as? ContinuousClock.Instant {
                    let delay = SleepDelay.virtual(
                        deadline - ContinuousClock.now, computedFromNow: true, jobStart: router.jobStartContinuous)
                    router.enqueueTimed(captured, delay: delay)
                    return
                }
                if let deadline = instant as? SuspendingClock.Instant {
                    let delay = SleepDelay.virtual(
                        deadline - SuspendingClock.now, computedFromNow: true, jobStart: router.jobStartContinuous)
                    router.enqueueTimed(captured, delay: delay)
                    return
                }
                router.enqueueForeign(captured, what: "a sleep on a clock simrun does not know (\(C.self))")
            } else if let owner = ExecutorCapture.owner(of: captured.taskID) {
                owner.enqueueForeign(captured, what: "a sleep started outside the simulation")
            } else if let platform = PlatformExecutorFactory.defaultExecutor as? any SchedulingExecutor {
                platform.enqueue(ExecutorJob(captured.job), at: instant, tolerance: tolerance, clock: clock)
            }
        }
    }

    /// simrun's main executor (factory route): main-actor jobs of a run go to its `main` lane.
    @available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    final class SimMainExecutor: MainExecutor, @unchecked Sendable {
        func enqueue(_ job: consuming ExecutorJob) {
            let captured = CapturedJob(UnownedJob(job))
            if let pinned = ExecutorCapture.pinnedRouter {
                pinned._withUnsafeGuaranteedRef { $0.enqueueMain(captured) }
            } else if let router = ExecutorCapture.current {
                router.enqueueMain(captured)
            } else if let owner = ExecutorCapture.owner(of: captured.taskID) {
                owner.enqueueForeign(captured, what: "a main-actor job enqueued from a thread outside the simulation")
            } else {
                PlatformExecutorFactory.mainExecutor.enqueue(ExecutorJob(captured.job))
            }
        }

        // The main executor's run loop is the platform's: a test runner's async `main` drains it (an
        // executable built on SimRun.main never runs it; its main is synchronous).
        func run() throws { try PlatformExecutorFactory.mainExecutor.run() }
        func stop() { PlatformExecutorFactory.mainExecutor.stop() }

        // A main-queue block of a run (`DispatchQueue.main.async { … }` is `@MainActor` code to the
        // compiler, which checks it at run time) runs on the run's `main` lane: that is the main actor.
        func checkIsolated() {
            if DispatchCapture.mainLaneRunsOnThisThread { return }
            PlatformExecutorFactory.mainExecutor.checkIsolated()
        }
    }

    @available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
    struct SimExecutorFactory: ExecutorFactory {
        static let main = SimMainExecutor()
        static var mainExecutor: any MainExecutor { main }
        static var defaultExecutor: any TaskExecutor { simGlobalExecutor }
    }

    /// The runtime's global enqueue hook (what swift-concurrency-extras uses), found with `dlsym`.
    enum EnqueueHook {
        typealias Original = @convention(thin) (UnownedJob) -> Void
        typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

        static func install() -> Bool {
            guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "swift_task_enqueueGlobal_hook") else {
                return false
            }
            let pointer = symbol.assumingMemoryBound(to: Optional<Hook>.self)
            guard pointer.pointee == nil else { return false }  // someone else's hook: do not chain blindly
            pointer.pointee = { job, original in
                let captured = CapturedJob(job)
                if let router = ExecutorCapture.current {
                    router.enqueueGlobal(captured)
                } else if let owner = ExecutorCapture.owner(of: captured.taskID) {
                    owner.enqueueForeign(captured, what: "a job enqueued from a thread outside the simulation")
                } else {
                    original(job)
                }
            }
            return true
        }
    }
#else
    extension ExecutorCapture {
        static var currentTaskID: UInt64 { 0 }
        static func firstResumeFunction<T>(where match: (UnsafeRawPointer) -> T?) -> T? { nil }
        static var freshResumeChain: ResumeChain? { nil }
    }

    extension CapturedJob {
        init(_ job: UnownedJob) {
            self.job = job
            taskID = 0
        }
        var drainedActor: UnsafeRawPointer? { nil }
        func runGlobal() { job.runSynchronously(on: globalConcurrentExecutor.asUnownedTaskExecutor()) }
        func runMain() { job.runSynchronously(on: MainActor.sharedUnownedExecutor) }
    }

    enum EnqueueHook {
        static func install() -> Bool { false }
    }
#endif
