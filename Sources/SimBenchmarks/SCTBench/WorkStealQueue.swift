import SimCore

/// SCTBench `CHESS.WorkStealQueue` (the CHESS work-stealing queue test; mc-imperial/sctbench d59ab26,
/// `benchmarks/chess/WorkStealQueue.cpp` and `WorkStealQueue.h`, with its BUG3): the owner pushes and
/// pops at the tail without a lock, stealers take from the head under a lock. With BUG3, `Push` lets
/// the queue fill every slot (`t < head + mask + 1`), so a push can overwrite the slot a stealer has
/// claimed (head already advanced) but not read yet: one item is operated on twice and another never,
/// and the final `Check` (`field == 1`) fails.
///
/// Two configurations, each a benchmark: `WorkStealQueue` with 2 stealers (the study's: its
/// `benchmarks/buggy.txt` lists 3 threads for it, main included) and `WorkStealQueue-1stealer` with the
/// original's default `nStealers = 1` (the program run without arguments, as PERIOD's copy, which the
/// SURW and RFF artifacts measure, runs it). Both: 4 items, 2 steal attempts, initial size 2.
///
/// The `fixed` variant is the same test without BUG3 (`t < head + mask`): no schedule fails it, which
/// checks the port as much as the bug. Every access to `head` and `tail` (atomics in the original) is a
/// scheduling point; slot accesses ride with them.
enum WorkStealQueue {
    /// The benchmark's name for `stealers` stealer threads.
    static func name(stealers: Int) -> String {
        stealers == 2 ? "WorkStealQueue" : "WorkStealQueue-\(stealers)stealer\(stealers == 1 ? "" : "s")"
    }

    static func scenario(stealers: Int) -> Scenario {
        SCTBench.benchmark(
            name(stealers: stealers),
            origin:
                "SCTBench CHESS/WorkStealQueue.cpp at d59ab26 (BUG3; \(stealers) stealer\(stealers == 1 ? "" : "s"), 4 items)",
            summary: "a push into a full ring overwrites the slot a stealer claimed; an item runs twice",
            fixed: "Push keeps one slot free (t < head + mask), the original without BUG3"
        ) { program, fixed in
            build(program, fixed: fixed, stealers: stealers)
        }
    }

