import SimCapture
import SimCore

/// An actor that hands out an access token and refreshes it when missing: the token-refresh race
/// (two requests find no token and both refresh), checked with no oracle written.
///
/// `buggy`: `token()` finds none, awaits the auth server, stores what it got; a request during the
/// await refreshes too, and the two callers get different tokens. `fixed`: the refresh in flight is
/// shared — requests during it wait for its token.
///
/// Known minimal scenario: `token()` ‖ `token()` → 1 and 2 (one at a time, both get token 1).
public enum TokenRefresherCheck {
    /// The minimal failing scenario shrinking reaches.
    public static let minimal = CallScenario(tasks: [[.init(0)], [.init(0)]])

    /// The declaration: `token()` and `expire()`.
    public static let check = ObjectCheck<TokenRefresher>(
        name: "token-refresher-check",
        summary: "two requests find no access token and both refresh it: callers get different tokens",
        variants: [
            .init("buggy", "each request that finds no token refreshes it") { _ in TokenRefresher(sharesRefresh: false)
            },
            .init("fixed", "requests during a refresh wait for its token") { _ in TokenRefresher(sharesRefresh: true) },
        ],
        operations: [
            .init("token") { await $0.token() },
            .init("expire") { await $0.expire() },
        ])

    /// The scenario `simrun list` shows.
    public static let scenario = check.scenario()
}

/// The auth server: every refresh issues the next token.
actor AuthServer {
    private var issued = 0
    func refresh() async -> Int {
        issued += 1
        let token = issued
        await Task.yield()
        return token
    }
}

/// The token holder under test.
public actor TokenRefresher {
    let server = AuthServer()
    let sharesRefresh: Bool
    private var current: Int?
    private var refreshing = false
    private var waiting: [CheckedContinuation<Int, Never>] = []

    init(sharesRefresh: Bool) { self.sharesRefresh = sharesRefresh }

    /// A valid token, refreshed when there is none.
    public func token() async -> Int {
        if let current { return current }
        if sharesRefresh && refreshing { return await withCheckedContinuation { waiting.append($0) } }
        refreshing = true
        let fresh = await server.refresh()
        current = fresh
        refreshing = false
        let waiters = waiting
        waiting = []
        for waiter in waiters { waiter.resume(returning: fresh) }
        return fresh
    }

    /// Drops the token (it expired); the next request refreshes.
    public func expire() { current = nil }
}
