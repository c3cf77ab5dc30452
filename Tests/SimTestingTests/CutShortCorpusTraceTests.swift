import Foundation
import SimCore
import SimEngine
import SimTestSupport
import SimTesting
import Testing

/// A corpus trace cut short (no footer) may be the recording of a run that trapped: a corpus with no
/// executable to start a child must not replay it in the test's own process, and says why.
@Suite struct CutShortCorpusTraceTests {
    @Test func aCutShortTraceIsNotReplayedInTheTestProcess() throws {
        let corpus = try CorpusConclusiveTests.corpus()
        defer { try? FileManager.default.removeItem(atPath: corpus.directory) }
        let path = corpus.traces[0].path
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        // The last frame (the footer) loses its last bytes: the end cannot be read.
        try whole.prefix(whole.count - 3).write(to: URL(fileURLWithPath: path))
        let cut = try #require(TraceCorpus(directory: corpus.directory, scenarios: [CorpusConclusiveTests.racing]).traces.first)
        do {
            let report = try TraceCorpus(directory: corpus.directory, scenarios: [CorpusConclusiveTests.racing])
                .verdict(of: cut)
            Issue.record("a cut-short trace was replayed in this process: \(report.verdict.name)")
        } catch {
            #expect(error.message.contains("is cut short (no footer), where its run may trap"), "\(error.message)")
            #expect(error.message.contains("child process"), "\(error.message)")
        }
    }
}
