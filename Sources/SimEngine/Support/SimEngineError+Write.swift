import SimTrace

extension SimEngineError {
    /// `cannot write <path>: <why>` for a failed write of `path`: the file named once, then the
    /// system's reason (`No space left on device`), never the trace reader's `<file>: at byte 0:
    /// expected …` form, which repeats the path and gives an offset of nothing.
    package static func cannotWrite(_ path: String, _ error: TraceError) -> SimEngineError {
        let why: String
        switch (error.detail.isEmpty, error.expected) {
        case (true, let expected): why = expected
        case (false, "a writable directory for the temporary file"):
            why = "\(error.detail) (writing its temporary file beside it)"
        case (false, _): why = error.detail
        }
        return SimEngineError(.cannotWrite, "cannot write \(path): \(why)")
    }
}
