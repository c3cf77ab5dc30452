import SimCore
import CSimInterpose
import Synchronization

/// `Task(name:)` names (SE-0469) as identities: a task made with a name is named by it in traces
/// (`writer`, then `writer#2`, … for later tasks of the same name in a run), wherever and whenever it
/// is made, so adding or removing other tasks renames no named one.
///
/// The runtime shows an executor only the running task's name, after the task has started. simrun
/// reads the name as the task is created instead: on Linux its `swift_task_create` (CSimInterpose)
/// wraps the runtime's and reads the name option record. Where it cannot (other platforms), tasks keep
/// the names of the jobs that created them, and `areRead` is false.
///
/// The same wrapper reads where an unnamed task is created: the code address in the user's function
/// that called `Task {}`, `Task.detached` or `addTask`, named by that function's symbol and the
/// offset in it. Where both are readable (`creationSitesAreRead`), an unnamed task is named by its
/// creator and its creation site, so a task added at another site, even in the same job, renames no
/// other.
public enum TaskNames {
    /// Whether `Task(name:)` names become identities in this process.
    public static var areRead: Bool { simrun_task_names_interposed() == 1 }

    /// Whether unnamed tasks are named by their creation site in this process (`task>Loader.load()+4c.1`),
    /// rather than by the job that created them (`task@2.1`): true where `swift_task_create` is
    /// simrun's and the program's own symbol table can be read (Linux, a binary that is not stripped).
    public static var creationSitesAreRead: Bool { areRead && CodeSymbol.areReadable }

    /// The `Task(name:)` name of the task being created on this thread now, or nil (no name, no task
    /// being created, or names not read here).
    static var creating: String? {
        guard let raw = simrun_task_creating_name() else { return nil }
        return String(cString: raw)
    }

    /// Where the task being created on this thread now was made (`Loader.load(){1}`), or nil (no
    /// task being created, or the site cannot be named here): the closure it runs, else the function
    /// that called `Task {}` and the offset of the call in it.
    static var creatingSite: String? { creatingClosure ?? creatingCall }

    /// The closure (or function) the task being created runs, named as its source spells it: a
    /// `Task { … }` literal is a closure of its own, numbered by the compiler in source order, so the
    /// name is the same whatever path led to the creation and whatever other tasks are added around it.
    /// The runtime is given the closure itself or a reabstraction thunk whose context holds it.
    static var creatingClosure: String? {
        var entry: UnsafeRawPointer?
        var context: UnsafeRawPointer?
        simrun_task_creating_entry(&entry, &context)
        guard let entry, let target = simrun_async_function_target(entry) else { return nil }
        switch TaskEntry.of(target) {
        case .closure(let name): return name
        case .unknown: return nil
        case .thunk:
            // The thunk's partial-apply context: its header, then the captures (the generic
            // argument's metadata, the closure's function and context, its isolation).
            guard let context, MemoryLayout<UInt>.size == 8 else { return nil }
            for word in 2..<7 {
                guard let candidate = context.load(fromByteOffset: word * 8, as: UnsafeRawPointer?.self),
                    let function = simrun_async_function_target(candidate)
                else { continue }
                if case .closure(let name) = TaskEntry.of(function) { return name }
            }
            return nil
        }
    }

    /// The function that called `Task {}`, `Task.detached` or `addTask` and the offset of the call in
    /// it (`Loader.load(){1}+4c`), read from the creation's return addresses.
    static var creatingCall: String? {
        var frames: (UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) = (nil, nil, nil, nil)
        let count = withUnsafeMutableBytes(of: &frames) { raw -> Int in
            let pointer = raw.baseAddress!.assumingMemoryBound(to: UnsafeRawPointer?.self)
            return Int(simrun_task_creating_frames(pointer, 4))
        }
        guard count > 0 else { return nil }
        return withUnsafeBytes(of: frames) { raw -> String? in
            for index in 0..<count {
                guard let address = raw.load(fromByteOffset: index * MemoryLayout<UInt>.size, as: UnsafeRawPointer?.self)
                else { return nil }
                switch CreationFrame.of(address) {
                case .site(let site): return site
                case .library: continue
                case .unknown: return nil
                }
            }
            return nil
        }
    }
}

