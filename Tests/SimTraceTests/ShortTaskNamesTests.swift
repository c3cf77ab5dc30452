import SimTrace
import Testing

/// Tables and timelines print task identities short (#44, F7): without the scenario body's `task>`
/// and without argument labels (`--full-names` prints them whole; the trace keeps them whole).
@Suite struct ShortTaskNamesTests {
    @Test(arguments: [
        ("task>SearchViewModel.type(_:){1}.1", "SearchViewModel.type{1}.1"),
        ("main/task>SearchViewModel.type(_:){1}.1#1", "main/SearchViewModel.type{1}.1#1"),
        ("task>A.f(){1}.1>B.g(id:from:){2}.3/actor#2", "A.f{1}.1>B.g{2}.3/actor#2"),
        (
            "decision 6 (task>S.type(_:){1}.2/task.sleep#1 before task>S.type(_:){1}.1/task.sleep#1)",
            "decision 6 (S.type{1}.2/task.sleep#1 before S.type{1}.1/task.sleep#1)"
        ),
        ("task>Loader.start(){1}+4c.1", "Loader.start{1}+4c.1"),
        ("actor.call: task>M.f(_:){1}.1 calls actor SearchService.search(_:)", "actor.call: M.f{1}.1 calls actor SearchService.search(_:)"),
        ("task", "task"), ("task.sleep task", "task.sleep task"), ("writer#2", "writer#2"), ("user.tap/action.tap#1", "user.tap/action.tap#1"),
    ])
    func aTaskIdentityIsShortenedForTables(full: String, short: String) {
        #expect(ShortTaskNames.shorten(full) == short)
    }
}
