import SimCore
import SimTestSupport
import Testing

/// The delivery-order oracle (issue #41): a value delivered after one produced later fails the run at
/// that delivery; in-order deliveries, and deliveries to different consumers, never do.
@Suite struct DeliveryOrderTests {
    @Test func anOvertakingDeliveryFailsTheRunNamingBothValues() {
        let result = simulate { sim in
            let order = sim.deliveryOrder("delivered-in-order", of: Int.self)
            sim.post(on: "producer", "produce") {
                order.produced(1)
                order.produced(2)
            }
            sim.post(on: "consumer", "deliver") {
                order.delivered(2)
                order.delivered(1)
            }
        }
        #expect(
            result.verdict
                == .fail(
                    oracle: "delivered-in-order",
                    message: "the consumer received 1 after 2, though 1 was produced first (produced: 1, 2)"))
    }

    @Test func inOrderDeliveriesAndSeparateConsumersPass() {
        let result = simulate { sim in
            let order = sim.deliveryOrder("delivered-in-order", of: String.self)
            sim.post(on: "producer", "produce") {
                for value in ["a", "b", "c"] { order.produced(value) }
            }
            sim.post(on: "consumer", "deliver") {
                order.delivered("a", to: "one")
                order.delivered("c", to: "one")
                order.delivered("b", to: "two")
                order.delivered("c", to: "two")
            }
        }
        #expect(result.verdict == .pass)
    }

    @Test func aValueNeverProducedOrProducedTwiceFails() {
        let unknown = simulate { sim in
            let order = sim.deliveryOrder("order", of: Int.self)
            sim.post(on: "consumer", "deliver") { order.delivered(7) }
        }
        #expect(unknown.verdict == .fail(oracle: "order", message: "the consumer received 7, which was never produced"))
        let twice = simulate { sim in
            let order = sim.deliveryOrder("order", of: Int.self)
            sim.post(on: "producer", "produce") {
                order.produced(3)
                order.produced(3)
            }
        }
        #expect(twice.verdict == .fail(oracle: "order", message: "3 was produced twice (values must be unique in a run)"))
    }
}
