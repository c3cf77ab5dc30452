import SimCapture
import SimCore
import Testing

@testable import SimEngine

/// Where a child trapped, read from its trap reporter's line (issue #40, item 8): a crash inside a
/// shared library (libdispatch, Foundation) names that library first, then the program's callers;
/// the trap's way down (the C library, the Swift runtime), simrun's interposers and scheduler, and
/// the compiler's thunks are never the place.
@Suite struct TrapFramesTests {
    /// `DispatchGroupDoubleLeave.Prefetch.finish(_:)`, as the program's symbol table has it.
    static let finish =
        "$s12SimScenarios24DispatchGroupDoubleLeaveO8PrefetchC6finish33_BA2AD36E87367DAA01EA9B4AC2A040E3LLyySSF"

    @Test func aTrapInsideLibdispatchNamesItThenTheProgramsCaller() {
        let stderr = [
            "some output of the model",
            "simrun-trap-frames: ?|libc.so.6 ?|libc.so.6 dispatch_group_leave.cold.1|libdispatch.so "
                + "dispatch_group_leave \(Self.finish) simrun_dispatch_item_run $s7SimCore0A12MainExecutorC3runyyKF",
        ].joined(separator: "\n")
        let frames = ChildProcess.trapFrames(in: stderr)
        #expect(frames == ["libdispatch.so: dispatch_group_leave", "DispatchGroupDoubleLeave.Prefetch.finish(_:)"])
        let place = CrashPlace(job: "main/dispatch.async", functions: frames, message: nil)
        #expect(place.library == "libdispatch.so")
        #expect(place.description == "in job main/dispatch.async, in libdispatch.so (dispatch_group_leave)")
        #expect(
            CrashPlace.libraryLine(frames)
                == "the trap is inside libdispatch.so, a library the program calls: dispatch_group_leave, "
                + "called from DispatchGroupDoubleLeave.Prefetch.finish(_:)")
    }

    @Test func aTrapInTheProgramNamesNoLibrary() {
        // A precondition: the runtime's frames (in libswiftCore) on the way down, then the program.
        let stderr =
            "simrun-trap-frames: $ss17_assertionFailure_4file4line5flagss5NeverOs12StaticStringV_SSAESus6UInt32VtF|libswiftCore.so "
            + "\(Self.finish) simrun_dispatch_item_run"
        let frames = ChildProcess.trapFrames(in: stderr)
        #expect(frames == ["DispatchGroupDoubleLeave.Prefetch.finish(_:)"])
        #expect(CrashPlace(job: nil, functions: frames, message: nil).library == nil)
        #expect(CrashPlace.libraryLine(frames) == nil)
    }

    @Test func aStrippedLibrarysFrameIsStillNamedByItsLibrary() {
        let frames = ChildProcess.trapFrames(in: "simrun-trap-frames: ?|libFoundation.so ?|libFoundation.so \(Self.finish)")
        #expect(frames == ["libFoundation.so: (a function without a symbol)", "DispatchGroupDoubleLeave.Prefetch.finish(_:)"])
        #expect(CrashPlace(job: nil, functions: frames, message: nil).library == "libFoundation.so")
    }

    @Test func framesOfOldRecordingsReadAsTheProgramsFunctions() {
        // A recorded frame name with ": " that is no library (generic constraints) stays whole.
        let frame = "f<A where A: P>()"
        #expect(CrashPlace.parts(of: frame) == (frame, nil))
        #expect(CrashPlace.parts(of: "libdispatch.so: x") == ("x", "libdispatch.so"))
        #expect(CrashPlace.parts(of: "libFoo.dylib: y") == ("y", "libFoo.dylib"))
        #expect(ChildProcess.trapFrames(in: "no trap line") == [])
    }
}
