import SimCore
import CSimInterpose

/// The identity of a lock point as a candidate's label (issue #41): what kind of lock, and where in
/// the program's own functions it was taken — `lock CriticalBox.withCriticalRegion(_:)`,
/// `status-lock Feed.cancel()` (a task's status lock, taken by the runtime for a cancellation the
/// program asked for in `Feed.cancel()`). Addresses never enter a label, so a trace replays in another
/// process, another build and another executable; which lock it is (`L0`, `L1`, …) is numbered by first
/// appearance in the run.
enum LockSite {
    /// The word for a lock call of `site` (`SIMRUN_SITE_*`) doing `operation`.
    static func kind(_ operation: Int32, site: Int32) -> String {
        if operation == Int32(SIMRUN_LOCK_CONDITION_WAIT) { return "cond.wait" }
        let word: String
        switch site {
        case Int32(SIMRUN_SITE_STATUS): word = "status-lock"
        case Int32(SIMRUN_SITE_GROUP): word = "group-lock"
        case Int32(SIMRUN_SITE_STREAM): word = "stream-lock"
        case Int32(SIMRUN_SITE_CONTINUATION): word = "continuation-lock"
        case Int32(SIMRUN_SITE_CONCURRENCY): word = "runtime-lock"
        case Int32(SIMRUN_SITE_LIBRARY), Int32(SIMRUN_SITE_RUNTIME): word = "library-lock"
        case Int32(SIMRUN_SITE_MUTEX): word = "mutex"
        default: word = "lock"
        }
        return operation == Int32(SIMRUN_LOCK_BLOCKED) ? word + ".retry" : word
    }

    /// The frame a lock call of `site` from `caller` is attributed to: the caller itself for the
    /// program's code; for a library's lock (Foundation's NSLock family, the concurrency runtime) the
    /// first function of the user's own on the stack above it. The walk stops at simrun's job runner;
    /// where no user function is on the stack (an async caller is not on the thread's stack), the
    /// runtime's entry point the lock was taken in (`swift_task_cancel`), else the concurrency
    /// library's function (`withTaskCancellationHandler`). Nil when nothing can be named.
    static func place(caller: UnsafeRawPointer?, site: Int32) -> UnsafeRawPointer? {
        guard let caller else { return nil }
        if site == Int32(SIMRUN_SITE_PROGRAM) { return caller }
        // A Mutex use is reported from the program's code itself (the unlock from `withLock`'s
        // `$defer`, named by the function around it); its contention from the library.
        if site == Int32(SIMRUN_SITE_MUTEX), simrun_address_is_program(caller) != 0,
            !(function(at: caller)?.hasPrefix("$defer") ?? false)
        {
            return caller
        }
        var buffer = [UnsafeRawPointer?](repeating: nil, count: 48)
        let count = Int(simrun_backtrace(&buffer, Int32(buffer.count)))
        guard count > 0, let start = buffer.prefix(count).firstIndex(where: { $0 == caller }) else { return nil }
        var library: UnsafeRawPointer?
        var runtime: UnsafeRawPointer?
        walk: for frame in buffer[start..<count] {
            guard let frame, let symbol = CodeSymbol.at(frame - 1) else { continue }
            if simrun_address_is_program(frame) == 0 {
                if runtime == nil, symbol.mangled.hasPrefix("swift_") { runtime = frame }
                continue
            }
            switch role(of: symbol) {
            case .user where site == Int32(SIMRUN_SITE_MUTEX) && (function(at: frame)?.hasPrefix("$defer") ?? false):
                continue
            case .user: return frame
            case .concurrencyLibrary: library = library ?? frame
            case .interposer: continue
            case .jobRunner: break walk
            }
        }
        return runtime ?? library
    }

    /// Where a mutex initialised from `caller` was made, as a lock class: the first function of the
    /// user's own above `pthread_mutex_init` (`DependencyCache.init()`: every `NSLock()` of one stored
    /// property is one class), and, when that function is generic — a lock wrapper such as
    /// `ManagedCriticalState<State>.init` makes the locks of many owners — the owner that called it
    /// too (`ManagedCriticalState.init(_:) in AsyncChannel.init()`). Nil when none can be named.
    static func madeIn(caller: UnsafeRawPointer?, site: Int32) -> String? {
        var buffer = [UnsafeRawPointer?](repeating: nil, count: 12)
        let count = Int(simrun_lock_init_frames(&buffer, 12))
        var names: [String] = []
        for frame in buffer.prefix(count) {
            guard let frame, simrun_address_is_program(frame) == 1, let symbol = CodeSymbol.at(frame - 1) else {
                continue
            }
            if case .jobRunner = role(of: symbol) { break }
            guard case .user = role(of: symbol), !symbol.demangled.contains("__allocating_init") else { continue }
            let name = CreationFrame.spelled(symbol.function)
            if names.last != name { names.append(name) }
            if names.count == 2 || !isGeneric(symbol) { break }
        }
        return names.isEmpty ? nil : names.joined(separator: " in ")
    }

    /// Where a thread was started: the first function of the user's own above `pthread_create` (past
    /// Foundation's `Thread.start`), closures spelled inside their function (`Loader.load(){1}`).
    static func startedIn(_ frames: [UnsafeRawPointer]) -> String? {
        for frame in frames {
            guard simrun_address_is_program(frame) == 1, let symbol = CodeSymbol.at(frame - 1) else { continue }
            if case .jobRunner = role(of: symbol) { return nil }
            if case .user = role(of: symbol) { return CreationFrame.spelled(symbol.function) }
        }
        return nil
    }

    /// Whether a function belongs to a generic type or is generic itself (`Box<A>.init`, `f<A>(_:)`).
    private static func isGeneric(_ symbol: CodeSymbol) -> Bool {
        let demangled = symbol.demangled
        let head = demangled.firstIndex(of: "(").map { demangled[..<$0] } ?? Substring(demangled)
        return head.contains("<")
    }

    /// Where `frame` (a return address) is, as a person names the function: `Feed.next(){1}`,
    /// `withTaskCancellationHandler(operation:onCancel:isolation:)`, `swift_task_cancel`.
    static func function(at frame: UnsafeRawPointer) -> String? {
        guard let symbol = CodeSymbol.at(frame - 1) else { return nil }
        if TaskCensus.module(ofMangled: symbol.mangled) == nil { return symbol.mangled }
        return CreationFrame.spelled(symbol.function)
    }

    private enum Role { case user, concurrencyLibrary, interposer, jobRunner }

    /// A program frame is the user's unless it is simrun's (SimCore and SimCapture run the jobs; the interposition
    /// layer's C functions wrap the runtime's) or the Swift library's code emitted into the program.
    private static func role(of symbol: CodeSymbol) -> Role {
        guard let module = TaskCensus.module(ofMangled: symbol.mangled) else { return .interposer }
        if module == "SimCore" || module == "SimCapture" { return .jobRunner }
        if TaskCensus.harnessModules.contains(module) || CreationFrame.isConcurrencyLibrary(symbol.demangled) {
            return .concurrencyLibrary
        }
        return .user
    }
}
