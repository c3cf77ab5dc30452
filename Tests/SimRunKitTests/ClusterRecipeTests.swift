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
