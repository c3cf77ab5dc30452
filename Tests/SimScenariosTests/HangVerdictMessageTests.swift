import Foundation
import SimCapture
import SimCore
import SimEngine
import SimScenarios
import SimTestSupport
import Testing

/// A hang names who is stuck (issue #30) in its verdict: every hang verdict of the committed traces
/// and of the built-in scenarios' runs lists the Swift tasks still suspended (or says there are none,
/// or that they cannot be seen here), each with where it waits. How the commands show the list:
/// SimRunKitTests' `HangReportCommandTests`; the census itself: SimCaptureTests' `HangReportTests`.
@Suite struct HangVerdictMessageTests {
    /// Whether `verdict` is a hang: a deadlock, work still pending, or the `stays-in-simulation` oracle.
    static func isHang(_ verdict: Verdict) -> Bool {
        switch verdict {
        case .deadlock, .pending: true
        case .fail(let oracle, _): oracle == "stays-in-simulation"
        default: false
        }
    }

    /// Why `message` does not name who is stuck, or nil when it does: a `suspended tasks` list whose
    /// every task has its creator, what it waits on and where (a function, or an explicit "not
    /// visible"), and for every blocking wait the function that waits.
    static func problem(with message: String) -> String? {
        guard let list = message.range(of: "suspended tasks") else { return "no suspended-task list" }
        let listed = message[list.lowerBound...]
        if listed.hasPrefix("suspended tasks: none (") || listed.hasPrefix("suspended tasks: not visible here (") {
            return nil
        }
        guard listed.hasPrefix("suspended tasks ("),
            let count = Int(listed.dropFirst("suspended tasks (".count).prefix(while: \.isNumber)), count > 0
        else { return "an unreadable suspended-task list" }
        let tasks = listed.components(separatedBy: " (created by ").count - 1
        let placed =
            listed.components(separatedBy: "; in ").count - 1
            + listed.components(separatedBy: "; in: not visible (").count - 1
        if tasks != count { return "\(count) tasks announced, \(tasks) listed" }
        if placed != count { return "\(count) tasks listed, \(placed) with where they wait" }
        for wait in message.components(separatedBy: " waits for ").dropFirst() {
            let clause = wait.prefix { $0 != ";" }
            if clause.contains("DispatchSemaphore") || clause.contains("DispatchGroup"),
                !(clause.contains(", in ") || clause.contains(", in: not visible"))
            {
                return "a blocking wait without the function that waits: \(clause)"
            }
        }
        return nil
    }

    @Test func everyHangVerdictOfTheCommittedTracesNamesItsSuspendedTasks() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: CommittedTraces.directory)
        var hangs = 0
        for name in names.filter({ $0.hasSuffix(".simtrace") }).sorted() {
            let trace = CommittedTraces.directory + "/" + name
            let verdict = try #require(try TraceInput(path: trace).footer?.verdict, "\(trace) has no footer")
            guard Self.isHang(verdict) else { continue }
            hangs += 1
            #expect(Self.problem(with: verdict.message) == nil, "\(trace): \(verdict.message)")
        }
        #expect(hangs >= 1, "Traces/ holds no hang (gcd-semaphore-deadlock's deadlock is one)")
    }

    /// Every variant of every built-in scenario that does not trap, on fifo and a few random seeds:
    /// each hang among those runs names who is stuck, and the known hangs are among them.
    @Test func everyHangOfTheBuiltInScenariosNamesItsSuspendedTasks() {
        var found: Set<String> = []
        for scenario in BuiltinScenarios.all {
            // A variant that traps would end this process: its runs are SimEngineTests' `FifoCrashTests`.
            for variant in scenario.variants where !variant.summary.contains("trap") && !variant.summary.contains("trips") {
                let runs =
                    [scenario.run(variant: variant.name, seed: 0, strategy: FIFOStrategy())]
                    + (1..<3).map { scenario.run(variant: variant.name, seed: $0, strategy: RandomStrategy()) }
                for result in runs where Self.isHang(result.verdict) {
                    found.insert("\(scenario.name)/\(variant.name)")
                    #expect(
                        Self.problem(with: result.verdict.message) == nil,
                        "\(scenario.name)/\(variant.name): \(result.verdict)")
                }
            }
        }
        if DispatchCapturing.isActive {
            #expect(found.contains("gcd-semaphore-deadlock/buggy"), "\(found.sorted())")
            #expect(found.contains("capture-probe/dispatch-source-data"), "\(found.sorted())")
        }
    }
}
