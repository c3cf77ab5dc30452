import SimEngine

extension FindingStore {
    /// A store whose fallback warning goes to `console`'s stderr.
    init(console: Console) { self.init(warn: { console.err($0) }) }
}
