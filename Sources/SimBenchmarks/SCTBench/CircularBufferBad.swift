import SimCore

/// SCTBench `CS.circular_buffer_bad` (SV-COMP): a sender and a receiver alternate through `send` and
/// `receive` flags under `m`, seven rounds each. The receiver asserts that the element it removes
/// equals its own round number, which breaks when one of its rounds found nothing to receive.
enum CircularBufferBad {
    static let scenario = SCTBench.benchmark(
        "circular_buffer_bad", origin: "SCTBench CS/circular_buffer_bad.c",
        summary: "sender and receiver alternate by flags; a skipped receiver round misnumbers the buffer"
    ) { program in
        let sim = program.simulation
        let m = program.mutex("m")
        let rounds = 7
        let bufferSize = 10
        var buffer = [Int](repeating: 0, count: bufferSize)
        var first = 0
        var next = 0
        let send = sim.shared("send", true)
        let receive = sim.shared("receive", false)

        let sentRound = Box(0)
        let sender = program.thread("t1") {
            Op.repeatWhile({ sentRound.value < rounds }) {
                Op.lock(m)
                Op.step("write buffer") {
                    if send.read() {
                        // insertLogElement
                        if next < bufferSize {
                            buffer[next] = sentRound.value
                            next = (next + 1) % bufferSize
                        }
                        send.write(false)
                        receive.write(true)
                    }
                }
                Op.unlock(m)
                Op.local { sentRound.value += 1 }
            }
        }
        let receivedRound = Box(0)
        let receiver = program.thread("t2") {
            Op.repeatWhile({ receivedRound.value < rounds }) {
                Op.lock(m)
                Op.step("write buffer") {
                    if receive.read() {
                        // removeLogElement
                        var removed = -1
                        if next > 0 && first < bufferSize {
                            first += 1
                            removed = buffer[first - 1]
                        }
                        program.check(
                            removed == receivedRound.value,
                            "removed \(removed) in round \(receivedRound.value)")
                        receive.write(false)
                        send.write(true)
                    }
                }
                Op.unlock(m)
                Op.local { receivedRound.value += 1 }
            }
        }
        program.main {
            Op.spawn(sender)
            Op.spawn(receiver)
            Op.join(sender)
            Op.join(receiver)
        }
    }
}
