import SimCapture
import SimCore

/// An actor cache whose method awaits the load between its check and its insert, checked for
/// linearizability with no oracle written: the cache run one call at a time is the specification.
///
/// `buggy`: `value(key)` misses, awaits the origin, stores what came back. A second caller that
/// arrives during the await also misses and loads again, so the origin serves two versions and the
/// callers see different values for one key — no one-at-a-time order gives that. `fixed`: the first
/// miss marks the key as loading; later callers wait for that load (a continuation each).
///
/// Known minimal scenario: two tasks, one call each, `value(a)` ‖ `value(a)` → 1 and 2 (alone, the
/// second call hits the cache and gets 1).
public enum CacheCheck {
    /// The minimal failing scenario shrinking reaches.
    public static let minimal = CallScenario(tasks: [[.init(0, 0)], [.init(0, 0)]])

    /// The declaration: operations `value(key)` and `invalidate(key)` over keys `a`, `b`.
    public static let check = ObjectCheck<LoadingCache>(
        name: "cache-check",
        summary: "an actor cache awaits its load between check and insert: two callers load one key twice",
        variants: [
            .init("buggy", "check, await the load, insert: a caller arriving during the await loads again") {
                _ in LoadingCache(sharesLoads: false)
            },
            .init("fixed", "the first miss marks the key loading; callers during the load wait for it") { _ in
                LoadingCache(sharesLoads: true)
            },
        ],
        operations: [
            .init("value", arguments: ["a", "b"]) { cache, key in await cache.value(key) },
            .init("invalidate", arguments: ["a", "b"]) { cache, key in await cache.invalidate(key) },
        ])

    /// The scenario `simrun list` shows.
    public static let scenario = check.scenario()
}

/// The origin behind the cache: each load of a key serves its next version, after a few hops.
actor VersionedOrigin {
    private var versions: [String: Int] = [:]

    func load(_ key: String) async -> Int {
        versions[key, default: 0] += 1
        let version = versions[key, default: 0]
        await Task.yield()
        await Task.yield()
        return version
    }
}

/// The cache under test.
public actor LoadingCache {
    let origin = VersionedOrigin()
    let sharesLoads: Bool
    private var entries: [String: Int] = [:]
    private var loading: Set<String> = []
    private var waiters: [String: [CheckedContinuation<Int, Never>]] = [:]

    init(sharesLoads: Bool) { self.sharesLoads = sharesLoads }

    /// The cached value of `key`, loaded on a miss.
    public func value(_ key: String) async -> Int {
        if let cached = entries[key] { return cached }
        guard sharesLoads else {
            let loaded = await origin.load(key)
            entries[key] = loaded
            return loaded
        }
        if loading.contains(key) {
            return await withCheckedContinuation { waiters[key, default: []].append($0) }
        }
        loading.insert(key)
        let loaded = await origin.load(key)
        entries[key] = loaded
        loading.remove(key)
        for waiter in waiters.removeValue(forKey: key) ?? [] { waiter.resume(returning: loaded) }
        return loaded
    }

    /// Forgets `key` (a load in flight still stores what it loads).
    public func invalidate(_ key: String) { entries[key] = nil }
}
