import SimCore
import SimModels
import SimTestSupport
import Testing

/// The canceler rule of congncif/boardy `Boardy/ComponentKit/BlockTaskBoard.swift` (1.61+:
/// `TaskStore.installCanceler`, `cancelPendingTasksIfNeeded`, `DirectCancelerState`; the change is
/// described in `docs/MIGRATING_TO_1.61.md`, "BlockTaskBoard.latest and BlockTaskBoard deinit
/// actually cancel in-flight tasks now").
@Suite struct BlockTaskCancelerTests {
    /// A parameter whose handlers append to `log`, tagged with the task's input.
    private func parameter(_ tag: String, _ log: ValueBox<[String]>) -> BlockTaskParameter {
        BlockTaskParameter(.text(tag))
            .onSuccess { log.value.append("success\(tag):\($0)") }
            .onProgress { log.value.append("processing\(tag):\($0)") }
            .onCompletion { log.value.append("completion\(tag):\($0)") }
    }

    /// An executor that replies 10 ms later on `bg` and returns a canceler logging `cancel<input>`.
    private func delayedExecutor(_ sim: Simulation, _ log: ValueBox<[String]>) -> BlockTaskBoard.CancelableExecutor {
        { input, done in
            sim.after(.milliseconds(10), on: sim.lane("bg"), "work.reply") { done(.success(input)) }
            let tag = input.text ?? "?"
            return BlockTaskCanceler { log.value.append("cancel\(tag)") }
        }
    }

    @Test func latestCallsTheRunningTasksCancelerBeforeDeliveringItsCancellation() {
        let log = ValueBox<[String]>([])
        let board = ValueBox<BlockTaskBoard?>(nil)
        _ = simulate { sim in
            let made = BlockTaskBoard.cancelable(
                "work", sim: sim, executingType: .latest, executor: delayedExecutor(sim, log))
            board.value = made
            sim.post(on: "main", "first") { made.activate(withOption: .block(parameter("1", log))) }
            // Runs after the operation started task 1 and before its reply.
            sim.after(.milliseconds(5), on: sim.lane("main"), "second") {
                made.activate(withOption: .block(parameter("2", log)))
            }
        }
        let cancel = log.value.firstIndex(of: "cancel1")
        let completion = log.value.firstIndex(of: "completion1:cancelled")
        #expect(cancel != nil && completion != nil && cancel! < completion!, "\(log.value)")
        #expect(board.value?.cancelersCalled == [1])
        #expect(!log.value.contains("success1:1"), "the cancelled task's late reply is ignored")
        #expect(log.value.contains("success2:2") && !log.value.contains("cancel2"))
    }

    @Test func cancellingCallsStartedTasksCancelersOnlyAndCancelsWaitingOnesToo() {
        let log = ValueBox<[String]>([])
        let board = ValueBox<BlockTaskBoard?>(nil)
        _ = simulate { sim in
            let made = BlockTaskBoard.cancelable(
                "work", sim: sim, executingType: .queue, executor: delayedExecutor(sim, log))
            board.value = made
            sim.post(on: "main", "taps") {
                made.activate(withOption: .block(parameter("1", log)))
                made.activate(withOption: .block(parameter("2", log)))
                made.cancelPendingTasks()
            }
        }
        #expect(board.value?.cancelersCalled == [1], "task 2 never started, so it has no canceler")
        #expect(log.value.contains("completion1:cancelled") && log.value.contains("completion2:cancelled"))
        #expect(board.value?.started == 1 && board.value?.finished == 0)
    }

    @Test func aTaskCancelledBeforeItsExecutorReturnedIsCancelledOnReturn() {
        let log = ValueBox<[String]>([])
        let board = ValueBox<BlockTaskBoard?>(nil)
        _ = simulate { sim in
            let made = BlockTaskBoard.cancelable("work", sim: sim) { input, done in
                // The board is torn down while the executor is still setting up its work.
                board.value?.cancelPendingTasks()
                log.value.append("executor returns")
                sim.after(.milliseconds(10), on: sim.lane("bg"), "work.reply") { done(.success(input)) }
                return BlockTaskCanceler { log.value.append("cancel") }
            }
            board.value = made
            sim.post(on: "main", "tap") { made.activate(withOption: .block(parameter("1", log))) }
        }
        #expect(
            log.value == [
                "processing1:true", "processing1:false", "completion1:cancelled", "executor returns", "cancel",
            ])
        #expect(board.value?.cancelersCalled == [1])
    }

    @Test func aTaskThatFinishedBeforeItsExecutorReturnedDropsItsCanceler() {
        let log = ValueBox<[String]>([])
        let board = ValueBox<BlockTaskBoard?>(nil)
        _ = simulate { sim in
            let made = BlockTaskBoard.cancelable("work", sim: sim) { input, done in
                done(.success(input))
                return BlockTaskCanceler { log.value.append("cancel") }
            }
            board.value = made
            sim.post(on: "main", "tap") {
                made.activate(withOption: .block(parameter("1", log)))
                made.cancelPendingTasks()
            }
        }
        #expect(!log.value.contains("cancel"))
        #expect(board.value?.cancelersCalled == [])
        #expect(log.value.contains("completion1:done"))
    }

    @Test func aNoneCancelerIsNeverRecorded() {
        let board = ValueBox<BlockTaskBoard?>(nil)
        _ = simulate { sim in
            let made = BlockTaskBoard.cancelable("work", sim: sim, executingType: .queue) { input, done in
                sim.after(.milliseconds(10), on: sim.lane("bg"), "work.reply") { done(.success(input)) }
                return .none
            }
            board.value = made
            sim.post(on: "main", "tap") {
                made.activate(withOption: .block(BlockTaskParameter(.text("1"))))
                made.cancelPendingTasks()
            }
        }
        #expect(board.value?.cancelled == 1)
        #expect(board.value?.cancelersCalled == [])
    }
}
