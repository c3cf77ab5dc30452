import SimCore
import CSimInterpose

/// The Swift tasks of one run, in creation order, each kept until it is seen finished, so that a hang
/// names every task still suspended: its identity, the job that created it, what it waits on and the
/// async function it waits in (issue #30).
///
/// The runtime tells an executor neither that a task ended nor where a suspended task waits. The
/// census holds each heap task of the run (the runtime's retain) from its first job until a check
/// after a job finds it complete (after the task's own job: that task; after any other job: every
/// task), then lets go of it; a hang reads the ones left from the runtime's
/// task object (CSimInterpose/task_state.c): its status (running, queued, what it depends on) and its
/// resume function and async contexts, whose `ResumeParent` chain is the async frame chain, named with
/// `CodeSymbol`. An `async let` child lives in its parent's frame and cannot be retained; it is
/// checked like the others after the job it ends in (its own, or an actor's drain), before its
/// parent can run again and end the scope. A task that ends inside another task's job
/// (`Task.immediate`) is let go of at the next full check, or at the end of the run.
/// Where the task layout is not read (not Linux, 64-bit) the census lists nothing and says so.
final class TaskCensus {
    struct Entry {
        let name: String
        /// The job that created the task (`task@2`), `the scenario` or `simulation.spawn`.
        let createdBy: String
        let task: UnsafeRawPointer
        let retained: Bool
    }

    /// Tasks not yet seen complete, in creation order.
    @exclusivity(unchecked) private(set) var live: [Entry] = []
    /// The same tasks' addresses, in the same order: what every job's check reads, contiguous.
    @exclusivity(unchecked) private var tasks: [UnsafeRawPointer] = []
    /// Tasks already seen, by address (an address is reused only after its task is released).
    @exclusivity(unchecked) private var known: Set<UnsafeRawPointer> = []
    /// Why frames must not be read (work of the run runs outside the simulation), or nil.
    var framesNotRead: String?

    static var isReadable: Bool { simrun_task_state_readable() == 1 }

    deinit { releaseAll() }

    /// The identity of a task of this run still alive, by its runtime object.
    func name(of task: UnsafeRawPointer) -> String? {
        live.first { $0.task == task }?.name
    }

    /// Starts keeping `task` (a job that is a task, seen for the first time, or a task just created).
    func track(_ task: UnsafeRawPointer, name: String, createdBy: String) {
        guard Self.isReadable, simrun_job_is_task(task) == 1, known.insert(task).inserted else { return }
        let retained = simrun_task_is_async_let(task) == 0
        if retained { simrun_task_retain(task) }
        live.append(Entry(name: name, createdBy: createdBy, task: task, retained: retained))
        tasks.append(task)
    }

    /// After a job: a tracked task's own job can only have finished that task (checked alone); any
    /// other job (an actor's drain, which runs other tasks' jobs; a runtime job) may have finished
    /// any, so every task is checked. A job that is not a task's (`isTaskJob` false) is not looked
    /// for among the tasks. The job is never read unless it is a tracked task: it may be gone.
    @inline(__always)
    func after(job: UnsafeRawPointer, isTaskJob: Bool) {
        guard !live.isEmpty else { return }
        guard isTaskJob, let index = tasks.firstIndex(of: job) else { return sweep() }
        guard simrun_task_is_complete(job) == 1 else { return }
        forget(at: index)
    }

    /// Lets go of every task that has finished: one call checks them all (`simrun_first_complete_task`),
    /// as this runs after every job that is not a task's.
    func sweep() {
        var from = 0
        while from < tasks.count {
            let found = tasks.withUnsafeBufferPointer { buffer in
                simrun_first_complete_task(buffer.baseAddress! + from, Int32(buffer.count - from))
            }
            guard found >= 0 else { return }
            forget(at: from + Int(found))
            from += Int(found)
        }
    }

    /// Stops keeping the task at `index` (finished), releasing it if it was retained.
    private func forget(at index: Int) {
        let task = tasks.remove(at: index)
        let entry = live.remove(at: index)
        known.remove(task)
        if entry.retained { simrun_task_release(task) }
    }

    /// Lets go of every task still kept (the run is over).
    func releaseAll() {
        for entry in live where entry.retained { simrun_task_release(entry.task) }
        live.removeAll()
        tasks.removeAll()
        known.removeAll()
    }

    // MARK: The hang report

    /// One task still suspended when the run hung, as a hang report names it.
    struct Suspended: Equatable {
        let name: String
        let createdBy: String
        /// What it is doing: `waiting on a continuation`, `waiting on task.1`, `running (blocked in a
        /// job)`, …
        let state: String
        /// The async functions it waits in, innermost first (the user's own code; the standard
        /// library's and the runtime's frames are left out), or nil when they cannot be seen.
        let frames: [String]?
        /// Why `frames` is nil.
        let framesNote: String?

        var description: String {
            let whereText: String
            if let frames, !frames.isEmpty {
                whereText = "in " + frames.joined(separator: " ← ")
            } else if let frames, frames.isEmpty {
                whereText = "in: not visible (no function of the program's own on its async frames)"
            } else {
                whereText = "in: not visible (\(framesNote ?? "unknown"))"
            }
            return "\(name) (created by \(createdBy); \(state); \(whereText))"
        }
    }

