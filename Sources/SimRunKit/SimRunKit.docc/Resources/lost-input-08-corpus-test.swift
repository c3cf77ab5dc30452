// From Tests/TraceRegressionTests/TraceRegressionTests.swift
let builtinCorpus = TraceCorpus(scenarios: BuiltinScenarios.all, executable: SimrunProcess.executable.path)
// …
    @Test(arguments: builtinCorpus.traces)
    func replaysWithoutDivergenceAndWithItsRecordedVerdict(_ trace: CorpusTrace) throws {
        builtinCorpus.replay(trace)
    }

    @Test(arguments: builtinCorpus.traces)
    func theFixedVariantPassesOnTheSameSchedule(_ trace: CorpusTrace) throws {
        builtinCorpus.replayOnFixed(trace)
    }
