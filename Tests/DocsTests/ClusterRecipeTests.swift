import Foundation
import SimTestSupport
import Testing

/// The engine recipes (deploy/kubernetes, tools/github, tools/slurm) keep the structure their engine
/// needs and run simrun the way `--shard auto` and `merge` expect. The YAML is read with `BlockYAML`,
/// a strict parser of the subset the recipes use (no dependency; `kubectl` is not needed to check
/// the field names we write).
@Suite struct ClusterRecipeTests {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func text(_ path: String) throws -> String {
        try String(contentsOf: Self.package.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theParserReadsTheSubsetAndRefusesTheRest() throws {
        let documents = try BlockYAML.documents(
            """
            # a comment
            a: 1
            b:
              - x
              - k: v
                j: "quoted # not a comment"
            c: [1, 2]
            d: |
              line one
                indented
            e:
            - at the key's column
            ---
            f: 'g'  # trailing comment
            """)
        #expect(documents.count == 2)
        #expect(documents[0].at("a")?.string == "1")
        #expect(documents[0].at("b.0")?.string == "x")
        #expect(documents[0].at("b.1.j")?.string == "quoted # not a comment")
        #expect(documents[0].at("c")?.items.compactMap(\.string) == ["1", "2"])
        #expect(documents[0].at("d")?.string == "line one\n  indented\n")
        #expect(documents[0].at("e.0")?.string == "at the key's column")
        #expect(documents[1].at("f")?.string == "g")
        for bad in ["a: &anchor 1", "a: {b: 1}", "a: 1\n  b: 2", "a: 1\na: 2", "just text", "a: \"open"] {
            #expect(throws: BlockYAML.ParseError.self, "\(bad)") { try BlockYAML.documents(bad) }
        }
    }

    @Test func kubernetesManifestIsAnIndexedJobWithASharedVolumeAndASuspendedMerge() throws {
        let documents = try BlockYAML.documents(try text("deploy/kubernetes/fuzz-indexed-job.yaml"))
        #expect(documents.map { $0.at("kind")?.string } == ["PersistentVolumeClaim", "Job", "Job"])
        let claim = documents[0]
        let claimName = try #require(claim.at("metadata.name")?.string)
        #expect(claim.at("spec.accessModes")?.items.compactMap(\.string) == ["ReadWriteMany"])

        let fuzz = documents[1]
        #expect(fuzz.at("apiVersion")?.string == "batch/v1")
        #expect(fuzz.at("spec.completionMode")?.string == "Indexed")
        let completions = try #require(fuzz.at("spec.completions")?.string.flatMap { Int($0) })
        let parallelism = try #require(fuzz.at("spec.parallelism")?.string.flatMap { Int($0) })
        #expect(completions >= 1 && parallelism >= 1 && parallelism <= completions)
        let pod = try #require(fuzz.at("spec.template.spec"))
        #expect(pod.at("restartPolicy")?.string == "Never")
        let container = try #require(pod.at("containers.0"))
        // Kubernetes does not tell a pod its Job's completions: SIMRUN_SHARD_COUNT must say the same.
        let env = container.at("env")?.items ?? []
        let count = env.first { $0.at("name")?.string == "SIMRUN_SHARD_COUNT" }?.at("value")?.string
        #expect(count == String(completions))
        let script = (container.at("command")?.items ?? []).compactMap(\.string).joined(separator: " ")
        #expect(script.contains("simrun fuzz") && script.contains("--shard auto"))
        let mount = try #require(container.at("volumeMounts.0"))
        let mountPath = try #require(mount.at("mountPath")?.string)
        #expect(script.contains("--result \"\(mountPath)/shard-$JOB_COMPLETION_INDEX.json\""))
        #expect(script.contains("--out \"\(mountPath)/traces-$JOB_COMPLETION_INDEX\""))
        #expect(script.contains("exit 0"), "exit 1 (a bug found) must not make Kubernetes retry the shard")
        #expect(volumeClaim(named: mount.at("name")?.string, in: pod) == claimName)

        let merge = documents[2]
        #expect(merge.at("spec.suspend")?.string == "true", "merge must wait until the shards are done")
        let mergePod = try #require(merge.at("spec.template.spec"))
        let mergeContainer = try #require(mergePod.at("containers.0"))
        let command = (mergeContainer.at("command")?.items ?? []).compactMap(\.string)
        let mergeMount = try #require(mergeContainer.at("volumeMounts.0.mountPath")?.string)
        #expect(Array(command.prefix(3)) == ["simrun", "merge", mergeMount])
        #expect(volumeClaim(named: mergeContainer.at("volumeMounts.0.name")?.string, in: mergePod) == claimName)
    }

    func volumeClaim(named name: String?, in pod: BlockYAML) -> String? {
        let volume = (pod.at("volumes")?.items ?? []).first { $0.at("name")?.string == name }
        return volume?.at("persistentVolumeClaim.claimName")?.string
    }

    @Test func githubWorkflowSetsSimrunShardPerMatrixJobAndMergesEvenAfterAFailedShard() throws {
        let workflow = try #require(try BlockYAML.documents(try text("tools/github/fuzz-matrix.yml")).first)
        let fuzz = try #require(workflow.at("jobs.fuzz"))
        let shards = (fuzz.at("strategy.matrix.shard")?.items ?? []).compactMap(\.string)
        #expect(shards == (1...shards.count).map(String.init) && !shards.isEmpty)
        #expect(fuzz.at("strategy.fail-fast")?.string == "false")
        #expect(fuzz.at("env.SIMRUN_SHARD")?.string == "${{ matrix.shard }}/\(shards.count)")
        let runs = (fuzz.at("steps")?.items ?? []).compactMap { $0.at("run")?.string }.joined(separator: "\n")
        #expect(runs.contains("--shard auto") && runs.contains("--result"))
        let merge = try #require(workflow.at("jobs.merge"))
        #expect(merge.at("needs")?.string == "fuzz")
        #expect(merge.at("if")?.string == "${{ always() }}", "a lost shard must be reported by merge, not skipped")
        let mergeRuns = (merge.at("steps")?.items ?? []).compactMap { $0.at("run")?.string }
        #expect(mergeRuns.contains { $0.contains("simrun merge") })
    }

    @Test func slurmScriptsAreValidBash() throws {
        for script in ["tools/slurm/fuzz-array.sbatch", "tools/slurm/run-local-cluster.sh"] {
            let output = try Process.run(
                executable: "/bin/bash", ["-n", Self.package.appendingPathComponent(script).path])
            #expect(output.status == 0, "\(script): \(output.stderr)")
        }
        let sbatch = try text("tools/slurm/fuzz-array.sbatch")
        #expect(sbatch.contains("#SBATCH --array=") && sbatch.contains("--shard auto") && sbatch.contains("--result"))
    }
}

/// The recipes' own commands, run as their engine would run them (the variables it sets, a shared
/// directory), then merged: the Slurm script and the Kubernetes pods' command lines, minus the engine.
@Suite struct ClusterRecipeRunTests {
    @Test func slurmArrayScriptRunsEachTaskAsItsShardAndMergeCoversEverySeed() throws {
        let directory = try makeTemporaryDirectory("sbatch")
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = ClusterRecipeTests.package.appendingPathComponent("tools/slurm/fuzz-array.sbatch").path
        for variant in ["fixed", "buggy"] {
            for task in 0..<4 {
                let run = try SimrunProcess.run(
                    executable: URL(fileURLWithPath: "/bin/bash"),
                    [script, "lost-input-navigation", "--variant", variant, "--seeds", "0..<200"], in: directory,
                    environment: [
                        "SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3",
                        "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_JOB_ID": variant, "SLURM_CPUS_PER_TASK": "1",
                        "SIMRUN": SimrunProcess.executable.path, "SLURM_SUBMIT_DIR": directory.path,
                    ])
                // A bug found is the shard's result, not a failed task.
                #expect(run.status == 0, "task \(task): \(run.stderr)")
                #expect(run.stderr.contains("shard \(task + 1)/4 (slurm)"), "\(run.stderr)")
            }
            let merged = try SimrunProcess.run(["merge", "simrun-results/\(variant)"], in: directory)
            #expect(merged.status == (variant == "buggy" ? 1 : 0), "\(merged.stdout)\(merged.stderr)")
            #expect(merged.stdout.contains("covered: every seed of 0..<"), "\(merged.stdout)")
        }
    }

