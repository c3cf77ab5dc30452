/// Threads simrun starts for itself, with no task on them (a run binds its thread to its simulation;
/// a signal's ending must not wait for the cooperative pool): pthread's shape on both platforms, in
/// one place.
package enum PlainThread {
    /// Starts `body` on a new detached thread; false when no thread could be started.
    package static func detach(_ body: @escaping @Sendable () -> Void) -> Bool {
        start(body, detached: true) != nil
    }

    /// Runs `body` on a new thread and waits for it to end; false when no thread could be started.
    package static func join(_ body: @escaping @Sendable () -> Void) -> Bool {
        guard let thread = start(body, detached: false) else { return false }
        #if canImport(Darwin)
            pthread_join(thread!, nil)
        #else
            pthread_join(thread, nil)
        #endif
        return true
    }

    #if canImport(Darwin)
        private typealias Handle = pthread_t?
    #else
        private typealias Handle = pthread_t
    #endif

    private static func start(_ body: @escaping @Sendable () -> Void, detached: Bool) -> Handle? {
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        if detached { pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED)) }
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        guard pthread_create(&thread, &attributes, entry, context) == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            return nil
        }
        return thread
    }

    private final class Body: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    #if canImport(Darwin)
        private static let entry: @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? = { raw in
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }
    #else
        private static let entry: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }
    #endif
}