    private static func build(_ program: BenchProgram, fixed: Bool, stealers: Int) {
        let sim = program.simulation
        let items = 4
        let attempts = 2
        let lock = program.mutex("cs")
        let head = sim.shared("head", 0)
        let tail = sim.shared("tail", 0)
        let queue = Ring(size: 2)
        let field = (0..<items).map { sim.shared("item.\($0)", 0) }

        /// `r->Operation()` on the item in `taken`, when one was found.
        func operate(_ taken: Box<Int?>) -> BenchOp {
            .branch(
                { taken.value != nil },
                [.step("write item") { field[taken.value ?? 0].write(field[taken.value ?? 0].read() + 1) }], [])
        }

        func steal(_ taken: Box<Int?>) -> [BenchOp] {
            let h = Box(0)
            return [
                .local { taken.value = nil },
                .lock(lock),
                .step("read head") { h.value = head.read() },
                .step("write head") { head.write(h.value + 1) },
                .step("read tail") { if h.value < tail.read() { taken.value = queue.slots[h.value & queue.mask] } },
                .branch({ taken.value == nil }, [.step("write head") { head.write(h.value) }], []),
                .unlock(lock),
            ]
        }

        func push(_ item: Int) -> [BenchOp] {
            let t = Box(0)
            let fits = Box(false)
            let h = Box(0)
            let count = Box(0)
            return [
                .step("read tail") { t.value = tail.read() },
                .step("read head") { fits.value = t.value < head.read() + queue.mask + (fixed ? 0 : 1) },
                .branch(
                    { fits.value },
                    [
                        .step("write tail") {
                            queue.slots[t.value & queue.mask] = item
                            tail.write(t.value + 1)
                        }
                    ],
                    [
                        // SyncPush
                        .lock(lock),
                        .step("read head") { h.value = head.read() },
                        .step("read tail") { count.value = tail.read() - h.value },
                        .step("write head") {
                            h.value &= queue.mask
                            head.write(h.value)
                        },
                        .step("write tail") {
                            tail.write(h.value + count.value)
                            if count.value >= queue.mask { queue.grow(head: h.value, count: count.value) }
                        },
                        .branch(
                            { queue.grew },
                            [
                                .step("write head") { head.write(0) },
                                .step("write tail") {
                                    tail.write(count.value)
                                    queue.grew = false
                                },
                            ], []),
                        .step("read tail") { t.value = tail.read() },
                        .step("write tail") {
                            queue.slots[t.value & queue.mask] = item
                            tail.write(t.value + 1)
                        },
                        .unlock(lock),
                    ]),
            ]
        }

        func pop(_ taken: Box<Int?>) -> [BenchOp] {
            let t = Box(0)
            let ok = Box(false)
            return [
                .local { taken.value = nil },
                .step("read tail") { t.value = tail.read() - 1 },
                .step("write tail") { tail.write(t.value) },
                .step("read head") {
                    ok.value = head.read() <= t.value
                    if ok.value { taken.value = queue.slots[t.value & queue.mask] }
                },
                .branch(
                    { !ok.value },
                    [
                        .step("write tail") { tail.write(t.value + 1) },
                        // SyncPop
                        .lock(lock),
                        .step("read tail") { t.value = tail.read() - 1 },
                        .step("write tail") { tail.write(t.value) },
                        .step("read head") {
                            if head.read() <= t.value { taken.value = queue.slots[t.value & queue.mask] }
                        },
                        .branch(
                            { taken.value == nil }, [.step("write tail") { tail.write(t.value + 1) }], []),
                        .step("read head") { ok.value = head.read() > t.value },
                        .branch(
                            { ok.value },
                            [
                                .step("write head") { head.write(0) },
                                .step("write tail") {
                                    tail.write(0)
                                    taken.value = nil
                                },
                            ], []),
                        .unlock(lock),
                    ], []),
            ]
        }

        var stealerThreads: [BenchThread] = []
        for index in 0..<stealers {
            let taken = Box<Int?>(nil)
            let round = Box(0)
            stealerThreads.append(
                program.thread("stealer.\(index)") {
                    Op.repeatWhile({ round.value < attempts }) {
                        Op.seq(steal(taken))
                        operate(taken)
                        Op.local { round.value += 1 }
                    }
                })
        }
        let taken = Box<Int?>(nil)
        program.main {
            for thread in stealerThreads { Op.spawn(thread) }
            for pair in 0..<(items / 2) {
                Op.seq(push(2 * pair))
                Op.seq(push(2 * pair + 1))
                Op.seq(pop(taken))
                operate(taken)
            }
            for _ in 0..<(items / 2) {
                Op.seq(pop(taken))
                operate(taken)
            }
            for thread in stealerThreads { Op.join(thread) }
            Op.step("read item") {
                for (index, item) in field.enumerated() {
                    let seen = item.read()
                    program.check(seen == 1, "item \(index) was operated on \(seen) times")
                }
            }
        }
    }
}

/// The queue's slot array and mask (plain memory in the original: not scheduling points).
private final class Ring {
    var slots: [Int?]
    var mask: Int
    /// `SyncPush` grew the array and must reset `head` and `tail`.
    var grew = false

    init(size: Int) {
        slots = Array(repeating: nil, count: size)
        mask = size - 1
    }

    func grow(head: Int, count: Int) {
        let size = 2 * (mask + 1)
        var fresh = [Int?](repeating: nil, count: size)
        for i in 0..<count { fresh[i] = slots[(head + i) & mask] }
        slots = fresh
        mask = size - 1
        grew = true
    }
}
