import SimCore

/// The scenarios that ship with simrun, in the order `simrun list` shows them.
public enum BuiltinScenarios {
    public static let all: [Scenario] = [
        LostInputNavigation.scenario,
        ElementUpdateReentrancy.scenario,
        CartLoginBarrier.scenario,
        AsyncActionStaleVariable.scenario,
        SearchStaleResponse.scenario,
        CounterRace.scenario,
        ActorReentrancyCache.scenario,
        SearchDebounceTask.scenario,
        DoubleTapSubmit.scenario,
        UnrulyCounter.scenario,
        CaptureProbe.scenario,
    ]
}