    @Test func kubernetesPodCommandsWithTheirIndexThenTheMergeGiveOneMachinesVerdict() throws {
        let directory = try makeTemporaryDirectory("indexed-job")
        defer { try? FileManager.default.removeItem(at: directory) }
        let documents = try BlockYAML.documents(
            try ClusterRecipeTests().text("deploy/kubernetes/fuzz-indexed-job.yaml"))
        let fuzz = try #require(documents[1].at("spec.template.spec.containers.0"))
        let completions = try #require(documents[1].at("spec.completions")?.string.flatMap { Int($0) })
        let mount = try #require(fuzz.at("volumeMounts.0.mountPath")?.string)
        let command = (fuzz.at("command")?.items ?? []).compactMap(\.string)
        #expect(Array(command.prefix(2)) == ["/bin/sh", "-c"])
        // The pods' shared volume is a directory here, and `simrun` the built executable.
        let binary = SimrunProcess.executable.path
        let script = try #require(command.last).replacingOccurrences(of: "simrun fuzz", with: "'\(binary)' fuzz")
            .replacingOccurrences(of: mount, with: directory.appendingPathComponent("results").path)
        let environment = (fuzz.at("env")?.items ?? []).reduce(into: [String: String]()) {
            $0[$1.at("name")?.string ?? ""] = $1.at("value")?.string
        }
        for index in 0..<completions {
            let pod = try SimrunProcess.run(
                executable: URL(fileURLWithPath: "/bin/sh"), ["-c", script], in: directory,
                environment: environment.merging(["JOB_COMPLETION_INDEX": "\(index)"]) { $1 })
            #expect(pod.status == 0, "pod \(index): \(pod.stderr)")
        }
        let mergeCommand = (documents[2].at("spec.template.spec.containers.0.command")?.items ?? []).compactMap(
            \.string)
        let mergeArguments = mergeCommand.dropFirst().map {
            $0.replacingOccurrences(of: mount, with: directory.appendingPathComponent("results").path)
        }
        let merged = try SimrunProcess.run(Array(mergeArguments), in: directory)
        // One machine over the same seeds: the fuzz arguments of the pod's script, without the shard.
        let single = try SimrunProcess.run(
            ["fuzz", "lost-input-navigation", "--variant", "buggy", "--seeds", "0..<1000000", "--no-show"],
            in: directory)
        let verdict = { (text: String) in text.split(separator: "\n").filter { $0.hasPrefix("FAIL at seed") } }
        #expect(merged.status == single.status && !verdict(merged.stdout).isEmpty, "\(merged.stdout)\(merged.stderr)")
        #expect(verdict(merged.stdout) == verdict(single.stdout))
        #expect(script.contains("--variant buggy --seeds '0..<1000000'"), "keep this test's one-machine run in step")
    }
}

extension Process {
    /// Runs an executable to its end and returns its status and standard error.
    static func run(executable: String, _ arguments: [String]) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
