import Foundation
import SimTestSupport
import Testing

@testable import SimEngine

/// Where a finding goes when it cannot be saved where asked: a short name in a fresh temporary
/// directory, said once. (What the commands print of it: SimRunKitTests' `WriteFailureTests`.)
@Suite struct FindingStoreTests {
    /// A name the file system takes, but not with the temporary suffix written first (`.tmp-PID-N`).
    static let longerThanItsTemporary = String(repeating: "b", count: 240)

    /// The fallback name is short: a wanted name the file system refuses is never tried again there.
    @Test func theFallbackOfANameTooLongIsAShortName() throws {
        let directory = try makeTemporaryDirectory("long-fallback")
        let wanted = directory.appendingPathComponent(Self.longerThanItsTemporary + ".simtrace").path
        var warnings: [String] = []
        let store = FindingStore(warn: { warnings.append($0) })
        let saved = try store.save(to: wanted) { (target: String) throws(SimEngineError) -> String in
            try AtomicFile.write(Array("trace".utf8), to: target)
            return target
        }
        defer { removeScratchDirectory(OutputPath.directory(of: saved.path)) }
        #expect(saved.path != wanted)
        #expect(saved.path.contains("simrun-findings-"), "\(saved.path)")
        #expect((saved.path.split(separator: "/").last?.utf8.count ?? 999) <= 100, "\(saved.path)")
        #expect(FileManager.default.fileExists(atPath: saved.path))
        #expect(warnings.count == 1 && warnings[0].contains(saved.path), "\(warnings)")
    }
}
