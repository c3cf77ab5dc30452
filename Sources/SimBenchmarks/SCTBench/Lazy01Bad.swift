import SimCore

/// SCTBench `CS.lazy01_bad` (SV-COMP): two threads add 1 and 2 to `data` under a mutex; a third
/// asserts `data < 3`, which fails when it runs after both.
enum Lazy01Bad {
    static let scenario = SCTBench.benchmark(
        "lazy01_bad", origin: "SCTBench CS/lazy01_bad.c",
        summary: "adders of 1 and 2 and a checker of data < 3 under one mutex"
    ) { program in
        let sim = program.simulation
        let mutex = program.mutex("mutex")
        let data = sim.shared("data", 0)
        let t1 = program.thread("thread1") {
            Op.lock(mutex)
            Op.step("write data") { data.write(data.read() + 1) }
            Op.unlock(mutex)
        }
        let t2 = program.thread("thread2") {
            Op.lock(mutex)
            Op.step("write data") { data.write(data.read() + 2) }
            Op.unlock(mutex)
        }
        let t3 = program.thread("thread3") {
            Op.lock(mutex)
            Op.step("read data") {
                let seen = data.read()
                program.check(seen < 3, "data is \(seen)")
            }
            Op.unlock(mutex)
        }
        program.main {
            Op.spawn(t1)
            Op.spawn(t2)
            Op.spawn(t3)
            Op.join(t1)
            Op.join(t2)
            Op.join(t3)
        }
    }
}
