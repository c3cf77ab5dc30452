import SimCore
import SimTrace

/// A trace opened for a command: its header, its schedule, and the plan to re-run it.
public struct TraceInput {
    /// The trace file.
    public let path: String
    /// Its header.
    public let header: TraceHeader
    /// Its decisions (the schedule), with their symbols.
    public let tape: Tape
    /// Its footer; nil when the file was cut short.
    public let footer: TraceFooter?
    /// The file was cut short (no footer).
    public let isTruncated: Bool
    /// Events in the trace, and the decompressed offset where reading stopped (the end of the last
    /// complete frame when truncated).
    public let eventCount: UInt64
    /// Where reading stopped, in decompressed bytes.
    public let endOffset: UInt64

    /// Reads the trace's header and decisions (events are streamed later, not kept).
    public init(path: String) throws(SimEngineError) {
        self.path = path
        do {
            let reader = try TraceReader(path: path)
            header = reader.header
            var decisions: [Decision] = []
            var footer: TraceFooter?
            while let record = try reader.nextSkippingEvents() {
                switch record {
                case .decision(let decision): decisions.append(decision)
                case .footer(let found): footer = found
                case .event, .checkpoint: break
                }
            }
            tape = Tape(decisions: decisions, symbols: reader.symbols)
            self.footer = footer
            isTruncated = reader.isTruncated
            eventCount = reader.eventCount
            endOffset = reader.decompressedOffset
        } catch {
            throw Self.failure(error)
        }
    }

    package static func failure(_ error: TraceError) -> SimEngineError {
        SimEngineError(error.kind == .missingFile ? .missingInput : .badTrace, error.description)
    }

    /// The recorded scenario and variant (or `variant`) and noise (or `noise` lanes), checked against
    /// the catalog.
    public func plan(in catalog: ScenarioCatalog, variant: String? = nil, noise: Int? = nil) throws(SimEngineError)
        -> RunPlan
    {
        let plan = try Self.plan(for: header, path: path, in: catalog, variant: variant)
        guard let noise, noise != plan.noise else { return plan }
        return plan.withNoise(noise)
    }

    /// The plan for a trace whose header alone has been read.
    package static func plan(
        for header: TraceHeader, path: String, in catalog: ScenarioCatalog, variant: String?
    ) throws(SimEngineError) -> RunPlan {
        let scenario: Scenario
        do {
            scenario = try catalog.scenario(named: header.scenario)
        } catch {
            throw SimEngineError(
                .badTrace,
                "\(path): at byte 0: expected a known scenario (the header names '\(header.scenario)')")
        }
        guard scenario.hasVariant(header.variant) else {
            throw SimEngineError(
                .badTrace,
                "\(path): at byte 0: expected a variant of \(scenario.name) (the header names '\(header.variant)')")
        }
        let chosen = variant ?? header.variant
        guard scenario.hasVariant(chosen) else {
            if variant != nil { _ = try catalog.variant(chosen, of: scenario) }
            throw SimEngineError(
                .badTrace,
                "\(path): at byte 0: expected a variant of \(scenario.name) (the header names '\(chosen)')")
        }
        // Never a silent fallback: a strategy this build cannot parse is a damaged or foreign trace.
        guard let spec = StrategySpec(parsing: header.strategy) else {
            throw SimEngineError(
                .badTrace,
                "\(path): at byte 0: expected a known strategy (the header names '\(header.strategy)')")
        }
        let lanes = try noise(of: header, path: path)
        let recorded = try carriers(of: header, path: path)
        // The recording's own step estimate when it names one (simrun's recordings all do): no fifo
        // probe run, which would trap here when the recorded crash is on the fifo schedule itself.
        guard let steps = estimatedSteps(of: header) else {
            return RunPlan.probed(scenario: scenario, variant: chosen, strategy: spec, noise: lanes, carriers: recorded)
        }
        return RunPlan(
            scenario: scenario, variant: chosen, strategy: spec, estimatedSteps: steps, noise: lanes, carriers: recorded)
    }
}

extension TraceInput {
    /// The step estimate a recording's plan used (its header's `estimatedSteps` option), or nil.
    package static func estimatedSteps(of header: TraceHeader) -> Int? {
        guard let text = header.options.first(where: { $0.key == "estimatedSteps" })?.value, let steps = Int(text),
            steps > 0
        else { return nil }
        return steps
    }

    /// Where a recording's jobs ran (its header's `carriers` option; `.off` when absent).
    package static func carriers(of header: TraceHeader, path: String) throws(SimEngineError) -> CarrierMode {
        guard let text = header.options.first(where: { $0.key == "carriers" })?.value else { return .off }
        guard let mode = CarrierMode(rawValue: text) else {
            throw SimEngineError(
                .badTrace,
                "\(path): at byte 0: expected a carrier mode (\(CarrierMode.allCases.map(\.rawValue).joined(separator: ", "))) (the header says '\(text)')"
            )
        }
        return mode
    }

    /// The noise lanes a recording ran with (its header's `noise` option; 0 when absent).
    package static func noise(of header: TraceHeader, path: String) throws(SimEngineError) -> Int {
        guard let text = header.options.first(where: { $0.key == "noise" })?.value else { return 0 }
        guard let count = Int(text), (0...RunPlan.maxNoise).contains(count) else {
            throw SimEngineError(
                .badTrace,
                "\(path): at byte 0: expected a noise lane count 0...\(RunPlan.maxNoise) (the header says '\(text)')")
        }
        return count
    }
}
