import SimCore
import CSimInterpose
import Synchronization

/// One carrier: an OS thread that runs a run's jobs while it holds the turn, and waits on its baton
/// otherwise. Pool carriers are kept by the process between runs; the thread that calls `run()` is
/// its run's driver carrier (adopted for the run).
final class Carrier: @unchecked Sendable {
    /// What the carrier finds when its baton is posted.
    enum Mail {
        case none
        /// Run this job (already picked and recorded) of `set`, then carry on scheduling.
        case run(CarrierSet, TakenJob)
        /// Continue the paused job.
        case resume
        /// The run ended (driver only).
        case finish
        /// The run ended: unbind and go back to the process's pool.
        case release
    }

    /// Why a paused carrier waits.
    enum Pause: Equatable {
        /// Ready to continue: a candidate of the next picks.
        case ready
        /// Waits until the mutex at this address is released.
        case mutex(UnsafeRawPointer)
        /// Waits until the condition at this address is signalled.
        case condition(UnsafeRawPointer)
        /// Waits until `Carriers.unpark` (the blocking-wait seam).
        case parked
    }

    let baton: OpaquePointer
    /// The process's main thread (only ever a driver).
    let isProcessMain: Bool
    var mail: Mail = .none
    /// The run this thread's clocks, router and turn are bound to.
    weak var boundRun: CarrierSet?

    // While paused mid-job: what the carrier waits for and its identity as a candidate.
    var pause: Pause = .ready
    var lane: Int32 = -1
    var label: Symbol = .empty
    var ordinal: UInt32 = 0
    var seq: UInt64 = 0
    var waitDescription = ""
    /// The seq of the job it runs (a resumed segment keeps its job's place in `fifo` order).
    var jobSeq: UInt64 = 0
    /// The kernel's id of the thread (who holds a mutex is told by it).
    var threadID: Int32 = 0

    init(processMain: Bool) {
        guard let baton = simrun_baton_create() else { fatalError("simrun: out of memory creating a carrier") }
        self.baton = baton
        isProcessMain = processMain
    }

    func post() { simrun_baton_post(baton) }
    func wait() { simrun_baton_wait(baton) }

    /// Takes the mail delivered with the last post.
    func takeMail() -> Mail {
        let delivered = mail
        mail = .none
        return delivered
    }

    /// A pool carrier's thread: wait for work, run it and schedule on until the turn leaves.
    func serve() {
        simrun_carrier_thread_register()
        threadID = simrun_thread_id()
        while true {
            wait()
            switch takeMail() {
            case .run(let set, let job):
                set.enter(self)
                set.runJob(job, on: self)
                set.schedule(from: self)
            case .release:
                CarrierSet.unbind(self)
                CarrierPool.giveBack(self)
            case .none, .resume, .finish:
                preconditionFailure("simrun: an idle carrier was handed the turn without a job")
            }
        }
    }
}

/// The process's idle pool carriers (threads are reused across runs; a carrier abandoned by a run
/// that ended while it was paused mid-job never comes back).
enum CarrierPool {
    private static let idle = Mutex<[Carrier]>([])
    private static let counts = Mutex<(started: Int, abandoned: Int)>((0, 0))

    /// An idle carrier, or a new thread; nil when a thread cannot be started.
    static func take() -> Carrier? {
        if let carrier = idle.withLock({ $0.popLast() }) { return carrier }
        let carrier = Carrier(processMain: false)
        let context = Unmanaged.passRetained(carrier).toOpaque()
        let status = simrun_thread_spawn(carrierThreadEntry, context)
        guard status == 0 else {
            Unmanaged<Carrier>.fromOpaque(context).release()
            return nil
        }
        counts.withLock { $0.started += 1 }
        return carrier
    }

    static func giveBack(_ carrier: Carrier) { idle.withLock { $0.append(carrier) } }

    static func noteAbandoned() { counts.withLock { $0.abandoned += 1 } }

    /// Carrier threads started and abandoned in this process so far.
    static var statistics: (started: Int, abandoned: Int) { counts.withLock { $0 } }
}

private let carrierThreadEntry: @convention(c) (UnsafeMutableRawPointer?) -> Void = { raw in
    Unmanaged<Carrier>.fromOpaque(raw!).takeRetainedValue().serve()
}

