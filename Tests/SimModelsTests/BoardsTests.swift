import SimCore
import SimModels
import SimTestSupport
import Testing

/// A motherboard the app holds for the whole run (boards refer to it weakly, as in Boardy).
private func makeMotherboard(_ sim: Simulation, detaches: Bool = true) -> Motherboard {
    let motherboard = Motherboard(sim: sim, detachesRemovedBoards: detaches)
    sim.atEnd("app-holds-motherboard") { withExtendedLifetime(motherboard) { nil } }
    return motherboard
}

@Suite struct BoardsTests {
    // MARK: TaskBoard

    @Test func taskBoardDropsAnActivationWhileATaskRuns() {
        let board = ValueBox<TaskBoard?>(nil)
        let outputs = ValueBox<[String]>([])
        let result = simulate { sim in
            let mb = makeMotherboard(sim)
            let task = TaskBoard(
                "fetch", sim: sim,
                executor: BoardExecutor.timed(
                    sim, lane: "network", delay: .milliseconds(100), site: "fetch", canFail: false))
            board.value = task
            mb.installBoard(task)
            mb.registerFlow("log", from: "fetch") { outputs.value.append($0.description) }
            sim.post(on: "main", "tap") {
                mb.activate("fetch", .value(.text("a")))
                mb.activate("fetch", .value(.text("b")))
            }
        }
        #expect(result.verdict == .pass)
        #expect(board.value?.started == 1)
        #expect(board.value?.dropped == 1)
        #expect(outputs.value == ["a"])
    }

    @Test func taskBoardCompletesOnceWhenTheExecutorCompletesTwice() {
        for detaches in [true, false] {
            let outputs = ValueBox(0)
            let completions = ValueBox(0)
            _ = simulate { sim in
                let mb = makeMotherboard(sim, detaches: detaches)
                mb.installBoard(
                    TaskBoard("pay", sim: sim) { input, done in
                        sim.post(on: "network", "pay.reply") {
                            done(.success(input))
                            done(.success(input))
                        }
                    })
                mb.registerFlow("count", from: "pay") { _ in outputs.value += 1 }
                mb.registerCompletionFlow("done", from: "pay") { _ in completions.value += 1 }
                sim.post(on: "main", "tap") { mb.activate("pay", .value(.text("1"))) }
            }
            #expect(completions.value == 1)
            // Boardy ≥ 1.63 detaches a removed board: its second output reaches no flow.
            #expect(outputs.value == (detaches ? 1 : 2), "detaches: \(detaches)")
        }
    }

    // MARK: Motherboard

    @Test func defaultFlowsRemoveACompletingBoardBeforeUserFlowsSeeIt() {
        let installedWhenSeen = ValueBox<[Bool]>([])
        let names = ValueBox<[String]>([])
        _ = simulate { sim in
            let mb = makeMotherboard(sim)
            mb.installBoard(
                TaskBoard(
                    "job", sim: sim,
                    executor: BoardExecutor.timed(sim, lane: "bg", delay: .milliseconds(5), site: "job", canFail: false)
                ))
            mb.registerCompletionFlow("after", from: "job") { _ in installedWhenSeen.value.append(mb.isInstalled("job"))
            }
            names.value = mb.flowNames
            sim.post(on: "main", "go") { mb.activate("job") }
        }
        #expect(names.value == ["default.activation", "default.completion", "after"])
        #expect(installedWhenSeen.value == [false])
    }

    @Test func outputFlowsRunInRegistrationOrder() {
        let order = ValueBox<[String]>([])
        _ = simulate { sim in
            let mb = makeMotherboard(sim)
            let flow = FlowBoard("flow", sim: sim, registration: { _ in order.value.append("registered") }) {
                board, input in
                board.sendOutput(input, in: sim)
            }
            mb.installBoard(flow)
            mb.registerFlow("first", from: "flow") { _ in order.value.append("first") }
            mb.registerFlow("any", from: nil) { _ in order.value.append("any") }
            mb.registerFlow("third", from: "flow") { _ in order.value.append("third") }
            sim.post(on: "main", "go") {
                mb.activate("flow", .value(.text("x")))
                mb.activate("flow", .value(.text("y")))
            }
        }
        #expect(order.value == ["registered", "first", "any", "third", "first", "any", "third"])
    }

    // MARK: BarrierBoard

