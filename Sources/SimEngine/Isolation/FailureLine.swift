/// The line a worker process prints for a failure that found no free slot on the board:
/// `fail <index> <seed> <signature id> <digest>`. The supervisor parses it in place from its read
/// buffer (no String per line: a worker can print one per failing run).
package struct FailureLine: Equatable, Sendable {
    package var index: UInt64
    package var seed: UInt64
    package var signature: UInt64
    package var digest: UInt64

    package init(index: UInt64, seed: UInt64, signature: UInt64, digest: UInt64) {
        self.index = index
        self.seed = seed
        self.signature = signature
        self.digest = digest
    }

    /// The line's text, without the newline.
    package var text: String { "fail \(index) \(seed) \(signature) \(digest)" }

    /// Parses a line (without its newline); nil for anything else, never a misread number.
    package init?(parsing line: ArraySlice<UInt8>) {
        let prefix: [UInt8] = Array("fail".utf8)
        guard line.count > prefix.count, line.prefix(prefix.count).elementsEqual(prefix) else { return nil }
        var numbers: [UInt64] = []
        numbers.reserveCapacity(4)
        var position = line.startIndex + prefix.count
        while position < line.endIndex {
            guard line[position] == 0x20 else { return nil }
            position += 1
            var value: UInt64 = 0
            var digits = 0
            while position < line.endIndex, line[position] != 0x20 {
                let digit = line[position] &- 0x30
                guard digit < 10 else { return nil }
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(UInt64(digit))
                guard !o1 && !o2 else { return nil }
                value = sum
                digits += 1
                position += 1
            }
            guard digits > 0 else { return nil }
            numbers.append(value)
        }
        guard numbers.count == 4 else { return nil }
        self.init(index: numbers[0], seed: numbers[1], signature: numbers[2], digest: numbers[3])
    }
}
