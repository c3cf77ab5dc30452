import SimCapture
import SimCore

/// Actor reentrancy, in plain Swift concurrency: an actor cache checks for an entry, awaits a fetch,
/// then stores the response. The actor is free while the fetch is awaited, so two callers both miss,
/// both fetch, and when the older response comes back last it overwrites the newer one.
///
/// `buggy` stores whatever its own fetch returned; `fixed` keeps the in-flight `Task` in the cache
/// and has every caller await that one task, so one fetch serves both. Needs the executor-factory
/// route: the fetch yields inside `Task {}` (the callers and the in-flight task).
public enum ActorReentrancyCache {
    /// The scenario: its variants, set-up and oracles (`simrun list` shows its summary).
    public static let scenario = Scenario.async(
        name: "actor-reentrancy-cache",
        summary:
            "two callers miss an actor cache, both fetch, the older response overwrites the newer"
            + " — a race: fifo passes",
        variants: [
            .init("buggy", "check, await the fetch, store: the actor is reentered during the await"),
            .init("fixed", "the cache stores the in-flight Task and every caller awaits it"),
        ],
        limits: RunLimits(maxSteps: 2_000)
    ) { simulation, variant in
        let backend = ProfileBackend(simulation: simulation)
        let cache = ProfileCache(backend: backend, sharesInFlight: variant == "fixed")
        simulation.atEnd("cache-holds-newest-response") {
            let newest = backend.lastIssued
            guard let cached = cache.snapshot else { return "nothing was cached" }
            return cached == newest
                ? nil : "the cache holds version \(cached) of the profile but version \(newest) was fetched later"
        }
        simulation.sometimes("both callers missed") { backend.lastIssued >= 2 }
        let first = Task { await cache.profile("ada") }
        let second = Task { await cache.profile("ada") }
        _ = await (first.value, second.value)
    }
}

/// The server: each fetch gets the next version of the profile; the response takes a few hops to come
/// back (every `Task.yield` is a point where the scheduler may run someone else).
actor ProfileBackend {
    let simulation: Simulation
    private var version = 0
    /// Mirrors `version` for the end-of-run oracle, which runs outside the actor (same thread).
    nonisolated(unsafe) var lastIssued = 0

    init(simulation: Simulation) { self.simulation = simulation }

    func fetch(_ user: String) async -> Int {
        version += 1
        let issued = version
        lastIssued = issued
        simulation.emit("backend.fetch", user, ["version": .int(issued)])
        await Task.yield()
        await Task.yield()
        return issued
    }
}

actor ProfileCache {
    let backend: ProfileBackend
    let sharesInFlight: Bool
    private var entries: [String: Int] = [:]
    private var inFlight: [String: Task<Int, Never>] = [:]
    /// The cached version, for the oracle (written only inside the actor, read after the run).
    nonisolated(unsafe) var snapshot: Int?

    init(backend: ProfileBackend, sharesInFlight: Bool) {
        self.backend = backend
        self.sharesInFlight = sharesInFlight
    }

    func profile(_ user: String) async -> Int {
        if let cached = entries[user] { return cached }
        if sharesInFlight {
            if let running = inFlight[user] { return await running.value }
            let backend = backend
            let task = Task { await backend.fetch(user) }
            inFlight[user] = task
            let value = await task.value
            store(value, for: user)
            inFlight[user] = nil
            return value
        }
        let value = await backend.fetch(user)
        store(value, for: user)
        return value
    }

    private func store(_ value: Int, for user: String) {
        entries[user] = value
        snapshot = value
        backend.simulation.emit("cache.store", user, ["version": .int(value)])
    }
}
