import SimCapture
import SimCore

extension TCA.Store {
    /// Starts an effect while the store is processing: synchronous parts now, async parts as a task.
    func start(_ effect: TCA.Effect<Action>) {
        switch effect.operation {
        case .none:
            return
        case .send(let action):
            simulation.emit("effect.send", name, ["action": .text(TCA.describe(action)), "from": "sync"])
            send(action, origin: .effect)
        case .cancel(let id):
            cancel(id, by: name)
        case .run:
            launch(effect)
        case .merge(let effects):
            // TCA promises no order among merged effects: which starts first is a decision.
            for child in simulation.permutation(effects, "tca.merge") { start(child) }
        case .concatenate(let effects):
            var index = 0
            while index < effects.count, effects[index].isSynchronous {
                start(effects[index])
                index += 1
            }
            if index < effects.count { launch(.concatenate(Array(effects[index...]))) }
        case .cancellable(let inner, let id, let cancelInFlight):
            // A synchronous effect is subscribed (and done) now, like TCA's publisher effects; async work
            // registers only when its task starts.
            guard inner.isSynchronous else { return launch(effect) }
            if cancelInFlight { cancel(id, by: name) }
            start(inner)
        }
    }

    /// Launches the async part of an effect as a task of its own; it starts when the scheduler picks it.
    func launch(_ effect: TCA.Effect<Action>) {
        nextEffectNumber += 1
        let number = nextEffectNumber
        let label = "\(name).\(effect.taskName)#\(number)"
        inFlight.append(InFlightEffect(number: number, label: label))
        for id in effect.cancellableIDs { unregistered.append(PendingRegistration(effect: number, id: id)) }
        let task = simulation.spawn(label) { [self] in
            simulation.emit("effect.start", label)
            await perform(effect, effect: number, label: label)
            finish(effect: number, label: label, cancelled: Task.isCancelled)
        }
        if let tree = currentTasks {
            tree.append(task)
            effectTrees[number] = tree
        }
    }

    private func finish(effect number: Int, label: String, cancelled taskCancelled: Bool) {
        let cancelled = taskCancelled || cancelledNumbers.contains(number)
        cancelledNumbers.removeAll { $0 == number }
        unregistered.removeAll { $0.effect == number }
        cancelledPending.removeAll { $0.effect == number }
        inFlight.removeAll { $0.number == number }
        effectTrees[number] = nil
        simulation.emit("effect.finish", label, ["cancelled": .bool(cancelled)])
        didFinishEffect?()
    }

    /// Runs an effect inside its task.
    func perform(_ effect: TCA.Effect<Action>, effect number: Int, label: String) async {
        switch effect.operation {
        case .none:
            return
        case .send(let action):
            await deliver(action, from: label, effect: number)
        case .cancel(let id):
            cancel(id, by: label)
        case .run(_, let operation):
            do {
                try await operation(TCA.Send { [self] action in await deliver(action, from: label, effect: number) })
            } catch is CancellationError {
                return
            } catch {
                simulation.emit("effect.error", label, ["error": .text(String(describing: error))])
                simulation.fail("tca.effect-error", "effect \(label) threw an unhandled error: \(error)")
            }
        case .merge(let effects):
            // TCA runs merged `.run`s as child tasks of a task group: concurrent, cancelled with the parent.
            var tasks: [Task<Void, Never>] = []
            for (offset, child) in effects.enumerated() {
                let childLabel = "\(label).\(offset + 1)"
                tasks.append(
                    simulation.spawn(childLabel) { [self] in
                        await perform(child, effect: number, label: childLabel)
                    })
            }
            let children = tasks
            await withTaskCancellationHandler {
                for task in children { await task.value }
            } onCancel: {
                for task in children { task.cancel() }
            }
        case .concatenate(let effects):
            for child in effects { await perform(child, effect: number, label: label) }
        case .cancellable(let inner, let id, let cancelInFlight):
            await performCancellable(inner, id: id, cancelInFlight: cancelInFlight, effect: number, label: label)
        }
    }

