import SimCore

extension Scenario {
    /// A scenario whose body is plain async Swift: `Task {}`, `Task.detached`, task groups, actors,
    /// `@MainActor` code and `Task.sleep` run under the scheduler (see `AsyncCapture`).
    ///
    /// ```swift
    /// let scenario = Scenario.async(name: "double-tap", summary: "…", variants: [.init("buggy", "…")]) { sim, variant in
    ///     let model = await OrderModel()
    ///     await model.tap(); await model.tap()
    /// }
    /// ```
    ///
    /// `concurrency` is what every variant needs unless the variant says otherwise
    /// (`Variant(_:_:concurrency:)`). The body runs as the task `task`; the run is quiet when every captured job has run and no sleep
    /// is pending. Work that leaves the run (a real `DispatchQueue`, a `Thread`, another executor) fails
    /// it with the `stays-in-simulation` oracle instead of passing.
    public static func async(
        name: String, summary: String, variants: [Variant], limits: RunLimits = .standard,
        concurrency: Concurrency = .executorFactory,
        body: @escaping @Sendable (_ simulation: Simulation, _ variant: String) async -> Void
    ) -> Scenario {
        // A variant may need another route than the scenario (`Variant.concurrency`).
        var needsByVariant: [String: Concurrency] = [:]
        for variant in variants { needsByVariant[variant.name] = variant.concurrency ?? concurrency }
        let needs = needsByVariant
        var scenario = Scenario(name: name, summary: summary, variants: variants, limits: limits) {
            simulation, variant in
            AsyncRun.start(simulation, variant: variant, needs: needs[variant] ?? concurrency, body: body)
        }
        scenario.concurrency = concurrency
        return scenario
    }
}

/// Starting an async scenario's body under the capture route of this process.
enum AsyncRun {
    static func start(
        _ simulation: Simulation, variant: String, needs: Scenario.Concurrency,
        body: @escaping @Sendable (Simulation, String) async -> Void
    ) {
        let route = ExecutorCapture.ensureRoute()
        if route == .unavailable {
            simulation.fail(
                "async-capture", "this toolchain offers no way to capture Swift concurrency (needs Swift 6.3)")
            return
        }
        if needs == .executorFactory && !route.capturesMainActor {
            simulation.fail(
                "async-capture",
                "this scenario needs the executor-factory route (@MainActor code, or actor calls inside Task {}): run it from an "
                    + "executable built on SimRun.main, e.g. simrun (this process has the \(route) route: "
                    + "\(ExecutorCapture.routeNote ?? "no reason recorded"))")
            return
        }
        let capture = AsyncCapture(simulation: simulation, route: route)
        simulation.atEnd("stays-in-simulation") { capture.escapeReport() }
        // Pinned: this thread's binding is undone (`Scenario.run`) before the simulation, which holds
        // the capture, goes.
        ExecutorCapture.bind(capture, pinned: true)
        ExecutorCapture.startTask {
            await body(simulation, variant)
            capture.bodyFinished = true
        }
    }
}
