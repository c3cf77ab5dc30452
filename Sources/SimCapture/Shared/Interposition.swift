import SimCore
import CSimInterpose

/// The interposition layer of this process (issue #40): on Linux, CSimInterpose's definitions of the
/// clocks, GCD, lock, run-loop, thread, actor-entry and task-creation functions put a run's uses of
/// them under the scheduler. `SIMRUN_INTERPOSE=off` in the environment at start-up switches the whole
/// layer off — every interposer forwards to the real function and every capture that depends on it
/// says it is inactive (``DispatchCapturing/isActive``, ``VirtualClocks/areVirtual``,
/// ``RunLoopCapturing/isActive``, ``ThreadsCapture/isActive``, ``Carriers/locksInterposed``,
/// ``ActorEntry/isInterposed``) — the shape a process has where the layer is absent (macOS today), so
/// that what such a platform captures, and what it reports instead, is checked on Linux too.
public enum Interposition {
    /// The environment variable that switches the layer off for the whole process: `off`.
    public static let environmentVariable = "SIMRUN_INTERPOSE"

    /// True when `SIMRUN_INTERPOSE=off` switched the layer off in this process (read once, at start-up).
    public static var isSwitchedOff: Bool { simrun_interpose_off() != 0 }
}
