import SimCore
import SimTestSupport
import SimTesting
import Testing

/// A user's own actor, checked from the outside with one call: the object run one call at a time is
/// the specification, a bug is reported as a table of calls and saved as a trace that replays.
@Suite struct ObjectCheckTests {
    /// A user's wallet: `withdraw` checks the balance, awaits the ledger, then debits.
    actor Wallet {
        struct Insufficient: Error, Equatable {}
        let debitsFirst: Bool
        private var balance = 10
        private let ledger = Ledger()

        init(debitsFirst: Bool) { self.debitsFirst = debitsFirst }

        func withdraw(_ amount: Int) async throws -> Int {
            guard balance >= amount else { throw Insufficient() }
            if debitsFirst {
                balance -= amount
                let left = balance  // read before the await: after it, other calls may have run
                await ledger.record(-amount)
                return left
            }
            await ledger.record(-amount)
            balance -= amount
            return balance
        }

        func deposit(_ amount: Int) -> Int {
            balance += amount
            return balance
        }
    }

    actor Ledger {
        var entries: [Int] = []
        func record(_ entry: Int) async {
            await Task.yield()
            entries.append(entry)
        }
    }

    static let wallet = ObjectCheck<Wallet>(
        name: "user-wallet",
        summary: "a withdrawal checks the balance, awaits the ledger, then debits",
        variants: [
            .init("buggy", "check, await the ledger, debit") { _ in Wallet(debitsFirst: false) },
            .init("fixed", "debit, then await the ledger") { _ in Wallet(debitsFirst: true) },
        ],
        operations: [
            .init("withdraw", arguments: [6, 3]) { wallet, amount in try await wallet.withdraw(amount) },
            .init("deposit", arguments: [5]) { wallet, amount in await wallet.deposit(amount) },
        ])

    @Test func theFixedWalletIsLinearizableAndAtomic() {
        let linearizable = checkLinearizability(of: Self.wallet, variant: "fixed", strategy: "random", seeds: 0..<150)
        #expect(linearizable.failure == nil && linearizable.schedules == 150)
        let atomic = checkAtomicity(of: Self.wallet, variant: "fixed", strategy: "pct", seeds: 0..<150)
        #expect(atomic.failure == nil && atomic.schedules == 150)
    }

    @Test func theOverdraftIsFoundShrunkToTwoWithdrawalsAndSavedAsATrace() throws {
        let directory = try makeTemporaryDirectory("object-check").path
        var exploration: Exploration?
        withKnownIssue {
            exploration = checkLinearizability(
                of: Self.wallet, variant: "buggy", seeds: 0..<200, failureDirectory: directory)
        } matching: { issue in
            let text = issue.comments.map(\.rawValue).joined()
            // Two withdrawals of 6 from 10 both succeed: alone, the second throws.
            return text.contains("not linearizable") && text.contains("withdraw(6) → 4")
                && text.contains("(alone: throws Insufficient())")
        }
        let failure = try #require(exploration?.failure)
        #expect(failure.verdict.oracle == "linearizable")
        #expect(failure.verdict.message.contains("(2 tasks, 2 calls;"))
        let corpus = TraceCorpus(directory: directory, scenarios: [Self.wallet.checking(.linearizable).scenario()])
        #expect(corpus.traces.count == 1)
        for trace in corpus.traces { #expect(corpus.replay(trace)) }
    }
}