    /// TCA's `withTaskCancellation`: cancel in-flight effects with this id (if asked), then run the work
    /// as a new task registered under the id, until it finishes.
    private func performCancellable(
        _ inner: TCA.Effect<Action>, id: TCA.CancelID, cancelInFlight: Bool, effect number: Int, label: String
    ) async {
        if let slot = unregistered.firstIndex(where: { $0.effect == number && $0.id == id }) {
            unregistered.remove(at: slot)
        } else if let slot = cancelledPending.firstIndex(where: { $0.effect == number && $0.id == id }) {
            // `.whenReturned`: a `.cancel` already reached this part before its task got here.
            cancelledPending.remove(at: slot)
            simulation.emit("effect.skip", id.description, ["effect": .text(label)])
            return
        }
        if cancelInFlight { cancel(id, by: label) }
        let innerLabel = label + ".op"
        let task = simulation.spawn(innerLabel) { [self] in
            await perform(inner, effect: number, label: innerLabel)
        }
        nextRegistrationSerial += 1
        let serial = nextRegistrationSerial
        registrations.append(Registration(serial: serial, id: id, effect: number, task: task))
        simulation.emit(
            "effect.register", id.description, ["effect": .text(label), "cancelInFlight": .bool(cancelInFlight)])
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        registrations.removeAll { $0.serial == serial }
    }

    /// Cancels every effect registered under `id` now. Effects launched but not yet registered are missed
    /// (counted in `missedCancellations` and the event's `missed` field), unless the store registers
    /// `.whenReturned`: then their cancellable part is skipped when their task reaches it.
    func cancel(_ id: TCA.CancelID, by canceller: String) {
        var cancelled: [Task<Void, Never>] = []
        registrations.removeAll { registration in
            guard registration.id == id else { return false }
            cancelled.append(registration.task)
            cancelledNumbers.append(registration.effect)
            return true
        }
        var missed = unregistered.count { $0.id == id }
        var pendingCancelled = 0
        if registration == .whenReturned, missed > 0 {
            cancelledPending.append(contentsOf: unregistered.filter { $0.id == id })
            unregistered.removeAll { $0.id == id }
            pendingCancelled = missed
            missed = 0
        }
        if missed > 0 { missedCancellations += 1 }
        cancelledEffects += cancelled.count + pendingCancelled
        if registration == .whenReturned {
            simulation.emit(
                "effect.cancel", id.description,
                [
                    "count": .int(cancelled.count), "missed": .int(missed), "pending": .int(pendingCancelled),
                    "by": .text(canceller),
                ])
        } else {
            // The shipped behaviour's events stay as they were recorded in Traces/.
            simulation.emit(
                "effect.cancel", id.description,
                ["count": .int(cancelled.count), "missed": .int(missed), "by": .text(canceller)])
        }
        for task in cancelled { task.cancel() }
    }

    /// Delivers an action from an effect through a `main`-lane job, as TCA's `Send` hops to the main actor;
    /// an effect cancelled before the job runs sends nothing.
    ///
    /// Why a hop: `Send.callAsFunction` is `@MainActor` and synchronous, and processes the action at
    /// once (pointfreeco/swift-composable-architecture `Sources/ComposableArchitecture/Effect.swift`,
    /// `Core.swift`), but the `.run` operation it is called from is a `@Sendable` nonisolated async
    /// closure: in Swift 6 language mode without `NonisolatedNonsendingByDefault` (TCA's Package.swift
    /// enables neither), it runs off the main actor, so `await send(…)` enqueues on the main actor —
    /// one main job per send, which this models. The effects that action starts join
    /// the task tree of the send that launched this effect (unless `taskTree` is `.rootEffectsOnly`).
    func deliver(_ action: Action, from label: String, effect number: Int) async {
        let flag = CancellationFlag()
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                simulation.post(main, simulation.symbol("effect.send")) { [self] in
                    let fields: KeyValuePairs<String, FieldLiteral> = [
                        "action": .text(TCA.describe(action)), "from": .text(label),
                    ]
                    if flag.isCancelled {
                        simulation.emit("effect.drop", name, fields)
                    } else {
                        simulation.emit("effect.send", name, fields)
                        let tree = send(action, origin: .effect)
                        if taskTree == .includesSentActions, let tree, let parent = effectTrees[number] {
                            parent.append(tree)
                        }
                    }
                    continuation.resume()
                }
            }
        } onCancel: {
            flag.cancel()
        }
    }
}

/// Set when a task is cancelled while it waits for its action to reach the store.
///
/// `@unchecked Sendable`: written by a cancellation handler and read by a `main`-lane job, both on the
/// simulation's one thread.
final class CancellationFlag: @unchecked Sendable {
    private(set) var isCancelled = false
    func cancel() { isCancelled = true }
}
