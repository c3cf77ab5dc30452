import SimCore

/// SCTBench `CS.queue_bad` (SV-COMP): a bounded queue of 20 with an enqueuer and a dequeuer that
/// alternate through flags under `m`. The dequeuer asserts that round `i` dequeues the `i`-th stored
/// element, which breaks when one of its rounds found the flag down.
enum QueueBad {
    static let scenario = SCTBench.benchmark(
        "queue_bad", origin: "SCTBench CS/queue_bad.c",
        summary: "enqueuer and dequeuer alternate by flags; a skipped dequeue round compares the wrong element"
    ) { program in
        let sim = program.simulation
        let m = program.mutex("m")
        let size = 20
        var element = [Int](repeating: 0, count: size + 1)
        var head = 0
        var tail = 0
        var amount = 0
        var stored = [Int](repeating: 0, count: size)
        let enqueueFlag = sim.shared("enqueue_flag", true)
        let dequeueFlag = sim.shared("dequeue_flag", false)

        func enqueue(_ x: Int) {
            element[tail] = x
            amount += 1
            tail = tail == size ? 1 : tail + 1
        }
        func dequeue() -> Int {
            let x = element[head]
            amount -= 1
            head = head == size ? 1 : head + 1
            return x
        }

        let value = Box(0)
        let round = Box(0)
        let t1 = program.thread("t1") {
            Op.lock(m)
            Op.step("write queue") {
                enqueue(0)
                stored[0] = 0
                program.check(head != tail, "queue empty right after an enqueue")
            }
            Op.unlock(m)
            Op.repeatWhile({ round.value < size - 1 }) {
                Op.lock(m)
                Op.step("write queue") {
                    if enqueueFlag.read() {
                        value.value += 1
                        enqueue(value.value)
                        stored[round.value + 1] = value.value
                        enqueueFlag.write(false)
                        dequeueFlag.write(true)
                    }
                }
                Op.unlock(m)
                Op.local { round.value += 1 }
            }
        }
        let taken = Box(0)
        let t2 = program.thread("t2") {
            Op.repeatWhile({ taken.value < size }) {
                Op.lock(m)
                Op.step("write queue") {
                    if dequeueFlag.read() {
                        let got = dequeue()
                        program.check(
                            got == stored[taken.value],
                            "dequeued \(got), stored[\(taken.value)] is \(stored[taken.value])")
                        dequeueFlag.write(false)
                        enqueueFlag.write(true)
                    }
                }
                Op.unlock(m)
                Op.local { taken.value += 1 }
            }
        }
        program.main {
            Op.spawn(t1)
            Op.spawn(t2)
            Op.join(t1)
            Op.join(t2)
        }
    }
}
