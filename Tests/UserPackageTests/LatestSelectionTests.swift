import SimTesting
import Testing

/// A profile screen's model, as an app has it: selecting a profile starts a load in a `Task {}`, and
/// the screen shows what the load returns.
@MainActor final class ProfileModel {
    /// What becomes of a load whose profile is no longer the selected one.
    enum StaleLoads {
        /// The bug: it is shown, even over the newer selection.
        case shown
        /// One fix: it is dropped when it lands.
        case dropped
        /// Another fix: selecting a profile cancels the previous load.
        case cancelled
    }

    private(set) var selected: Int?
    private(set) var shown: Profile?
    private var loading: Task<Void, Never>?
    private let service: ProfileService
    private let staleLoads: StaleLoads

    init(service: ProfileService, staleLoads: StaleLoads) {
        self.service = service
        self.staleLoads = staleLoads
    }

    func select(_ id: Int) {
        selected = id
        if staleLoads == .cancelled { loading?.cancel() }
        loading = Task {
            let profile = await service.load(id)
            if staleLoads == .dropped && selected != id { return }
            if staleLoads == .cancelled && Task.isCancelled { return }
            shown = profile
        }
    }
}

struct Profile: Sendable, Equatable {
    let id: Int
    let name: String
}

/// The network, as an actor: profile 1 takes 150 ms to load, any other 100 ms.
actor ProfileService {
    private var inFlight = 0
    /// True once a load started while another was still in flight: the race the test explores.
    private(set) var overlapped = false

    func load(_ id: Int) async -> Profile {
        inFlight += 1
        overlapped = overlapped || inFlight > 1
        defer { inFlight -= 1 }
        try? await Task.sleep(for: .milliseconds(id == 1 ? 150 : 100))
        return Profile(id: id, name: "Profile \(id)")
    }
}

/// The test's body: select a profile, another one 50 ms later, let the loads finish, check the screen.
@MainActor func selectTwoProfiles(_ sim: Simulation, staleLoads: ProfileModel.StaleLoads) async {
    sim.sometimes("both-loads-in-flight")
    let service = ProfileService()
    let model = ProfileModel(service: service, staleLoads: staleLoads)
    model.select(1)
    try? await Task.sleep(for: .milliseconds(50))
    model.select(2)
    await sim.settle()
    if await service.overlapped { sim.reach("both-loads-in-flight") }
    sim.check(
        "shows-the-latest-selection", model.shown?.id == model.selected,
        "selected \(model.selected ?? 0), shows \(model.shown?.name ?? "nothing")")
}

@Test func theLatestSelectionWins() async {
    await simulate(seeds: 0..<500) { @MainActor sim in
        await selectTwoProfiles(sim, staleLoads: .dropped)
    }
}

@Test func theLatestSelectionWinsWhenStaleLoadsAreCancelled() async {
    await simulate(seeds: 0..<500) { @MainActor sim in
        await selectTwoProfiles(sim, staleLoads: .cancelled)
    }
}