    /// The tasks of the run that have not finished, in creation order, read now.
    func suspended() -> [Suspended] {
        sweep()
        var names: [UnsafeRawPointer: String] = [:]
        for entry in live { names[entry.task] = entry.name }
        return live.map { entry in
            var state = simrun_task_state()
            simrun_task_read(entry.task, framesNotRead == nil ? 1 : 0, &state)
            let doing: String
            if state.running != 0 {
                doing = "running: blocked inside a job"
            } else if state.enqueued != 0 {
                doing = "queued to run"
            } else {
                switch state.wait {
                case simrun_task_wait_continuation: doing = "waiting on a continuation"
                case simrun_task_wait_group: doing = "waiting on a task group"
                case simrun_task_wait_task:
                    let awaited = state.waiting_on.flatMap { names[$0] }
                    doing = "waiting on " + (awaited.map { "task \($0)" } ?? "a task that is not this run's")
                case simrun_task_wait_enqueued: doing = "queued on an executor"
                default: doing = "suspended"
                }
            }
            if let reason = framesNotRead {
                return Suspended(name: entry.name, createdBy: entry.createdBy, state: doing, frames: nil, framesNote: reason)
            }
            if state.running != 0 || state.enqueued != 0 {
                return Suspended(
                    name: entry.name, createdBy: entry.createdBy, state: doing, frames: nil,
                    framesNote: "the runtime keeps no async frames for a task while it runs or is queued")
            }
            guard CodeSymbol.areReadable else {
                return Suspended(
                    name: entry.name, createdBy: entry.createdBy, state: doing, frames: nil,
                    framesNote: "no symbol table")
            }
            let addresses = withUnsafeBytes(of: state.frames) { raw in
                (0..<Int(state.frame_count)).compactMap { raw.load(fromByteOffset: $0 * MemoryLayout<UnsafeRawPointer?>.stride, as: UnsafeRawPointer?.self) }
            }
            return Suspended(
                name: entry.name, createdBy: entry.createdBy, state: doing, frames: Self.userFrames(addresses),
                framesNote: nil)
        }
    }

    /// How many of a task's own functions a hang report names (innermost first).
    static let framesShown = 4

    /// The program's own async functions among `addresses`, innermost first, each once in a row, at
    /// most `framesShown` of them (then `…`): the runtime's (C, C++), the standard library's,
    /// `_Concurrency`'s and simrun's own frames are dropped.
    static func userFrames(_ addresses: [UnsafeRawPointer]) -> [String] {
        var frames: [String] = []
        for address in addresses {
            guard let symbol = CodeSymbol.at(address), let module = module(ofMangled: symbol.mangled),
                !harnessModules.contains(module)
            else { continue }
            let function = symbol.function
            guard frames.last != function else { continue }
            if frames.count == framesShown {
                frames.append("…")
                break
            }
            frames.append(function)
        }
        return frames
    }

    /// Modules whose frames are not the user's: the standard library, `_Concurrency`, simrun's kernel and capture.
    static let harnessModules: Set<String> = ["Swift", "_Concurrency", "SimCore", "SimCapture"]

    /// The module of a mangled Swift symbol (`$s12SimScenarios6LoaderV…` → `SimScenarios`), `Swift` for
    /// the standard library's substitutions (`$ss…`, `$sS…`), nil for a symbol that is not Swift's.
    static func module(ofMangled mangled: String) -> String? {
        var text = Substring(mangled)
        if text.hasPrefix("_") { text = text.dropFirst() }
        guard text.hasPrefix("$s") else { return nil }
        text = text.dropFirst(2)
        guard let first = text.first else { return nil }
        if first == "s" || first == "S" { return "Swift" }  // Swift.* or a standard type (ScT: Task, …)
        let digits = text.prefix(while: \.isNumber)
        guard let length = Int(digits), length > 0 else { return nil }
        let rest = text.dropFirst(digits.count)
        guard rest.count >= length else { return nil }
        return String(rest.prefix(length))
    }

    /// A task of the run that the runtime says is running or queued while the run is quiet (every
    /// lane empty, no job running): it is somewhere else, named now (`task task.1 is queued on an
    /// executor outside the simulation`); nil when every task left is suspended.
    func awayFromRun() -> String? {
        guard Self.isReadable else { return nil }
        sweep()
        for entry in live {
            var state = simrun_task_state()
            simrun_task_read(entry.task, 0, &state)
            if state.running != 0 { return "task \(entry.name) runs on a thread outside the simulation" }
            if state.enqueued != 0 || state.wait == simrun_task_wait_enqueued {
                return "task \(entry.name) is queued on an executor outside the simulation"
            }
        }
        return nil
    }

    /// The hang report where task objects are not read: why (not Linux, or another Swift runtime).
    static var notVisible: String {
        let why = simrun_task_state_refusal().map { String(cString: $0) }
        return "suspended tasks: not visible here (\(why ?? "the runtime's task objects are read on Linux only"))"
    }

    /// The hang report of a run that started no Swift task.
    static let noTasks = "suspended tasks: none (the run started no Swift task)"

    /// The hang report: every task of the run still suspended, or why none can be named.
    func report() -> String {
        guard Self.isReadable else { return Self.notVisible }
        let left = suspended()
        // A read found what no task of the runtime holds: nothing read is reported.
        guard Self.isReadable else { return Self.notVisible }
        if left.isEmpty { return "suspended tasks: none (every Swift task of the run finished)" }
        return "suspended tasks (\(left.count)): " + left.map(\.description).joined(separator: "; ")
    }
}
