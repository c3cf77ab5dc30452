import Foundation
import SimCore
import SimTestSupport
import SimTrace
import Testing

/// The exports (`simrun export`): Perfetto's JSON is well formed — a slice per job, a mark per
/// decision and failure, flows with both ends, time never going back on a track — and JSON Lines
/// read back, as a script would, give the trace's own events, decisions and digest. Over committed
/// traces of three models. (The command's output and codes: SimRunKitTests' `ExportCommandTests`.)
@Suite struct TraceExportTests {
    /// The committed failing trace of `scenario`'s buggy variant.
    private func committed(_ scenario: String) throws -> String {
        let names = try FileManager.default.contentsOfDirectory(atPath: CommittedTraces.directory)
        let name = try #require(names.sorted().first { $0.hasPrefix("\(scenario)-buggy-") }, "no trace of \(scenario)")
        return CommittedTraces.directory + "/" + name
    }

    /// What `exporter` writes for the trace at `path`, as one text.
    private func export(_ path: String, perfetto: Bool) throws -> String {
        let sink = MemoryExportSink()
        let reader = try TraceReader(path: path)
        if perfetto { try PerfettoExporter(reader: reader).write(to: sink) } else {
            try JSONLinesExporter(reader: reader).write(to: sink)
        }
        return sink.text
    }

