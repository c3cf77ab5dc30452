import SimCore
import SimTrace

/// What one of simrun's child processes is asked to do: one typed value on its stdin, encoded by
/// `Codable` over ``JSONValue`` (every member written and required), read by ``ChildEntry``. Every
/// job that runs the scenario carries its plan as one ``RunPlan/Descriptor``; a child answers with
/// ``ChildReply`` records on its stdout, the first of them naming the plan it rebuilt.
package enum ChildJob: Sendable, Equatable, Codable {
    /// Plan: run the descriptor's `fifo` schedule once (its step estimate and coverage goals are
    /// ignored), answering `planned`. A trap there kills the child: the plan's fifo run traps.
    case plan(RunPlan.Descriptor)
    /// Run fuzz seeds on the campaign board passed down on ``WorkerBoard/childDescriptor``.
    case work(Work)
    /// Record one run into a trace, checkpointing every record (a trap leaves the trace up to it).
    case record(Record)
    /// Shrink a failing trace (its candidates may trap).
    case shrink(Shrink)
    /// Run a whole in-order campaign, answering `campaign`.
    case inOrderCampaign(InOrderCampaign)
    /// Run seeds and answer one `sample` each (the determinism check).
    case digests(Digests)
    /// Decide one replay, answering `replayed`.
    case replay(ReplayRequest)

    /// The version of the encoding; a child refuses any other.
    package static let version = 2

    /// A fuzz worker's share of a campaign.
    package struct Work: Sendable, Equatable, Codable {
        package var plan: RunPlan.Descriptor
        /// This worker, of `workers`.
        package var worker: Int
        package var workers: Int
        /// The board's goal slots.
        package var goals: Int
        package var space: SeedSpace
        package var keepGoing: Bool
        /// Stop after this many milliseconds (a `--time` campaign).
        package var milliseconds: Int64?
        /// The rest of a chunk whose worker died, run before claiming new chunks.
        package var resume: Range<UInt64>?
    }

    /// One run to record.
    package struct Record: Sendable, Equatable, Codable {
        package var plan: RunPlan.Descriptor
        package var seed: UInt64
        /// The trace to write.
        package var out: String
        /// Which schedule the run follows.
        package var schedule: Schedule
        /// Header options added after the plan's (`foundAtSeed`, `shrunk`).
        package var options: [Option]

        /// The schedule of a recorded run.
        package enum Schedule: Sendable, Equatable, Codable {
            /// The plan's own strategy.
            case strategy
            /// A trace's decisions, one by one (the run it recorded, again).
            case decisions(of: String)
            /// A trace's schedule followed by job identity (another variant, other noise).
            case identities(of: String)
            /// Another build's trace, its schedule read as a replay on another build reads it;
            /// `fileOnly`: from the file alone, its recording not re-run here (it may trap first).
            case otherBuild(of: String, fileOnly: Bool)
            /// Run `run` (from 0) of the in-order campaign over `seeds`, which runs again up to it.
            case inOrderRun(run: Int, seeds: Range<UInt64>)
        }

        /// A header option.
        package struct Option: Sendable, Equatable, Codable {
            package var key: String
            package var value: String
        }
    }

    /// A trace to shrink in place or into `out`.
    package struct Shrink: Sendable, Equatable, Codable {
        /// The trace's plan, as its header gives it.
        package var plan: RunPlan.Descriptor
        package var trace: String
        package var out: String
    }

    /// An in-order campaign (one strategy object from run to run), run whole in one child.
    package struct InOrderCampaign: Sendable, Equatable, Codable {
        package var plan: RunPlan.Descriptor
        /// The seeds, in order (for `dfs`, run numbers start at 0 whatever they say).
        package var seeds: Range<UInt64>
        package var milliseconds: Int64?
        package var keepGoing: Bool
        /// The file each run is marked in before it starts (``RunMarker``): the run that trapped.
        package var marker: String
        /// The directory each finding's trace is written into, as found.
        package var findings: String
    }

    /// Seeds whose runs' digests are compared across processes.
    package struct Digests: Sendable, Equatable, Codable {
        package var plan: RunPlan.Descriptor
        package var seeds: DeterminismCampaign.Seeds
    }

    /// The plan the job runs, as it was sent (nil for a replay, whose plan is the trace's).
    package var plan: RunPlan.Descriptor? {
        switch self {
        case .plan(let plan): plan
        case .work(let job): job.plan
        case .record(let job): job.plan
        case .shrink(let job): job.plan
        case .inOrderCampaign(let job): job.plan
        case .digests(let job): job.plan
        case .replay: nil
        }
    }

    /// The job's kind, as its child's command line shows it (`ps` tells one child from another).
    package var kind: String {
        switch self {
        case .plan: "plan"
        case .work: "work"
        case .record: "record"
        case .shrink: "shrink"
        case .inOrderCampaign: "in-order-campaign"
        case .digests: "digests"
        case .replay: "replay"
        }
    }

    /// The job on one line, with its version.
    package func encoded() throws(SimEngineError) -> String {
        try JSONValueEncoder().encode(Envelope(version: Self.version, job: self)).text
    }

    /// Reads a job written by ``encoded()``: the version this one's, every member there.
    package init(decoding text: String) throws(SimEngineError) {
        let decoder = JSONValueDecoder(what: "child job")
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw .usage("child job: not JSON (\(error.reason) at offset \(error.offset))")
        }
        guard let version = value["version"]?.intValue else { throw .usage("child job: no 'version'") }
        guard version == Self.version else {
            throw .usage("child job version \(version); this simrun reads version \(Self.version)")
        }
        self = try decoder.decode(Envelope.self, from: value).job
    }

    private struct Envelope: Codable {
        var version: Int
        var job: ChildJob
    }
}
