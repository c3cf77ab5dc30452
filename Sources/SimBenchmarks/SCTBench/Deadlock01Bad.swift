import SimCore

/// SCTBench `CS.deadlock01_bad` (SV-COMP): two threads take mutexes `a` and `b` in opposite orders.
enum Deadlock01Bad {
    static let scenario = SCTBench.benchmark(
        "deadlock01_bad", origin: "SCTBench CS/deadlock01_bad.c",
        summary: "two threads lock a and b in opposite orders: deadlock"
    ) { program in
        let sim = program.simulation
        let a = program.mutex("a")
        let b = program.mutex("b")
        let counter = sim.shared("counter", 1)
        let t1 = program.thread("thread1") {
            Op.lock(a)
            Op.lock(b)
            Op.step("write counter") { counter.write(counter.read() + 1) }
            Op.unlock(b)
            Op.unlock(a)
        }
        let t2 = program.thread("thread2") {
            Op.lock(b)
            Op.lock(a)
            Op.step("write counter") { counter.write(counter.read() - 1) }
            Op.unlock(a)
            Op.unlock(b)
        }
        program.main {
            Op.spawn(t1)
            Op.spawn(t2)
            Op.join(t1)
            Op.join(t2)
        }
    }
}
