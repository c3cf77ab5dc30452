/// What kind of thing a run saw but did not control (issue #40): an open set of names, so that each
/// capture adds its own without a change here.
///
/// A run under simrun is only as good as what its scheduler holds: a lock it cannot see, a thread
/// started outside the run, run-loop work, work that escaped — each is code whose orders the
/// schedules did not explore. Such a thing is noted with ``Simulation/noteUncontrolled(_:_:at:)``;
/// the run's ``RunResult/uncontrolled`` carries it, a campaign counts it per kind, and the command
/// line, `--json` and SimTesting say it, so that a pass never stands for orders nobody tried.
public struct UncontrolledKind: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The kind's name, as output and JSON spell it (`invisible-lock`).
    public let rawValue: String

    /// A kind named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A kind from a literal name.
    public init(stringLiteral value: String) { rawValue = value }

    /// Work of the run that left it: it ran outside the scheduler (it also fails the run,
    /// `stays-in-simulation`).
    public static let escape: UncontrolledKind = "escape"
    /// A lock the scheduler cannot see (it never preempts at it: `Synchronization.Mutex`, …).
    public static let invisibleLock: UncontrolledKind = "invisible-lock"
    /// Run-loop work (`Timer`, `perform(_:with:afterDelay:)`, sources) that does not run on virtual time.
    public static let runLoop: UncontrolledKind = "run-loop"
    /// A thread started by the run that is not one of its carriers.
    public static let thread: UncontrolledKind = "thread"

    /// The name.
    public var description: String { rawValue }

    /// By name: a campaign lists kinds in a fixed order, whatever order its workers saw them in.
    public static func < (lhs: UncontrolledKind, rhs: UncontrolledKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One thing a run saw but did not control: its kind, a short detail and where.
public struct Uncontrolled: Hashable, Sendable, CustomStringConvertible {
    /// What kind of thing.
    public var kind: UncontrolledKind
    /// What it was, short (`DispatchSource timer`, `Mutex.withLock`).
    public var detail: String
    /// Where the run saw it (a function, a file and line, a lane), or "" when unknown.
    public var site: String
    /// How many times the run saw it (the same kind, detail and site).
    public var count: Int

    /// An observation seen once.
    public init(kind: UncontrolledKind, detail: String, site: String = "", count: Int = 1) {
        self.kind = kind
        self.detail = detail
        self.site = site
        self.count = count
    }

    /// `invisible-lock: Mutex.withLock (in Cart.add(_:))`.
    public var description: String { "\(kind): \(detail)" + (site.isEmpty ? "" : " (\(site))") }
}

extension Simulation {
    /// The most distinct observations one run keeps (later ones of a new detail or site are counted
    /// on the first of their kind).
    public static let maxUncontrolled = 32

    /// Notes that the run saw something it does not control: `kind` (`.invisibleLock`, `.thread`,
    /// `.runLoop`, `.escape`, or a kind of the caller's own), a short `detail` and where (`site`).
    /// The run goes on; its ``RunResult/uncontrolled`` lists each distinct observation once with how
    /// many times it was seen, and a campaign over such runs cannot end in a plain pass.
    ///
    /// ```swift
    /// simulation.noteUncontrolled(.invisibleLock, "Mutex.withLock", at: "Cart.add(_:)")
    /// ```
    ///
    /// Call it on the run's thread (a carrier holding the turn counts), like every other `Simulation`
    /// method; it costs a compare per distinct observation of the run.
    public func noteUncontrolled(_ kind: UncontrolledKind, _ detail: String, at site: String = "") {
        confinement.check("noteUncontrolled")
        for index in uncontrolled.indices
        where uncontrolled[index].kind == kind && uncontrolled[index].detail == detail
            && uncontrolled[index].site == site
        {
            uncontrolled[index].count += 1
            return
        }
        if uncontrolled.count < Self.maxUncontrolled {
            uncontrolled.append(Uncontrolled(kind: kind, detail: detail, site: site))
        } else if let first = uncontrolled.firstIndex(where: { $0.kind == kind }) {
            uncontrolled[first].count += 1
        } else {
            // A new kind past the bound still shows: it takes the place of the last one kept.
            uncontrolled[uncontrolled.count - 1] = Uncontrolled(kind: kind, detail: detail, site: site)
        }
    }
}
