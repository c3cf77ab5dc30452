import SimCapture
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
        /// A bug that is one even one call at a time: a withdrawal debits twice.
        var debitsTwice = false
        private var balance = 10
        private let ledger = Ledger()

        init(debitsFirst: Bool) { self.debitsFirst = debitsFirst }

        func withdraw(_ amount: Int) async throws -> Int {
            guard balance >= amount else { throw Insufficient() }
            if debitsTwice { balance -= amount }
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

        func setDebitsTwice() { debitsTwice = true }

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

    /// A wrong-but-consistent wallet passes against itself and fails against a reference model.
    @Test func aReferenceSpecificationCatchesCodeWrongEvenOneCallAtATime() async throws {
        let doubleDebit = ObjectCheck<Wallet>(
            name: "user-wallet-double-debit", summary: "a withdrawal debits twice",
            variants: [
                .init("double-debit", "debits twice, after the debit-first fix") { _ in
                    let wallet = Wallet(debitsFirst: true)
                    await wallet.setDebitsTwice()
                    return wallet
                }
            ],
            operations: Self.wallet.operations)
        let alone = checkLinearizability(of: doubleDebit, strategy: "random", seeds: 0..<60)
        #expect(alone.failure == nil, "the object as its own specification sees nothing wrong")
        var referenced = doubleDebit
        referenced.specification = { _ in Wallet(debitsFirst: true) }
        let directory = try makeTemporaryDirectory("object-check-spec").path
        withKnownIssue {
            checkLinearizability(of: referenced, strategy: "random", seeds: 0..<60, failureDirectory: directory)
        } matching: {
            $0.comments.map(\.rawValue).joined().contains("not linearizable")
        }
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
