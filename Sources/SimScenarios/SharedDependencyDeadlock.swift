import Foundation
import SimCapture
import SimCore

/// Two libraries' locks taken in opposite orders: pointfreeco/swift-sharing#149, fixed by PR #153.
/// swift-dependencies caches live values under its `CachedValues` lock and builds a missing one while
/// holding it; swift-sharing keeps its persistent references under its own lock and built a missing
/// reference while holding that one. A dependency whose live value reads a `@Shared` value takes the
/// dependencies' lock, then the references'; a `@Shared` whose reference reads a dependency takes them
/// the other way round.
///
/// `buggy` builds the reference under the references' lock (swift-sharing 2.5.0); with lock preemption
/// a schedule that pauses the first task between its two acquisitions deadlocks, and a campaign that
/// runs both orders in passing runs reports the potential deadlock before any run hangs. `fixed` is
/// PR #153: the reference is built outside the lock, which is taken again only to store it (the first
/// stored reference wins).
public enum SharedDependencyDeadlock {
    /// The scenario: `buggy`, `fixed`.
    public static let scenario: Scenario = {
        var scenario = Scenario.async(
            name: "shared-dependency-deadlock",
            summary:
                "a dependency's live value reads @Shared while a @Shared reference reads a dependency: two locks in"
                + " opposite orders (pointfreeco/swift-sharing #149, PR #153) — needs --preempt",
            variants: [
                .init("buggy", "swift-sharing 2.5.0: a missing reference is built under the references' lock"),
                .init("fixed", "PR #153: the reference is built outside the lock, stored under it"),
            ],
            limits: RunLimits(maxSteps: 4_000),
            concurrency: .eitherRoute
        ) { simulation, variant in
            let dependencies = DependencyCache()
            let references = PersistentReferences(buildsUnderLock: variant == "buggy")
            simulation.sometimes("the settings dependency was cached first") { dependencies.firstKey == "settingsClient" }
            simulation.sometimes("the file-storage dependency was cached first") { dependencies.firstKey == "fileStorage" }
            // A dependency whose live value holds a @Shared("settings") (Thread 1 of the issue).
            let settings = Task {
                dependencies.value("settingsClient") { references.reference("settings") { "defaults" } }
            }
            // A @Shared("profile") whose reference reads the file-storage dependency (Thread 7).
            let profile = Task {
                references.reference("profile") { dependencies.value("fileStorage") { "disk" } }
            }
            let loaded = (await settings.value, await profile.value)
            simulation.check(
                "values-loaded", loaded == ("defaults", "disk"), "loaded \(loaded.0) and \(loaded.1)")
        }
        scenario.bugNeeds = .preemptLocks
        return scenario
    }()
}

/// swift-dependencies' `CachedValues`: live values made on first use, under one lock.
final class DependencyCache: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var cached: [String: String] = [:]
    /// The first key whose live value was cached (read between jobs).
    private(set) var firstKey: String?

    func value(_ key: String, live: () -> String) -> String {
        lock.lock()
        defer { lock.unlock() }
        if let value = cached[key] { return value }
        let value = live()
        cached[key] = value
        if firstKey == nil { firstKey = key }
        return value
    }
}

/// swift-sharing's `PersistentReferences`: one reference per key, under one lock.
final class PersistentReferences: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var references: [String: String] = [:]
    private let buildsUnderLock: Bool

    init(buildsUnderLock: Bool) { self.buildsUnderLock = buildsUnderLock }

    func reference(_ key: String, make: () -> String) -> String {
        if buildsUnderLock {
            lock.lock()
            defer { lock.unlock() }
            if let reference = references[key] { return reference }
            let reference = make()
            references[key] = reference
            return reference
        }
        lock.lock()
        let existing = references[key]
        lock.unlock()
        if let existing { return existing }
        let made = make()
        lock.lock()
        defer { lock.unlock() }
        if let stored = references[key] { return stored }
        references[key] = made
        return made
    }
}
