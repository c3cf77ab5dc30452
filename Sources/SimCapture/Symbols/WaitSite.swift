import SimCore
import CSimInterpose

/// Where a blocking wait was made: the innermost function of the program's own on the waiting
/// thread's stack (issue #30), so that a deadlock says which function of the user's code waits
/// (`main waits for DispatchSemaphore#1 (in dispatch.async, in ThumbnailStore.thumbnail(for:))`).
///
/// The stack is taken when the wait starts (return addresses only, cheap) and named only when a
/// report asks for it. Frames of the runtime, the standard library, Foundation, Dispatch and simrun
/// itself are skipped. Where stacks or symbols cannot be read, `description` says so.
struct WaitSite: CustomStringConvertible {
    private let frames: [UnsafeRawPointer]

    /// Libraries a wait passes through on its way from the user's code to simrun.
    static let passThrough: Set<String> = TaskCensus.harnessModules.union([
        "Dispatch", "Foundation", "FoundationEssentials", "Synchronization",
    ])

    /// The stack of the calling thread now.
    static func here() -> WaitSite {
        var buffer = [UnsafeRawPointer?](repeating: nil, count: 48)
        let count = Int(simrun_backtrace(&buffer, Int32(buffer.count)))
        return WaitSite(frames: buffer.prefix(max(0, count)).compactMap { $0 })
    }

    /// The user's function that waits, or nil when none can be named.
    var function: String? {
        for address in frames {
            // A return address points after the call: name the call's own instruction.
            guard let symbol = CodeSymbol.at(address - 1), let module = TaskCensus.module(ofMangled: symbol.mangled),
                !Self.passThrough.contains(module)
            else { continue }
            return symbol.function
        }
        return nil
    }

    /// `in F`, or why the function cannot be named.
    var description: String {
        if frames.isEmpty { return "in: not visible here (the waiting thread's stack is read on Linux only)" }
        if !CodeSymbol.areReadable { return "in: not visible (no symbol table)" }
        return function.map { "in \($0)" } ?? "in: not visible (no function of the program's own on the stack)"
    }
}
