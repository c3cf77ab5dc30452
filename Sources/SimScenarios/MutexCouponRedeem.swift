import SimCapture
import SimCore
import Synchronization

/// A wallet redeems a coupon behind a `Synchronization.Mutex`: two taps on "Redeem" (two tasks) each
/// ask whether the coupon was used and, if not, mark it used and credit the account. `buggy` asks and
/// acts in two `withLock` calls, so both taps can see the coupon unused and the account is credited
/// twice; `fixed` checks and marks in one. Each `withLock` is one synchronous stretch: only a
/// scheduling point at the Mutex itself lets the second tap in between, so this needs `--preempt`
/// (simrun makes every use of a program's Mutex such a point in a debug build; see
/// CarriersAndPreemption).
public enum MutexCouponRedeem {
    /// The scenario: `buggy`, `fixed`.
    public static let scenario: Scenario = {
        var scenario = Scenario.async(
            name: "mutex-coupon-redeem",
            summary:
                "two taps redeem one coupon behind a Synchronization.Mutex, checked and marked in two withLock"
                + " calls: credited twice — a race inside synchronous code (--preempt)",
            variants: [
                .init("buggy", "checks the coupon in one withLock and marks it used in another"),
                .init("fixed", "checks and marks the coupon in one withLock"),
            ],
            limits: RunLimits(maxSteps: 1_000)
        ) { simulation, variant in
            let wallet = CouponWallet(checksOnce: variant == "fixed")
            let taps = (0..<2).map { _ in Task { wallet.redeem("WELCOME10") } }
            for tap in taps { await tap.value }
            let (credit, bothSawUnused) = wallet.state.withLock { ($0.credit, $0.unusedSeen >= 2) }
            simulation.sometimes("both taps saw the coupon unused") { bothSawUnused }
            simulation.check("credited-once", credit == 10, "the coupon was credited \(credit / 10) times")
        }
        scenario.bugNeeds = .preemptLocks
        return scenario
    }()
}

/// The wallet: redeemed codes and the credit, behind one Mutex.
final class CouponWallet: Sendable {
    struct State {
        var redeemed: Set<String> = []
        var credit = 0
        var unusedSeen = 0
    }
    let state = Mutex(State())
    let checksOnce: Bool

    init(checksOnce: Bool) { self.checksOnce = checksOnce }

    func redeem(_ code: String) {
        if checksOnce {
            state.withLock { state in
                guard state.redeemed.insert(code).inserted else { return }
                state.unusedSeen += 1
                state.credit += 10
            }
            return
        }
        let used = state.withLock { state in
            let used = state.redeemed.contains(code)
            if !used { state.unusedSeen += 1 }
            return used
        }
        guard !used else { return }
        state.withLock { state in
            state.redeemed.insert(code)
            state.credit += 10
        }
    }
}
