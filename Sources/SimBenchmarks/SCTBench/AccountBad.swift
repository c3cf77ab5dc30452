import SimCore

/// SCTBench `CS.account_bad` (SV-COMP concurrency set, `account_bad.c`): a deposit, a withdrawal and
/// a checker, each one critical section under `m`. The checker asserts the balance the code computes
/// wrongly (`x - y - z` instead of `x + y - z`), so the bug shows when it runs after both others.
enum AccountBad {
    static let scenario = SCTBench.benchmark(
        "account_bad", origin: "SCTBench CS/account_bad.c",
        summary: "deposit, withdraw and a checker under one mutex; checker after both fails"
    ) { program in
        let sim = program.simulation
        let m = program.mutex("m")
        let (x, y, z) = (1, 2, 4)
        let balance = sim.shared("balance", x)
        let depositDone = sim.shared("deposit_done", false)
        let withdrawDone = sim.shared("withdraw_done", false)
        let check = program.thread("check_result") {
            Op.lock(m)
            Op.step("read balance") {
                if depositDone.read() && withdrawDone.read() {
                    let seen = balance.read()
                    program.check(seen == (x - y) - z, "balance is \(seen), expected \((x - y) - z)")
                }
            }
            Op.unlock(m)
        }
        let deposit = program.thread("deposit") {
            Op.lock(m)
            Op.step("write balance") {
                balance.write(balance.read() + y)
                depositDone.write(true)
            }
            Op.unlock(m)
        }
        let withdraw = program.thread("withdraw") {
            Op.lock(m)
            Op.step("write balance") {
                balance.write(balance.read() - z)
                withdrawDone.write(true)
            }
            Op.unlock(m)
        }
        program.main {
            Op.spawn(check)
            Op.spawn(deposit)
            Op.spawn(withdraw)
        }
    }
}