    @Test(arguments: ["lost-input-navigation", "element-update-reentrancy", "cart-login-barrier"])
    func perfettoJSONIsWellFormed(_ scenario: String) throws {
        let trace = try committed(scenario)
        let text = try export(trace, perfetto: true)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        let recorded = try TraceFile.load(path: trace)

        var named = Set<Int>()
        var lastTimestamp: [Int: Int] = [:]
        var starts: [Int: Int] = [:]
        var finishes: [Int: Int] = [:]
        var jobs = 0
        var decisions = 0
        var failures = 0
        for event in events {
            let phase = try #require(event["ph"] as? String)
            let tid = try #require(event["tid"] as? Int)
            if phase == "M" {
                if event["name"] as? String == "thread_name" { named.insert(tid) }
                continue
            }
            let ts = try #require(event["ts"] as? Int, "every event has an integer ts: \(event)")
            switch phase {
            case "X":
                let dur = try #require(event["dur"] as? Int, "an X slice without dur: \(event)")
                #expect(dur >= 1)
                #expect(named.contains(tid), "a slice on a thread with no thread_name")
                #expect(ts >= lastTimestamp[tid, default: 0], "ts went back on tid \(tid)")
                lastTimestamp[tid] = ts
                if event["cat"] as? String == "job" { jobs += 1 }
                let args = try #require(event["args"] as? [String: Any])
                #expect(args["time_ns"] is Int, "the virtual time is in args")
            case "i":
                #expect(ts >= lastTimestamp[tid, default: 0], "ts went back on tid \(tid)")
                lastTimestamp[tid] = ts
                let name = event["name"] as? String ?? ""
                if name.hasPrefix("decision") { decisions += 1 }
                if name.hasPrefix("oracle.fail") { failures += 1 }
            case "s": starts[try #require(event["id"] as? Int)] = ts
            case "f":
                #expect(event["bp"] as? String == "e")
                finishes[try #require(event["id"] as? Int)] = ts
            default: Issue.record("unexpected phase \(phase)")
            }
        }
        let picks = recorded.events.filter { recorded.text($0.kind) == "sched.pick" }.count
        #expect(jobs == picks, "one slice per job")
        #expect(decisions == recorded.decisions.count)
        #expect(failures == 1)
        #expect(!starts.isEmpty)
        #expect(Set(starts.keys) == Set(finishes.keys), "every flow has both ends")
        for (id, start) in starts { #expect(start <= finishes[id] ?? -1, "flow \(id) goes back in time") }
        let other = try #require(root["otherData"] as? [String: Any])
        #expect(other["scenario"] as? String == scenario)
        #expect(other["seed"] as? String == String(recorded.header.seed))
    }

    @Test func jsonLinesRoundTripToTheSameEventsAndDecisions() throws {
        let trace = try committed("cart-login-barrier")
        let recorded = try TraceFile.load(path: trace)
        let lines = try export(trace, perfetto: false).split(separator: "\n")

        let symbols = SymbolTable()
        var events: [Event] = []
        var decisions: [Decision] = []
        var types: [String] = []
        var footerDigest: String?
        for line in lines {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let type = try #require(object["type"] as? String)
            types.append(type)
            switch type {
            case "event": events.append(try Self.event(object, symbols))
            case "decision": decisions.append(try Self.decision(object, symbols))
            case "footer": footerDigest = object["digest"] as? String
            case "header":
                #expect(object["scenario"] as? String == recorded.header.scenario)
                #expect(object["seed"] as? Int == Int(recorded.header.seed))
            default: break
            }
        }
        #expect(types.first == "schema" && types.last == "footer")
        // Same content: texts compared through a fresh symbol table, and the digest recomputed.
        #expect(events.count == recorded.events.count)
        for (mine, theirs) in zip(events, recorded.events) {
            #expect(Self.text(mine, { symbols[$0] }) == Self.text(theirs, recorded.text))
        }
        var digest = Digest()
        for event in events { digest.mix(event) { symbols.contentHash($0) } }
        #expect(digest == recorded.digest)
        #expect(footerDigest == recorded.footer?.digest.description)
        #expect(decisions.count == recorded.decisions.count)
        for (mine, theirs) in zip(decisions, recorded.decisions) {
            #expect(mine.kind == theirs.kind && mine.chosen == theirs.chosen && mine.count == theirs.count)
            #expect(mine.fallback == theirs.fallback && mine.ordinal == theirs.ordinal)
            #expect(mine.afterEvent == theirs.afterEvent)
            #expect(
                symbols[mine.label] == recorded.text(theirs.label) && symbols[mine.lane] == recorded.text(theirs.lane))
        }
    }

    // MARK: Reading JSON Lines back, as a script would

    struct Malformed: Error {}

    static func event(_ object: [String: Any], _ symbols: SymbolTable) throws -> Event {
        guard let seq = object["seq"] as? Int, let time = object["time"] as? Int, let lane = object["lane"] as? String,
            let kind = object["kind"] as? String, let subject = object["subject"] as? String,
            let pairs = object["fields"] as? [[Any]], let cause = object["cause"] as? Int
        else { throw Malformed() }
        var fields = EventFields()
        for pair in pairs {
            guard pair.count == 2, let key = pair[0] as? String else { throw Malformed() }
            let value: FieldValue
            // JSONSerialization gives booleans as NSNumbers too; theirs has the `char` encoding.
            if let number = pair[1] as? NSNumber, String(cString: number.objCType) == "c" {
                value = .bool(number.boolValue)
            } else if let int = pair[1] as? Int {
                value = .int(Int64(int))
            } else if let text = pair[1] as? String {
                value = .symbol(symbols.intern(text))
            } else {
                throw Malformed()
            }
            fields.append(EventField(symbols.intern(key), value))
        }
        return Event(
            seq: UInt64(seq), time: Int64(time), lane: symbols.intern(lane), kind: symbols.intern(kind),
            subject: symbols.intern(subject), fields: fields, cause: UInt64(cause))
    }

    static func decision(_ object: [String: Any], _ symbols: SymbolTable) throws -> Decision {
        guard let kindName = object["kind"] as? String,
            let kind = DecisionKind.allCases.first(where: { $0.name == kindName }),
            let chosen = object["chosen"] as? Int, let count = object["count"] as? Int,
            let fallback = object["fallback"] as? Int, let lane = object["lane"] as? String,
            let label = object["label"] as? String, let ordinal = object["ordinal"] as? Int,
            let after = object["afterEvent"] as? Int
        else { throw Malformed() }
        return Decision(
            kind: kind, chosen: UInt32(chosen), count: UInt32(count), fallback: UInt32(fallback),
            lane: symbols.intern(lane), label: symbols.intern(label), ordinal: UInt32(ordinal),
            afterEvent: UInt64(after))
    }

    /// An event with its symbols spelled out, to compare across symbol tables.
    static func text(_ event: Event, _ text: (Symbol) -> String) -> String {
        let fields = event.fields.map { field -> String in
            switch field.value {
            case .int(let v): "\(text(field.key))=int:\(v)"
            case .bool(let b): "\(text(field.key))=bool:\(b)"
            case .symbol(let s): "\(text(field.key))=text:\(text(s))"
            }
        }
        return
            "\(event.seq) \(event.time) \(text(event.lane)) \(text(event.kind)) \(text(event.subject)) [\(fields.joined(separator: ","))] <\(event.cause)"
    }
}
