import SimCore

/// SCTBench `CS.carter01_bad` (SV-COMP): a readers-writers style pair of class counters `A` and `B`
/// under `m`, where the first of a class takes `l`. A `B` thread can block on `l` while holding `m`,
/// and the `A` thread that holds `l` needs `m` to release it: a deadlock. Two more threads do nothing,
/// as in the original.
enum Carter01Bad {
    static let scenario = SCTBench.benchmark(
        "carter01_bad", origin: "SCTBench CS/carter01_bad.c",
        summary: "class counters under m, first of a class takes l while holding m: deadlock"
    ) { program in
        let sim = program.simulation
        let m = program.mutex("m")
        let l = program.mutex("l")
        let a = sim.shared("A", 0)
        let b = sim.shared("B", 0)

        func user(_ name: String, _ counter: SharedCell<Int>, _ cell: String) -> BenchThread {
            let seen = Box(0)
            return program.thread(name) {
                Op.lock(m)
                Op.step("write \(cell)") {
                    counter.write(counter.read() + 1)
                    seen.value = counter.read()
                }
                Op.when({ seen.value == 1 }) { .lock(l) }
                Op.unlock(m)
                Op.lock(m)
                Op.step("write \(cell)") {
                    counter.write(counter.read() - 1)
                    seen.value = counter.read()
                }
                Op.when({ seen.value == 0 }) { .unlock(l) }
                Op.unlock(m)
            }
        }
        let a1 = user("a1", a, "A")
        let b1 = user("b1", b, "B")
        let a2 = program.thread("a2") {}
        let b2 = program.thread("b2") {}
        program.main {
            Op.spawn(a1)
            Op.spawn(b1)
            Op.spawn(a2)
            Op.spawn(b2)
            Op.join(a1)
            Op.join(b1)
            Op.join(a2)
            Op.join(b2)
        }
    }
}
