import SimCore

/// SCTBench `CS.bluetooth_driver_bad` (SV-COMP, after Qadeer and Wu's KISS example): a device's
/// pending-I/O count guarded by an atomic section, a stop thread that sets `stoppingFlag` and
/// releases its reference, and an add path that checks the flag before taking a reference. The flag
/// check and the increment are not atomic together, so the driver can be stopped while the add path
/// still works on it (`assert(!stopped)` fails).
enum BluetoothDriverBad {
    static let scenario = SCTBench.benchmark(
        "bluetooth_driver_bad", origin: "SCTBench CS/bluetooth_driver_bad.c",
        summary: "stop races with an I/O that checked the stopping flag first; the device is used stopped"
    ) { program in
        let sim = program.simulation
        let atomic = program.mutex("atomic")
        let pendingIo = sim.shared("pendingIo", 1)
        let stoppingFlag = sim.shared("stoppingFlag", false)
        let stoppingEvent = sim.shared("stoppingEvent", false)
        let stopped = sim.shared("stopped", false)

        /// `BCSP_IoDecrement`: the decrement under the atomic section, then the event if it hit 0.
        func decrement(_ left: Box<Int>) -> [BenchOp] {
            [
                Op.lock(atomic),
                Op.step("write pendingIo") {
                    pendingIo.write(pendingIo.read() - 1)
                    left.value = pendingIo.read()
                },
                Op.unlock(atomic),
                .branch({ left.value == 0 }, [.step("write stoppingEvent") { stoppingEvent.write(true) }], []),
            ]
        }

        let stopLeft = Box(0)
        let event = Box(false)
        let stop = program.thread("BCSP_PnpStop") {
            Op.step("write stoppingFlag") { stoppingFlag.write(true) }
            Op.seq(decrement(stopLeft))
            Op.step("read stoppingEvent") { event.value = stoppingEvent.read() }
            Op.when({ event.value }) {
                Op.step("write stopped") { stopped.write(true) }
            }
        }
        let addLeft = Box(0)
        let flag = Box(false)
        program.main {
            Op.spawn(stop)
            // BCSP_PnpAdd: BCSP_IoIncrement, the work, BCSP_IoDecrement.
            Op.step("read stoppingFlag") { flag.value = stoppingFlag.read() }
            Op.when({ !flag.value }) {
                Op.lock(atomic)
                Op.step("write pendingIo") { pendingIo.write(pendingIo.read() + 1) }
                Op.unlock(atomic)
                Op.step("read stopped") { program.check(!stopped.read(), "the driver was stopped while in use") }
            }
            Op.seq(decrement(addLeft))
            Op.join(stop)
        }
    }
}
