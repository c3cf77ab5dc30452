import SimCapture
import SimCore

extension TCA {
    /// A store for tests, after TCA's exhaustive `TestStore`: every state change and every action an effect
    /// sends back must be asserted, and every effect must have finished by the end. Each broken rule fails
    /// the run (`sim.fail`, oracle `tca.test-store`).
    ///
    /// Drive it from a task of the simulation:
    /// ```swift
    /// let store = TCA.TestStore(sim, initialState: .init(), reducer: Counter())
    /// sim.spawn("test") {
    ///     await store.send(.view(.incrementTapped)) { $0.count = 1 }
    ///     await store.receive(._internal(.saved)) { $0.isSaving = false }
    ///     await store.finish()
    /// }
    /// ```
    /// `send` hops to the `main` lane, like TCA's `@MainActor` test store; `receive` and `finish` wait in
    /// virtual time, up to their timeout.
    ///
    /// `@unchecked Sendable`: the test task and the store's jobs share it on the simulation's one thread.
    public final class TestStore<R: TCAReducer>: @unchecked Sendable
    where R.State: Equatable, R.Action: Equatable {
        /// The reducer's state.
        public typealias State = R.State
        /// The reducer's action.
        public typealias Action = R.Action

        /// The store under test.
        public let store: Store<R>
        /// The name of the oracle that failures are reported under.
        public let oracle = "tca.test-store"
        let simulation: Simulation
        /// The state as the test has asserted it so far.
        var expectedState: State
        /// Actions sent back by effects and not yet asserted, with the state each produced.
        var received: [(action: Action, state: State)] = []
        var stateAfterSend: State?
        var waiter: UnsafeContinuation<Void, Never>?
        var timeoutTimer: TimerHandle?

        /// A test store named `name` over `reducer` from `initialState`.
        public init(_ simulation: Simulation, name: String = "store", initialState: State, reducer: R) {
            self.simulation = simulation
            self.store = Store(simulation, name: name, initialState: initialState, reducer: reducer)
            self.expectedState = initialState
            store.didProcess = { [unowned self] action, origin, state in
                switch origin {
                case .view: stateAfterSend = state
                case .effect:
                    received.append((action, state))
                    wake()
                }
            }
            store.didFinishEffect = { [unowned self] in wake() }
            simulation.pendingWork("\(name).received-actions") { [unowned self] in
                received.isEmpty ? nil : "\(received.count) received action(s) never asserted: \(describeReceived())"
            }
        }

        /// The store's current state.
        public var state: State { store.state }

        /// Sends `action` and asserts the state it produces: `update` applied to the previous state.
        public func send(_ action: Action, assert update: ((inout State) -> Void)? = nil) async {
            if !received.isEmpty {
                fail("Must handle \(received.count) received action(s) before sending an action: \(describeReceived())")
            }
            stateAfterSend = nil
            await onMain("test.send") { [self] in store.send(action) }
            guard let actual = stateAfterSend else {
                return fail("sending \(TCA.describe(action)) produced no state: was the store already sending?")
            }
            check("send \(TCA.describe(action))", update, actual: actual)
        }

        /// Waits (up to `timeout` of virtual time) for the next action an effect sends back, asserts that it
        /// is `expected`, and asserts the state it produces.
        public func receive(
            _ expected: Action, timeout: Duration = .seconds(1), assert update: ((inout State) -> Void)? = nil
        ) async {
            let arrived = await wait(upTo: timeout) { [self] in !received.isEmpty }
            guard arrived, !received.isEmpty else {
                let inFlight = store.inFlightEffects
                return fail(
                    "Expected to receive \(TCA.describe(expected)), but received none after \(timeout); "
                        + (inFlight.isEmpty
                            ? "no effect in flight could deliver it (was it cancelled?)"
                            : "effects in flight: \(inFlight.joined(separator: ", "))"))
            }
            let next = received.removeFirst()
            guard next.action == expected else {
                expectedState = next.state
                return fail(
                    "Received unexpected action \(TCA.describe(next.action)); expected \(TCA.describe(expected))")
            }
            check("receive \(TCA.describe(expected))", update, actual: next.state)
        }

        /// Asserts that no received action is left unasserted and waits (up to `timeout` of virtual time)
        /// for every effect to finish; effects still running then fail the run.
        public func finish(timeout: Duration = .seconds(1)) async {
            assertNoReceivedActions()
            let finished = await wait(upTo: timeout) { [self] in store.inFlightEffects.isEmpty }
            if !finished {
                return fail(
                    "Expected effects to finish, but there are still effects in-flight after \(timeout): "
                        + store.inFlightEffects.joined(separator: ", ")
                        + ". An effect returned for an action is still running; it must complete before the end "
                        + "of the test.")
            }
            assertNoReceivedActions()
        }

        private func assertNoReceivedActions() {
            guard !received.isEmpty else { return }
            fail("The store received \(received.count) unexpected action(s): \(describeReceived())")
        }

        private func check(_ step: String, _ update: ((inout State) -> Void)?, actual: State) {
            let previous = expectedState
            var expected = previous
            update?(&expected)
            expectedState = actual
            if expected != actual {
                fail("State after \(step) differs from the assertion: expected \(expected), actual \(actual)")
            } else if update != nil, expected == previous {
                fail(
                    "Expected state to change after \(step), but no change occurred: the closure made no "
                        + "modification. Omit the closure if no change is expected.")
            }
        }

        private func fail(_ message: String) {
            simulation.emit("test.fail", store.name, ["message": .text(message)])
            simulation.fail(oracle, message)
        }

        private func describeReceived() -> String {
            received.map { TCA.describe($0.action) }.joined(separator: ", ")
        }

        /// Runs `body` in a `main`-lane job and waits for it.
        private func onMain(_ label: String, _ body: @escaping () -> Void) async {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                simulation.post(on: TCA.mainLane, label) {
                    body()
                    continuation.resume()
                }
            }
        }

        /// Waits until `condition` holds or `timeout` of virtual time has passed; false on timeout.
        private func wait(upTo timeout: Duration, until condition: () -> Bool) async -> Bool {
            let deadline = simulation.now &+ timeout.nanosecondsClamped
            while !condition() {
                guard simulation.now < deadline else { return false }
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                    waiter = continuation
                    timeoutTimer = simulation.schedule(at: deadline, "test.timeout") { [self] in
                        timeoutTimer = nil
                        wake()
                    }
                }
                if let timer = timeoutTimer {
                    simulation.cancel(timer)
                    timeoutTimer = nil
                }
            }
            return true
        }

        private func wake() {
            guard let continuation = waiter else { return }
            waiter = nil
            continuation.resume()
        }
    }
}
