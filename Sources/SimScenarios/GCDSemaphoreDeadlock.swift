import Dispatch
import SimCapture
import SimCore

/// `gcd-semaphore-deadlock`: a thumbnail store offers a synchronous `thumbnail(for:)` for old callers:
/// on a cache miss it starts the asynchronous load and waits on a `DispatchSemaphore`. A prefetch
/// started on a global queue may have filled the cache first: the screen that asks for the thumbnail
/// appears from a notification handled on a global queue that hops to main, racing the prefetch.
///
/// Variants:
/// - `buggy`: the load delivers its completion on the main queue, and the synchronous call is made on
///   the main queue: on a miss, main waits for a signal only main can send. Deadlock.
/// - `fixed`: the synchronous load delivers its completion on the loader's own serial queue.
///
/// Oracle (`thumbnail-shown`): at the end, the screen shows the thumbnail. A deadlock is the run's
/// `deadlock` verdict, naming the lane that waits and the semaphore it waits on.
public enum GCDSemaphoreDeadlock {
    /// The scenario, with variants `buggy` (default) and `fixed`.
    public static let scenario = Scenario(
        name: "gcd-semaphore-deadlock",
        summary: "GCD: main waits on a DispatchSemaphore whose signal is delivered on main (on a cache miss)",
        variants: [
            .init("buggy", "the synchronous load's completion is delivered on the main queue"),
            .init("fixed", "the synchronous load's completion is delivered on the loader's serial queue"),
        ],
        setUp: { simulation, variant in setUp(simulation, deliversOnLoader: variant == "fixed") }
    )

    /// The store: its cache and the screen are touched on the main queue.
    final class ThumbnailStore: @unchecked Sendable {
        let deliversOnLoader: Bool
        let loaderQueue = DispatchQueue(label: "thumbnail-loader")
        var cache: [String: String] = [:]
        var shown: String?
        var cacheHits = 0
        var cacheMisses = 0

        init(deliversOnLoader: Bool) { self.deliversOnLoader = deliversOnLoader }

        func load(_ id: String, deliverOn queue: DispatchQueue, completion: @escaping @Sendable (String) -> Void) {
            loaderQueue.async {
                let thumbnail = "thumbnail(\(id))"
                queue.async { completion(thumbnail) }
            }
        }

        /// The synchronous API, called on main.
        func thumbnail(for id: String) -> String {
            if let hit = cache[id] {
                cacheHits += 1
                return hit
            }
            cacheMisses += 1
            let semaphore = DispatchSemaphore(value: 0)
            let box = ResultBox()
            load(id, deliverOn: deliversOnLoader ? loaderQueue : .main) { thumbnail in
                box.value = thumbnail
                semaphore.signal()
            }
            semaphore.wait()
            return box.value
        }
    }

    final class ResultBox: @unchecked Sendable {
        var value = ""
    }

    static func setUp(_ simulation: Simulation, deliversOnLoader: Bool) {
        guard DispatchCapturing.requireActive(simulation) else { return }
        let store = ThumbnailStore(deliversOnLoader: deliversOnLoader)
        DispatchQueue.global().async {
            store.load("avatar", deliverOn: .main) { thumbnail in store.cache["avatar"] = thumbnail }
        }
        // The screen appears from a notification handled on a global queue, which hops to main.
        DispatchQueue.global().async {
            DispatchQueue.main.async { store.shown = store.thumbnail(for: "avatar") }
        }
        simulation.sometimes("prefetch-filled-the-cache-first") { store.cacheHits > 0 }
        simulation.sometimes("cache-miss-waits") { store.cacheMisses > 0 }
        simulation.atEnd("thumbnail-shown") {
            store.shown == "thumbnail(avatar)" ? nil : "the screen shows \(store.shown ?? "nothing")"
        }
    }
}