/// The function a task is created to run, classified once per function (per process).
enum TaskEntry: Sendable, Equatable {
    /// The user's closure or function, named (`Loader.load(){1}`).
    case closure(String)
    /// A thunk around it (reabstraction, the concurrency library's own wrappers): look in its context.
    case thunk
    /// Not named here.
    case unknown

    private static let known = Mutex<[UInt: TaskEntry]>([:])

    static func of(_ function: UnsafeRawPointer) -> TaskEntry {
        let key = UInt(bitPattern: function)
        if let found = known.withLock({ $0[key] }) { return found }
        let entry = classify(function)
        known.withLock { $0[key] = entry }
        return entry
    }

    private static func classify(_ function: UnsafeRawPointer) -> TaskEntry {
        guard let symbol = CodeSymbol.at(function), symbol.offset == 0 else { return .unknown }
        let demangled = symbol.demangled
        if demangled.contains("thunk") || CreationFrame.isConcurrencyLibrary(demangled) { return .thunk }
        return .closure(CreationFrame.spelled(symbol.function))
    }
}

/// One return address of a task's creation, classified once per address (per process): the
/// concurrency library's code around the call (`Task.init`, `Task.detached`, `addTask`, emitted into
/// the caller's module or in the runtime) is walked past; the first other function is the site.
enum CreationFrame: Sendable, Equatable {
    /// The user's code: the site, as a function and the offset of the return address in it.
    case site(String)
    /// The concurrency library: look at the caller.
    case library
    /// Code that cannot be named (no symbol table): no site.
    case unknown

    private static let known = Mutex<[UInt: CreationFrame]>([:])

    /// The classification of `address`, from the cache after the first time.
    static func of(_ address: UnsafeRawPointer) -> CreationFrame {
        let key = UInt(bitPattern: address)
        if let found = known.withLock({ $0[key] }) { return found }
        let frame = classify(address)
        known.withLock { $0[key] = frame }
        return frame
    }

    private static func classify(_ address: UnsafeRawPointer) -> CreationFrame {
        // A return address is the instruction after the call: name the call's own byte (the call may
        // be a function's last instruction).
        guard let symbol = CodeSymbol.at(address - 1) else {
            // The runtime's libraries are stripped; the program's own code never is when sites are read.
            return CodeSymbol.areReadable ? .library : .unknown
        }
        if isConcurrencyLibrary(symbol.demangled) || symbol.mangled.hasPrefix("swift_") { return .library }
        return .site("\(spelled(symbol.function))+\(String(symbol.offset + 1, radix: 16))")
    }

    /// `closure #2 in closure #1 in Loader.load()` → `Loader.load(){1}{2}`: closures are spelled
    /// inside the function they are in, so a site reads as the function a person wrote first.
    static func spelled(_ function: String) -> String {
        var closures: [Substring] = []
        var text = Substring(function)
        while let range = text.firstRange(of: " in "), text.hasPrefix("closure #") || text.hasPrefix("implicit closure #") {
            let number = text[..<range.lowerBound].drop(while: { !$0.isNumber })
            closures.append(text.hasPrefix("implicit") ? "i\(number)" : number)
            text = text[range.upperBound...]
        }
        return text + closures.reversed().map { "{\($0)}" }.joined()
    }

    /// Whether a demangled symbol is the Swift library's (`(extension in Swift):Swift.Task….init`,
    /// `Swift.TaskGroup.addTask…`, and their specializations).
    static func isConcurrencyLibrary(_ demangled: String) -> Bool {
        var text = Substring(demangled)
        var stripped = true
        while stripped {
            stripped = false
            for prefix in ["merged ", "static ", "partial apply for ", "partial apply forwarder for "]
            where text.hasPrefix(prefix) {
                text = text.dropFirst(prefix.count)
                stripped = true
            }
            // "generic specialization <…> of ", "function signature specialization <…> of "
            if let of = text.firstRange(of: "> of "), text.hasPrefix("generic specialization <")
                || text.hasPrefix("function signature specialization <")
            {
                text = text[of.upperBound...]
                stripped = true
            }
        }
        return text.hasPrefix("Swift.") || text.hasPrefix("(extension in Swift):")
            || text.hasPrefix("(extension in _Concurrency):") || text.hasPrefix("_Concurrency.")
    }
}
