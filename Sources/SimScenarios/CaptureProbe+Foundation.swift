import Dispatch
import Foundation
import SimCapture
import SimCore

/// The Foundation variants of the capture probe (issue #40): a `Thread` that hops back to the main
/// queue, run-loop timers and blocks, `NotificationCenter`, and a serial `OperationQueue` — each
/// written the way app code does, each checking that its code ran inside the run, on the lane its
/// identity says, at the virtual time asked for.
extension CaptureProbe {
    /// The Foundation rows of the matrix. A `Thread` is a carrier of the run only on carriers
    /// (`--preempt`): on the one-thread path every route reports it (`stays-in-simulation`), never
    /// passes it. Run-loop work goes to the run where the interposition layer is (Linux).
    static let foundationConstructs: [Construct] = {
        let runLoops = RunLoopCapturing.isActive
        let gcd = DispatchCapturing.isActive
        return [
            ("thread", "a Thread whose work hops back with DispatchQueue.main.async", false, false, false, false),
            (
                "runloop-timer", "Timer.scheduledTimer on the main run loop, fired 250 ms later", runLoops && gcd,
                runLoops && gcd, runLoops && gcd, false
            ),
            ("runloop-perform", "RunLoop.main.perform {} from the body", runLoops, runLoops, runLoops, false),
            (
                "notification-center", "NotificationCenter: an observer block, posted from a global queue's block",
                gcd, gcd, gcd, false
            ),
            (
                "operation-queue", "OperationQueue, maxConcurrentOperationCount 1: addOperation blocks in order", gcd,
                gcd, gcd, false
            ),
        ]
    }()

    static func foundationProbe(_ variant: String, _ sim: SimulationRef, _ log: ProbeLog) async -> Bool {
        switch variant {
        case "thread":
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                Thread {
                    log.expect(sim, lanePrefix: "thread>")
                    DispatchQueue.main.async {
                        log.expect(sim, lanePrefix: "main")
                        continuation.resume()
                    }
                }.start()
            }
        case "runloop-timer":
            // Scheduled from a main-queue block, as a view model does: the current run loop is main's.
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                DispatchQueue.main.async {
                    _ = Timer.scheduledTimer(withTimeInterval: 0.25, repeats: false) { _ in
                        log.expect(sim, lanePrefix: "main", at: .milliseconds(250))
                        continuation.resume()
                    }
                }
            }
        case "runloop-perform":
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                RunLoop.main.perform {
                    log.expect(sim, lanePrefix: "main")
                    continuation.resume()
                }
            }
        case "notification-center":
            let name = Notification.Name("simrun.capture-probe")
            let center = NotificationCenter()
            let seen = OrderLog()
            let observer = center.addObserver(forName: name, object: nil, queue: nil) { _ in
                // Delivered on the posting thread, inside the posting block's job.
                log.expect(sim, lanePrefix: "global:")
                seen.append(1)
            }
            await onQueue(.global()) { center.post(name: name, object: nil) }
            center.removeObserver(observer)
            if seen.values != [1] { log.note("the observer saw \(seen.values.count) posts of 1") }
        case "operation-queue":
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let order = OrderLog()
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                for index in 0..<3 {
                    queue.addOperation {
                        log.expect(sim, lanePrefix: "")
                        order.append(index)
                    }
                }
                queue.addOperation { continuation.resume() }
            }
            if order.values != [0, 1, 2] { log.note("a serial OperationQueue ran its operations as \(order.values)") }
        default:
            return false
        }
        return true
    }
}
