import Testing

/// Whether assertions are compiled in (they are in debug builds only): suites that prove an assertion
/// traps are enabled on this, and say so when skipped.
public let isDebugBuild: Bool = {
    #if DEBUG
        true
    #else
        false
    #endif
}()

/// Expects the standard error of an exit test's child to contain `text` (so the trap was the
/// assertion under test, not something else going wrong).
public func expectStandardError(
    _ result: ExitTest.Result?, contains text: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    // A nil result means the exit condition itself failed, which the exit test already recorded.
    guard let result else { return }
    let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(standardError.contains(text), "stderr: \(standardError)", sourceLocation: sourceLocation)
}