    @Test func barrierRunsWaitersInOrderOnOvercomeThenCompletes() {
        let ran = ValueBox<[String]>([])
        let completion = ValueBox<[Bool]>([])
        _ = simulate { sim in
            let mb = makeMotherboard(sim)
            mb.registerProducer("auth") { BarrierBoard("auth", sim: sim) }
            mb.registerCompletionFlow("auth.done", from: "auth") { completion.value.append($0) }
            sim.post(on: "main", "waits") {
                for name in ["a", "b", "c"] {
                    mb.activate("auth", .barrier(.wait { ran.value.append("\(name):\($0)") }))
                }
            }
            sim.post(on: "main", "login") { mb.activate("auth", .barrier(.overcome(.text("u")))) }
        }
        #expect(ran.value == ["a:u", "b:u", "c:u"])
        #expect(completion.value == [true])
    }

    @Test func barrierCancelDropsItsWaiters() {
        let ran = ValueBox(0)
        let barrier = ValueBox<BarrierBoard?>(nil)
        let completion = ValueBox<[Bool]>([])
        _ = simulate { sim in
            let mb = makeMotherboard(sim)
            let board = BarrierBoard("auth", sim: sim)
            barrier.value = board
            mb.installBoard(board)
            mb.registerCompletionFlow("auth.done", from: "auth") { completion.value.append($0) }
            sim.post(on: "main", "waits") {
                mb.activate("auth", .barrier(.wait { _ in ran.value += 1 }))
                mb.activate("auth", .barrier(.wait { _ in ran.value += 1 }))
            }
            sim.post(on: "main", "close") { mb.activate("auth", .barrier(.cancel)) }
        }
        #expect(ran.value == 0)
        #expect(barrier.value?.dropped == 2)
        #expect(completion.value == [false])
    }

    @Test func aWaitAfterOvercomeStartsANewBarrier() {
        let barriers = ValueBox<[BarrierBoard]>([])
        let ran = ValueBox<[String]>([])
        _ = simulate { sim in
            let mb = makeMotherboard(sim)
            mb.registerProducer("auth") {
                let board = BarrierBoard("auth", sim: sim)
                barriers.value.append(board)
                return board
            }
            sim.post(on: "main", "first") {
                mb.activate("auth", .barrier(.wait { _ in ran.value.append("first") }))
                mb.activate("auth", .barrier(.overcome(.text("u"))))
            }
            sim.post(on: "main", "second") { mb.activate("auth", .barrier(.wait { _ in ran.value.append("second") })) }
        }
        #expect(barriers.value.count == 2)
        #expect(ran.value == ["first"])
        #expect(barriers.value.last?.waiterCount == 1)
    }

