import SimCore

/// SCTBench `CB.stringbuffer-jdk1.4` (the concurrency bug benchmarks, after Flanagan and Qadeer's
/// atomicity example from `java.lang.StringBuffer`, JDK 1.4): `append(sb)` takes `sb.length()` and
/// later copies that many characters with `sb.getChars`, each call under `sb`'s lock but not the two
/// together. Another thread erases `sb` in between, and `getChars` fails its bounds check.
enum StringBufferBad {
    static let scenario = SCTBench.benchmark(
        "stringbuffer-jdk1.4", origin: "SCTBench CB/stringbuffer-jdk1.4 (main.cpp, stringbuffer.cpp)",
        summary: "append reads the source's length, an erase lands, then the copy is out of bounds"
    ) { program in
        let sim = program.simulation
        let bufferLock = program.mutex("buffer")
        let targetLock = program.mutex("sb")
        let count = sim.shared("buffer.count", 3)
        let length = Box(0)
        let eraser = program.thread("thread_main") {
            // buffer->erase(0, 3)
            Op.lock(bufferLock)
            Op.step("write buffer.count") { count.write(max(0, count.read() - 3)) }
            Op.unlock(bufferLock)
            // buffer->append("abc")
            Op.lock(bufferLock)
            Op.step("write buffer.count") { count.write(count.read() + 3) }
            Op.unlock(bufferLock)
        }
        program.main {
            Op.spawn(eraser)
            // (new StringBuffer())->append(buffer)
            Op.lock(targetLock)
            Op.lock(bufferLock)
            Op.step("read buffer.count") { length.value = count.read() }
            Op.unlock(bufferLock)
            Op.lock(bufferLock)
            Op.step("read buffer.count") {
                let now = count.read()
                program.check(length.value <= now, "getChars(0, \(length.value)) on a buffer of \(now) characters")
            }
            Op.unlock(bufferLock)
            Op.unlock(targetLock)
        }
    }
}
