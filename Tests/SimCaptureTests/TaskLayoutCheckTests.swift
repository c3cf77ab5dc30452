import CSimInterpose
import SimTestSupport
import Testing

@testable import SimCapture
@testable import SimCore

/// CSimInterpose/task_state.c reads the runtime's private task layout, written for one Swift runtime:
/// on another it refuses (the version check), and a read that holds what no task can turns reading
/// off (the run-time check), each with one line, never a hang report built from garbage. The
/// versions and the task objects are given here, so the tests hold whatever toolchain runs them.
@Suite struct TaskLayoutCheckTests {
    private func refusal(writtenFor: UInt32, running: UInt32) -> String? {
        var line = [CChar](repeating: 0, count: 256)
        guard simrun_task_layout_refusal(writtenFor, running, &line, Int32(line.count)) == 1 else { return nil }
        return String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func aRuntimeOfAnotherVersionIsRefusedInOneLine() {
        #expect(refusal(writtenFor: 0x06_03_00, running: 0x06_03_00) == nil)
        #expect(
            refusal(writtenFor: 0x06_03_00, running: 0x06_04_00)
                == "task objects are not read: the Swift runtime is 6.4.0, task_state.c reads the layout of 6.3.0")
        #expect(
            refusal(writtenFor: 0x06_03_00, running: 0x06_02_00)
                == "task objects are not read: the Swift runtime is 6.2.0, task_state.c reads the layout of 6.3.0")
        #expect(
            refusal(writtenFor: 0x06_03_00, running: 0)
                == "task objects are not read: the Swift runtime does not say its version "
                + "(task_state.c reads the layout of 6.3.0)")
    }

    /// Whatever the runtime, reading and refusing agree: tasks are read, or the report says why not.
    @Test func readingAndItsRefusalAgree() {
        if simrun_task_state_readable() == 1 {
            #expect(simrun_task_state_refusal() == nil)
            #expect(simrun_task_runtime_version() != 0)
        } else {
            #expect(!TaskCensus.notVisible.isEmpty)
        }
    }

    #if os(Linux) && (arch(x86_64) || arch(arm64))
        /// A fake task object: job flags at 32, resume function at 56, resume context at 64, status
        /// flags at 96, innermost status record at 104 (the layout the file reads), with one record.
        final class FakeTask {
            let task = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 16)
            let record = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
            let context = UnsafeMutableRawPointer.allocate(byteCount: 32, alignment: 16)

            init(statusFlags: UInt32, dependencyKind: UInt32, jobKind: UInt32 = 0) {
                task.initializeMemory(as: UInt8.self, repeating: 0, count: 256)
                record.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
                context.initializeMemory(as: UInt8.self, repeating: 0, count: 32)
                task.storeBytes(of: jobKind, toByteOffset: 32, as: UInt32.self)
                task.storeBytes(of: UInt(0x1000), toByteOffset: 56, as: UInt.self)
                task.storeBytes(of: UInt(bitPattern: context), toByteOffset: 64, as: UInt.self)
                task.storeBytes(of: statusFlags, toByteOffset: 96, as: UInt32.self)
                task.storeBytes(of: UInt(bitPattern: record), toByteOffset: 104, as: UInt.self)
                record.storeBytes(of: UInt(0x2000), toByteOffset: 16, as: UInt.self)
                record.storeBytes(of: dependencyKind, toByteOffset: 32, as: UInt32.self)
                context.storeBytes(of: UInt(0x3000), toByteOffset: 8, as: UInt.self)
            }

            deinit {
                task.deallocate()
                record.deallocate()
                context.deallocate()
            }

            /// Reads it with the check and nothing else: the problem line, or nil.
            func read(into state: inout simrun_task_state) -> String? {
                var line = [CChar](repeating: 0, count: 256)
                guard simrun_task_read_checked(task, 1, &state, &line, Int32(line.count)) == 1 else { return nil }
                return String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }

        static let dependency: UInt32 = 0x4000

        @Test func aTaskWaitingOnAContinuationReadsAsOne() {
            let fake = FakeTask(statusFlags: Self.dependency, dependencyKind: 2)
            var state = simrun_task_state()
            #expect(fake.read(into: &state) == nil)
            #expect(state.wait == simrun_task_wait_continuation)
            #expect(state.waiting_on == UnsafeRawPointer(bitPattern: 0x2000))
            #expect(state.frame_count == 2, "the resume function, then the context's ResumeParent")
        }

        @Test(arguments: [
            (UInt32(0x4000), UInt32(9), UInt32(0), 0, "it depends on something of no known kind"),
            (UInt32(0x4000), UInt32(2), UInt32(3), 0, "its job kind is not a task's"),
            (UInt32(0x4000), UInt32(2), UInt32(0), 1, "its status record is misaligned"),
            (UInt32(0), UInt32(0), UInt32(0), 2, "an async context of it is misaligned"),
        ])
        func anImpossibleReadIsRefusedAndLeavesNothingRead(
            flags: UInt32, kind: UInt32, jobKind: UInt32, misaligned: Int, why: String
        ) {
            let fake = FakeTask(statusFlags: flags, dependencyKind: kind, jobKind: jobKind)
            if misaligned == 1 {
                fake.task.storeBytes(of: UInt(bitPattern: fake.record) + 4, toByteOffset: 104, as: UInt.self)
            } else if misaligned == 2 {
                fake.task.storeBytes(of: UInt(bitPattern: fake.context) + 4, toByteOffset: 64, as: UInt.self)
            }
            var state = simrun_task_state()
            #expect(fake.read(into: &state) == "task objects are not read: a task reads as no Swift 6.3.0 task does (\(why))")
            #expect(state.wait == simrun_task_wait_unknown && state.waiting_on == nil && state.frame_count == 0)
            #expect(state.running == 0 && state.enqueued == 0 && state.complete == 0)
        }

        /// In a process of its own (it turns reading off for the process): a read of a task that holds
        /// what none can is said on stderr once, reading stops, and a hang report says why instead of
        /// naming tasks.
        @Test func anImpossibleReadTurnsReadingOffAndTheHangReportSaysWhy() async {
            let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let fake = FakeTask(statusFlags: 0x4000, dependencyKind: 9)
                var state = simrun_task_state()
                simrun_task_read(fake.task, 1, &state)
                precondition(simrun_task_state_readable() == 0, "reading is still on")
                let why = simrun_task_state_refusal().map { String(cString: $0) } ?? ""
                precondition(why.hasPrefix("task objects are not read: "), "refusal: \(why)")
                precondition(TaskCensus.notVisible == "suspended tasks: not visible here (\(why))", TaskCensus.notVisible)
                precondition(state.wait == simrun_task_wait_unknown && state.frame_count == 0, "a state was read")
            }
            expectStandardError(result, contains: "simrun: task objects are not read: ")
        }
    #endif
}