    @Test func aWaitLandingBetweenOvercomesReadAndClearIsLostUnderSomeSchedule() {
        var lostRuns = 0
        var cleanRuns = 0
        for seed in 0..<200 as Range<UInt64> {
            let barrier = ValueBox<BarrierBoard?>(nil)
            let ran = ValueBox(0)
            _ = simulate(seed: seed, strategy: RandomStrategy()) { sim in
                let mb = makeMotherboard(sim)
                let board = BarrierBoard("auth", sim: sim)
                barrier.value = board
                mb.installBoard(board)
                // The login result arrives on a network thread; the tap on main.
                sim.post(on: "network", "login.ok") { mb.activate("auth", .barrier(.overcome(.text("u")))) }
                sim.post(on: "main", "tap") { mb.activate("auth", .barrier(.wait { _ in ran.value += 1 })) }
            }
            guard let board = barrier.value else { continue }
            if board.lost > 0 { lostRuns += 1 }
            if ran.value == 1 { cleanRuns += 1 }
            #expect(
                board.lost + ran.value + board.waiterCount == board.waitCount,
                "seed \(seed): a wait is run, lost, or still held")
        }
        #expect(lostRuns > 0)
        #expect(cleanRuns > 0)
    }

    // MARK: BlockTaskBoard

    /// Activates `count` tasks on a block task board with `policy`; task k takes (count - k + 1) × 10 ms.
    private func runBlockTasks(_ policy: ExecutingType, count: Int = 3)
        -> (log: [String], board: BlockTaskBoard?, completions: Int)
    {
        let log = ValueBox<[String]>([])
        let board = ValueBox<BlockTaskBoard?>(nil)
        let completions = ValueBox(0)
        _ = simulate { sim in
            let mb = makeMotherboard(sim)
            let made = BlockTaskBoard("work", sim: sim, executingType: policy) { input, done in
                let number = Int(input.text ?? "") ?? 0
                sim.after(.milliseconds(Int64((count - number + 1) * 10)), on: sim.lane("bg"), "work.reply") {
                    done(.success(input))
                }
            }
            board.value = made
            mb.installBoard(made)
            mb.registerFlow("out", from: "work") { log.value.append("output:\($0)") }
            mb.registerCompletionFlow("done", from: "work") { _ in completions.value += 1 }
            sim.post(on: "main", "taps") {
                for number in 1...count {
                    let parameter = BlockTaskParameter(.text("\(number)"))
                        .onSuccess { log.value.append("success:\($0)") }
                        .onProgress { log.value.append("processing\(number):\($0)") }
                        .onError { _ in log.value.append("error\(number)") }
                        .onCompletion { log.value.append("completion\(number):\($0)") }
                    mb.activate("work", .block(parameter))
                }
            }
        }
        return (log.value, board.value, completions.value)
    }

    @Test func blockTaskDefaultRunsEveryActivationAtOnce() {
        let (log, board, completions) = runBlockTasks(.default)
        #expect(board?.peakRunning == 3)
        #expect(log.filter { $0.hasPrefix("success") } == ["success:3", "success:2", "success:1"])
        #expect(completions == 1)
    }

    @Test func blockTaskOnlyRejectsWhileOneRuns() {
        let (log, board, _) = runBlockTasks(.only)
        #expect(board?.rejected == 2)
        #expect(log.contains("completion2:cancelled"))
        #expect(!log.contains("processing2:true"), "a rejected activation gets only its completion")
        #expect(log.filter { $0.hasPrefix("success") } == ["success:1"])
    }

    @Test func blockTaskQueueRunsOneAtATimeInOrder() {
        let (log, board, completions) = runBlockTasks(.queue)
        #expect(board?.peakRunning == 1)
        #expect(log.filter { $0.hasPrefix("success") } == ["success:1", "success:2", "success:3"])
        #expect(completions == 1)
    }

    /// congncif/boardy `Boardy/ComponentKit/BlockTaskBoard.swift`, `ExecutingType.onlyResult`: "The
    /// first result will be returned for all pending tasks, the input of the pending tasks after
    /// current task may be not used."
    @Test func blockTaskOnlyResultRunsOnceAndGivesItsResultToEveryActivation() {
        let (log, board, completions) = runBlockTasks(.onlyResult)
        #expect(board?.started == 1 && board?.finished == 1 && board?.peakRunning == 1)
        #expect(log.filter { $0.hasPrefix("success") } == ["success:1", "success:1", "success:1"])
        #expect(
            log.filter { $0.hasPrefix("completion") } == ["completion1:done", "completion2:done", "completion3:done"])
        #expect(completions == 1)
    }

    @Test func blockTaskLatestCancelsEarlierActivations() {
        let (log, board, _) = runBlockTasks(.latest)
        #expect(board?.cancelled == 2)
        #expect(log.contains("completion1:cancelled") && log.contains("completion2:cancelled"))
        #expect(log.filter { $0.hasPrefix("success") } == ["success:3"])
    }

    @Test func blockTaskConcurrentRespectsItsLimit() {
        let (log, board, _) = runBlockTasks(.concurrent(max: 2), count: 4)
        #expect(board?.peakRunning == 2)
        #expect(log.filter { $0.hasPrefix("success") }.count == 4)
    }

    @Test func blockTaskFinishOrderIsResultOutputProcessingCompletion() {
        let (log, _, _) = runBlockTasks(.default, count: 1)
        #expect(log == ["processing1:true", "success:1", "output:1", "processing1:false", "completion1:done"])
    }

    // MARK: ResultTaskBoard

    @Test func resultTaskBoardBundlesProgressAndOneTerminalResult() {
        let outputs = ValueBox<[String]>([])
        let board = ValueBox<ResultTaskBoard?>(nil)
        _ = simulate { sim in
            let mb = makeMotherboard(sim)
            let made = ResultTaskBoard("upload", sim: sim) { _, report in
                sim.post(on: "bg", "upload.progress") { report(.progress(50)) }
                sim.post(on: "bg", "upload.done") {
                    report(.success("ok"))
                    report(.failure("late"))
                }
            }
            board.value = made
            mb.installBoard(made)
            mb.registerFlow("out", from: "upload") { outputs.value.append($0.description) }
            sim.post(on: "main", "go") {
                mb.activate("upload", .value(.text("f")))
                mb.activate("upload", .value(.text("g")))
            }
        }
        #expect(outputs.value == ["progress:50", "success:ok"])
        #expect(board.value?.dropped == 1)
    }

    // MARK: Many seeds

    @Test func boardInvariantsHoldForManyRandomSeeds() {
        for seed in 0..<200 as Range<UInt64> {
            let result = simulate(seed: seed, strategy: RandomStrategy()) { sim in
                let mb = makeMotherboard(sim)
                let active = ValueBox(0)
                let task = TaskBoard(
                    "task", sim: sim,
                    executor: BoardExecutor.timed(sim, lane: "network", delay: .milliseconds(20), site: "task"),
                    onProcessing: { active.value += $0 ? 1 : -1 })
                let queue = BlockTaskBoard(
                    "queue", sim: sim, executingType: .queue,
                    executor: BoardExecutor.timed(sim, lane: "db", delay: .milliseconds(10), site: "queue"))
                let barrier = BarrierBoard("gate", sim: sim)
                mb.installBoard(task)
                mb.installBoard(queue)
                mb.installBoard(barrier)
                let barrierRuns = ValueBox(0)
                let blockEnds = ValueBox(0)
                for index in 0..<3 {
                    sim.after(.milliseconds(Int64(sim.choose(3, "tap.delay") * 10)), on: sim.lane("main"), "tap") {
                        mb.activate("task", .value(.text("\(index)")))
                        mb.activate(
                            "queue",
                            .block(BlockTaskParameter(.text("\(index)")).onCompletion { _ in blockEnds.value += 1 }))
                        mb.activate("gate", .barrier(.wait { _ in barrierRuns.value += 1 }))
                    }
                }
                sim.after(.milliseconds(Int64(sim.choose(4, "overcome.delay") * 10)), on: sim.lane("network"), "open") {
                    mb.activate("gate", .barrier(.overcome(.text("v"))))
                }
                sim.always("task-board-one-at-a-time") {
                    (0...1).contains(active.value) ? nil : "\(active.value) tasks at once"
                }
                sim.always("queue-runs-one") { queue.peakRunning <= 1 ? nil : "queue ran \(queue.peakRunning) at once" }
                sim.atEnd("every-wait-accounted") {
                    barrier.ran + barrier.lost + barrier.waiterCount == barrier.waitCount
                        ? nil
                        : "ran \(barrier.ran) lost \(barrier.lost) held \(barrier.waiterCount) of \(barrier.waitCount)"
                }
                sim.atEnd("every-block-activation-ends") {
                    blockEnds.value == 3 || !mb.isInstalled("queue") && blockEnds.value <= 3
                        ? nil : "ended \(blockEnds.value)"
                }
                sim.atEnd("task-slot-released") { task.isProcessing ? "task still processing" : nil }
            }
            #expect(result.verdict == .pass, "seed \(seed): \(result.verdict)")
        }
    }
}

/// congncif/boardy `Boardy/Core/Utils/Locked.swift`: in DEBUG builds `boardyAssertMainThread()`
/// asserts that motherboard storage (boards, flows) only changes on the main thread.
@Suite struct BoardyMainThreadTests {
    private func removeOn(_ lane: String, checks: Bool) -> RunResult {
        let sim = Simulation(seed: 0, strategy: FIFOStrategy())
        let motherboard = Motherboard(sim: sim, checksMainThread: checks)
        motherboard.registerFlow("log", from: nil) { _ in }  // set-up code counts as main
        sim.post(on: lane, "complete") { motherboard.removeBoard("payment") }
        return sim.run()
    }

    @Test func aDebugBuildFailsARemovalOffTheMainThread() {
        guard case .fail(let oracle, _) = removeOn("network", checks: true).verdict else {
            Issue.record("expected boardy.main-thread")
            return
        }
        #expect(oracle == "boardy.main-thread")
    }

    @Test func onMainOrInAReleaseBuildARemovalPasses() {
        #expect(removeOn("main", checks: true).verdict == .pass)
        #expect(removeOn("network", checks: false).verdict == .pass)
    }
}
