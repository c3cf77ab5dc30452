import SimCore

/// The scenarios that ship with simrun, in the order `simrun list` shows them.
public enum BuiltinScenarios {
    /// The group of the scenarios that check simrun itself (`simrun list --group fixtures`): the
    /// capture and carrier matrices' probes, which the SimCore articles tell a user to run to check a
    /// construct on their platform, and `unruly-counter`, whose models trap, read real time or never
    /// stop on purpose. Runnable by name like any scenario; not among the app scenarios `simrun list`
    /// shows, since none of them is a bug of app code.
    package static let fixtures = "fixtures"

    /// Every built-in scenario: what `simrun` runs (`simrun list` shows those without a group).
    public static let all: [Scenario] = [
        LostInputNavigation.scenario,
        ElementUpdateReentrancy.scenario,
        CartLoginBarrier.scenario,
        AsyncActionStaleVariable.scenario,
        SearchStaleResponse.scenario,
        CounterRace.scenario,
        ActorReentrancyCache.scenario,
        SearchDebounceTask.scenario,
        FrameLoopSearch.scenario,
        DoubleTapSubmit.scenario,
        UnrulyCounter.scenario,
        // Real upstream bugs (issue #16), each citing its issue or PR.
        PlayerOldViewUpdate.scenario,
        TCADismissUnstartedEffect.scenario,
        TCAConcatenatedCancel.scenario,
        BoardyRemovedBoardCompletion.scenario,
        BlueprintReentrantUpdateCrash.scenario,
        // Pass 3 (issue #27).
        TCATaskTreeCancel.scenario,
        BoardyBarrierResetFlows.scenario,
        PlayerStateAfterUnload.scenario,
        PlayerAsyncNodeLastWriter.scenario,
        TCABindingAfterDismiss.scenario,
        // Two systems on one screen.
        BlueprintTCADroppedEvent.scenario,
        // Actors checked for linearizability and atomicity with no oracle written (issue #25).
        CacheCheck.scenario,
        CounterCheck.scenario,
        TokenRefresherCheck.scenario,
        BoundedBufferCheck.scenario,
        SemaphoreCheck.scenario,
        TicketDispenserCheck.scenario,
        MainActorDraftCheck.scenario,
        // Grand Central Dispatch under the scheduler (issue #31).
        GCDImageLoader.scenario,
        GCDDebounce.scenario,
        DispatchGroupDoubleLeave.scenario,
        GCDSemaphoreDeadlock.scenario,
        // A race inside synchronous code, reachable only with lock preemption (issue #31).
        NSLockLostCancel.scenario,
        // Lock-order inversions with the concurrency runtime's task status lock, and between two
        // libraries' locks (issue #41).
        SubjectCancelDeadlock.scenario,
        SharedDependencyDeadlock.scenario,
        // Constructs that used to pass silently: run-loop timers, threads (issue #40).
        TimerDraftResurrection.scenario,
        ThreadAvatarDecode.scenario,
        // A check-then-act behind a Synchronization.Mutex, seen only where each use is a point (issue #40).
        MutexCouponRedeem.scenario,
        // A reused OperationQueue whose cancelAllOperations misses a request that already ran (issue #40).
        OperationQueueSearch.scenario,
        // What the capture routes of Swift concurrency hold (the capture matrix of SimCore's article "Your own async code").
        CaptureProbe.scenario,
        // What lock preemption sees (the CarriersAndPreemption article's matrix).
        CarrierProbe.scenario,
    ]
}

extension Scenario {
    /// This scenario in `group` (listed by `simrun list --group GROUP` only).
    func inGroup(_ group: String) -> Scenario {
        var grouped = self
        grouped.group = group
        return grouped
    }
}
