import Foundation
import SimTestSupport
import Testing

/// `simrun export`: JSON Lines to stdout when no `--out` is given. (What the exports hold:
/// SimTraceTests' `TraceExportTests`; its exit codes: `ExitCodeTests`.)
@Suite struct ExportCommandTests {
    @Test func jsonLinesGoToStdoutWithoutOut() throws {
        let run = try SimrunProcess.run(["export", CommittedTraces.lostInput, "--format", "jsonl"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("{\"type\":\"schema\",\"schema\":\"simrun.jsonl/1\""), "\(run.stdout.prefix(200))")
        #expect(run.stdout.hasSuffix("}\n") && run.stderr.isEmpty, "\(run.stderr)")
    }
}
