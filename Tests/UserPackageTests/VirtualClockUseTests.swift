import Foundation
import SimCapture
import SimCore
import SimTestSupport
import SimTesting
import Testing

/// A user's timestamping code explored from a test, with SimCore's public `VirtualClocks` only.
@Suite struct VirtualClockUseTests {
    /// A kernel scenario whose jobs stamp entries with `Date()` and `ContinuousClock`.
    static let stamps = Scenario(
        name: "stamps", summary: "entries stamped with Date()", variants: [.init("default", "")]
    ) { simulation, _ in
        let epoch = Date(timeIntervalSince1970: TimeInterval(VirtualClocks.wallClockEpochUnixSeconds))
        let start = ContinuousClock.now
        for milliseconds in [7, 16, 333] {
            simulation.after(.milliseconds(milliseconds), "stamp") {
                let wall = Date().timeIntervalSince(epoch)
                let elapsed = ContinuousClock.now - start
                let virtual = abs(wall - Double(simulation.now) / 1e9) < 1e-6 && elapsed == .nanoseconds(simulation.now)
                if !virtual || !VirtualClocks.areVirtualOnThisThread {
                    simulation.fail(
                        "stamp is virtual", "Date() read \(wall) s, ContinuousClock \(elapsed) since the start")
                }
            }
        }
    }

    /// Linux must interpose the clocks; elsewhere this runs only where the platform reports virtual clocks.
    static let expected = TestPlatform.isLinux || VirtualClocks.areVirtual

    @Test(.enabled(if: expected, "the clocks stay real on this platform")) func stampsInsideARunAreVirtualTime() throws
    {
        try #require(
            VirtualClocks.areVirtual, "the clocks are virtual on Linux (SimCore's article 'Your own async code')")
        let before = VirtualClocks.virtualReads
        let directory = try makeTemporaryDirectory("stamps")
        let exploration = explore(
            Self.stamps, variant: "default", strategy: "random", seeds: 0..<5, failureDirectory: directory.path)
        #expect(exploration.failure == nil)
        #expect(VirtualClocks.virtualReads > before)
        #expect(VirtualClocks.monotonicEpoch == .seconds(1))
        #expect(!VirtualClocks.areVirtualOnThisThread, "the test's own thread reads real time")
    }
}
