import Foundation
import SimCore
import Testing

@testable import SimEngine

/// What `simrun run` and `simrun explain` tell the child they run their work in (`_run`,
/// `_explain`): every stored property crosses the process boundary (a member added on one side and
/// forgotten on the other fails here, as for `WorkerRequest`), and how the child ended is decided
/// here, not by the command that prints it.
@Suite struct CommandChildRequestTests {
    static let fullRun = RunRequest(
        scenario: "counter-race", variant: "buggy", seed: 0xffff_ffff_ffff_fff0, strategy: "pct:depth=3",
        out: "/tmp/a b.simtrace", failureDir: "failures here", noise: 4, carriers: .preemptLocks,
        output: CommandOutput(json: true, quiet: true, progress: true, fullNames: true))
    static let minimalRun = RunRequest(
        scenario: "", variant: "", seed: 0, strategy: "", out: nil, failureDir: "", noise: 0, carriers: .off,
        output: CommandOutput(json: false, quiet: false, progress: false))

    static let fullExplain = ExplainRequest(
        trace: "/tmp/x y.simtrace", runs: 37, jobs: 5, context: 9,
        output: CommandOutput(json: true, quiet: true, progress: true, fullNames: true))
    static let minimalExplain = ExplainRequest(
        trace: "", runs: 0, jobs: 0, context: 0, output: CommandOutput(json: false, quiet: false, progress: false))

    @Test func aRunRequestCarriesEveryMember() throws {
        try ChildRequestTests.checkEveryMember(Self.fullRun, Self.minimalRun, text: Self.fullRun.text)
        try Self.checkEveryOutputMember(Self.fullRun.output, text: Self.fullRun.text)
        #expect(try RunRequest(decoding: Self.fullRun.text) == Self.fullRun)
        #expect(try RunRequest(decoding: Self.minimalRun.text) == Self.minimalRun)
        #expect(try Self.fullRun.strategySpec().description == "pct:depth=3")
        let withoutDirectory = Self.fullRun.text.replacingOccurrences(
            of: ",\"failureDir\":\"failures here\"", with: "")
        #expect(withoutDirectory != Self.fullRun.text)
        do {
            _ = try RunRequest(decoding: withoutDirectory)
            Issue.record("a request without its failure directory was read")
        } catch {
            #expect(error.message == "run request: no 'failureDir'")
        }
        var unknown = Self.fullRun
        unknown.strategy = "zigzag"
        #expect(throws: SimEngineError.self) { try unknown.strategySpec() }
    }

    @Test func anExplainRequestCarriesEveryMember() throws {
        try ChildRequestTests.checkEveryMember(Self.fullExplain, Self.minimalExplain, text: Self.fullExplain.text)
        try Self.checkEveryOutputMember(Self.fullExplain.output, text: Self.fullExplain.text)
        #expect(try ExplainRequest(decoding: Self.fullExplain.text) == Self.fullExplain)
        #expect(try ExplainRequest(decoding: Self.minimalExplain.text) == Self.minimalExplain)
        #expect(throws: SimEngineError.self) { try ExplainRequest(decoding: "{\"version\":2}") }
    }

    /// A child that died of a signal passed on is interrupted; one that died of a signal of its
    /// own trapped; one that exited keeps its status.
    @Test func howTheChildEndedIsDecidedHere() {
        #expect(CommandChild.Outcome(.exited(73), interrupted: true) == .exited(73))
        #expect(CommandChild.Outcome(.signaled(SIGINT), interrupted: true) == .interrupted)
        #expect(CommandChild.Outcome(.signaled(SIGILL), interrupted: false) == .crashed(signal: SIGILL))
    }

    /// The nested console options: one JSON member per stored property, each set in the fixture.
    static func checkEveryOutputMember(_ output: CommandOutput, text: String) throws {
        let children = Array(Mirror(reflecting: output).children)
        #expect(children.allSatisfy { ($0.value as? Bool) == true }, "set every console option in the fixture")
        guard case .object(let members) = try JSONValue(parsing: text),
            case .object(let nested)? = members.first(where: { $0.key == "output" })?.value
        else { throw WorkerRequestTests.Expectation.notAnObject }
        #expect(nested.count == children.count)
    }
}
