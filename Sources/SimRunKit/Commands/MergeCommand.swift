import ArgumentParser
import SimCore
import SimEngine

/// `simrun merge RESULT…`: the result files of a sharded campaign (`fuzz --result`) merged into the
/// verdict one machine would have printed over all the seeds, with the winning traces copied into
/// one directory. A lost, doubled or interrupted shard is reported, never merged into a pass.
struct MergeCommand: CatalogCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge", abstract: "Merge the result files of a sharded fuzz campaign into one verdict.",
        discussion: """
            Reads the files `fuzz --shard K/N --result FILE` wrote (directories are searched for *.json, \
            subdirectories included) and prints what one `fuzz` over all their seeds would have: the failure \
            with the lowest seed (every distinct one with --keep-going), deduplicated by signature, with \
            `sometimes` coverage summed; the winning traces are copied into --out. Every seed the verdict \
            depends on must have been run by exactly one shard. Exit 0 every seed ran and passed, 1 a bug \
            found (even if seeds are missing), 64 usage, 65 an unreadable result, results of different \
            campaigns, or seeds run twice, 66 a missing file or missing seeds (a lost shard), 73 a trace \
            cannot be copied, 130 a shard was interrupted (or merge itself).

            \(ExitStatus.helpText(for: codes))
            """)

    /// The codes `merge` can return (the exit-code test walks each one).
    static let codes = [
        ExitStatus.ok, ExitStatus.failure, ExitStatus.inconclusive, ExitStatus.usage, ExitStatus.badTrace,
        ExitStatus.missingInput, ExitStatus.cannotWrite, ExitStatus.interrupted,
    ]

    @Argument(help: "Result files of `fuzz --result`, or directories holding them.") var results: [String]
    @Option(help: "Directory for the winning traces.") var out: String = "simrun-failures"

    /// The most directory levels searched below a directory argument.
    static let maxDepth = 4
    /// The largest result file read.
    static let maxResultBytes = 64 << 20

    func validate() throws {
        if results.isEmpty { throw ValidationError("give at least one result file or directory") }
    }

    func execute(_ context: CommandContext) throws(CommandFailure) -> Int32 {
        let console = context.console
        var found: [String] = []
        for argument in results { found += try Self.resultFiles(argument) }
        // `--out` is a directory for traces: naming a result read here would replace or hide it.
        try OutputPath.refuseInput(out, flag: "--out", inputs: found.map { ($0, "a result file merged") })
        // The same file named twice (`r/` and `r/p1.json`, or `./p1.json`) is one shard, merged once.
        var files: [String] = []
        for file in found {
            if let first = files.first(where: { sameFile($0, file) }) {
                console.err("note: \(file) is named twice (also as \(first)); merged once")
            } else {
                files.append(file)
            }
        }
        var shards: [ShardResult] = []
        for file in files {
            let bytes = try AtomicFile.read(file, limit: Self.maxResultBytes)
            do {
                shards.append(try ShardResult(parsing: String(decoding: bytes, as: UTF8.self), path: file))
            } catch {
                throw CommandFailure(ExitStatus.badTrace, "\(error)")
            }
        }
        let merged: CampaignMerge
        do {
            merged = try CampaignMerge(shards)
        } catch {
            throw CommandFailure(error.exitCode, error.message)
        }
        console.err(
            "merge \(merged.scenario)/\(merged.variant)  strategy \(merged.strategy)  seeds \(merged.seeds.lowerBound)..<\(merged.seeds.upperBound)  \(shards.count) results (shards \(shards.map(\.shard.description).joined(separator: ", ")))"
        )
        var status = merged.exitCode
        var oracleCounts: [String: Int] = [:]
        for finding in merged.findings.entries {
            let verdict = finding.evidence.verdict
            let seen = (oracleCounts[verdict.oracle] ?? 0) + 1
            oracleCounts[verdict.oracle] = seen
            if case .crashed(let message) = verdict {
                console.out("CRASH at seed \(finding.seed): \(message)")
            } else {
                console.out("FAIL at seed \(finding.seed): \(verdict)")
            }
            let shard = shards.first { $0.path == finding.evidence.result }?.shard.description ?? "?"
            console.out("  from:   \(finding.evidence.result) (shard \(shard))")
            if finding.occurrences > 1 { console.out("  \(finding.occurrences) runs failed this way") }
            let name = findingFileName(
                merged.scenario, merged.variant, oracle: verdict.oracle, suffix: seen == 1 ? "" : "-\(seen)")
            guard let source = Self.locateTrace(finding.evidence) else {
                console.out("  trace missing: \(finding.evidence.trace ?? "the shard saved none") was not found")
                if status == ExitStatus.ok { status = ExitStatus.missingInput }
                continue
            }
            // The trace reported is the one copied: already in --out, it is pointed at; else it is copied
            // under a name no other finding holds (shards may have shared this directory).
            var path = "\(out)/\(name)"
            do {
                // Made only now: an --out that cannot be written never hides the FAIL printed above.
                try ensureDirectory(out)
                if !sameFile(source, path) {
                    let claim = FindingStore.claim(
                        path,
                        for: .init(
                            scenario: merged.scenario, variant: merged.variant, strategy: merged.strategy,
                            seed: finding.seed))
                    defer { claim.release() }
                    path = claim.path
                    if !sameFile(source, path) { try AtomicFile.copy(from: source, to: path) }
                }
            } catch {
                console.out("  trace not copied: \(error.message)")
                if status == ExitStatus.ok { status = ExitStatus.cannotWrite }
                continue
            }
            if let footer = try TraceInput(path: path).footer, !FailureSignature(verdict).matches(footer.verdict) {
                console.out("  warning: the copied trace ends with \(footer.verdict), not this failure")
            }
            console.out("  trace:  \(path)")
            console.out("  replay: \(context.programName) replay \(shellQuoted(path))")
            if let scenario = try? context.catalog.scenario(named: merged.scenario),
                let hint = scenario.fixHintLine(
                    for: merged.variant, replayCommand: "\(context.programName) replay \(shellQuoted(path))")
            {
                console.out(hint)
            }
        }
        summarize(merged, shards: shards, console: console)
        return status
    }

    private func summarize(_ merged: CampaignMerge, shards: [ShardResult], console: Console) {
        console.out(
            "summary: \(merged.schedules) schedules in \(merged.resultCount) shard\(merged.resultCount == 1 ? "" : "s") (\(Int(merged.schedulesPerSecond))/s, the shards' rates added), \(merged.failures) failures, \(merged.findings.count) distinct"
        )
        for (goal, runs) in merged.sometimes {
            console.out("  sometimes \(goal): \(runs) of \(merged.schedules) runs")
        }
        if let explored = merged.explored {
            ExploredLines.print(explored, console: console)
        } else {
            console.out("  explored: not known (a result was written by a simrun that did not count schedules)")
        }
        let required = "\(merged.required.lowerBound)..<\(merged.required.upperBound)"
        // An interrupted shard's seeds were not all run: no claim that every seed was.
        if merged.coverage.missing.isEmpty && merged.coverage.overlaps.isEmpty && merged.interrupted.isEmpty {
            let stop =
                merged.required == merged.seeds
                ? "" : " (one machine stops at the lowest failing seed, \(merged.required.upperBound - 1))"
            console.out("covered: every seed of \(required) exactly once\(stop)")
        }
        let counts = Set(shards.map(\.shard.count))
        for seeds in merged.coverage.missing {
            var line = "missing: \(seeds) of \(required) were run by no shard"
            if let count = counts.first, counts.count == 1, seeds.step == UInt64(count),
                let shard = try? Shard(
                    number: Int((seeds.first - merged.seeds.lowerBound) % seeds.step) + 1, count: count)
            {
                line += " — shard \(shard)'s: rerun it with --shard \(shard) and merge again"
            }
            console.out(line)
        }
        for overlap in merged.coverage.overlaps {
            console.out(
                "overlap: \(overlap.seeds) were run by both \(overlap.owners.joined(separator: " and ")): merge one of them"
            )
        }
        if counts.count > 1 && !(merged.coverage.missing.isEmpty && merged.coverage.overlaps.isEmpty) {
            // Shards of one split (--shard K/N, one N) line up; mixing splits is why seeds are missing or doubled.
            console.out(
                "different shard counts: \(shards.map(\.shard.description).joined(separator: ", ")) come from splits into \(counts.sorted().map(String.init).joined(separator: " and ")) shards, whose seeds do not line up: merge the results of one --shard K/N split"
            )
        }
        for shard in merged.interrupted {
            console.out(
                "interrupted: shard \(shard.shard) (\(shard.result)) stopped after \(shard.schedules) schedules; its seeds were not all run"
            )
        }
    }

    /// The result files an argument names: the file itself, or the *.json files in a directory and
    /// its subdirectories (up to `maxDepth` levels), in path order.
    static func resultFiles(_ argument: String, depth: Int = 0) throws(CommandFailure) -> [String] {
        guard isDirectory(argument) else {
            guard depth == 0 || argument.hasSuffix(".json") else { return [] }
            guard fileExists(argument) else {
                throw CommandFailure(ExitStatus.missingInput, "\(argument): no such file")
            }
            return [argument]
        }
        guard depth < maxDepth else { return [] }
        guard let names = AtomicFile.names(in: argument) else {
            throw CommandFailure(ExitStatus.missingInput, "\(argument): cannot read the directory")
        }
        var files: [String] = []
        for name in names where !name.hasPrefix(".") && !name.contains(".tmp-") {
            let path = argument.hasSuffix("/") ? argument + name : argument + "/" + name
            files += try resultFiles(path, depth: depth + 1)
        }
        if depth == 0 && files.isEmpty {
            let deeper = deepestSearch(argument).map { "; \($0) is deeper: name its directory" } ?? ""
            throw CommandFailure(
                ExitStatus.missingInput,
                "\(argument): no result files (*.json) in it or in the directories below it, \(maxDepth) levels down\(deeper)")
        }
        return files
    }

    /// The first `*.json` file below `directory` deeper than `maxDepth` levels (to 16), for the message.
    private static func deepestSearch(_ directory: String, depth: Int = 0) -> String? {
        guard depth < 16, let names = AtomicFile.names(in: directory) else { return nil }
        for name in names where !name.hasPrefix(".") {
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            if isDirectory(path) {
                if let found = deepestSearch(path, depth: depth + 1) { return found }
            } else if depth >= maxDepth && name.hasSuffix(".json") {
                return path
            }
        }
        return nil
    }

    /// Where a shard's trace is now: at the path it recorded (a shared volume), or — results copied
    /// elsewhere (CI artifacts) — in its `--out` directory's name beside the result file, or beside it.
    static func locateTrace(_ evidence: CampaignMerge.Evidence) -> String? {
        guard let recorded = evidence.trace else { return nil }
        let directory = evidence.result.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        let base = directory.isEmpty ? "" : directory + "/"
        let name = recorded.split(separator: "/").last.map(String.init) ?? recorded
        let outName = evidence.out.split(separator: "/").last.map(String.init) ?? evidence.out
        return [recorded, base + outName + "/" + name, base + name].first { fileExists($0) }
    }
}
