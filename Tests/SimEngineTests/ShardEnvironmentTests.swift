import SimEngine
import Testing

/// `--shard auto` reads the shard a batch engine assigned: SIMRUN_SHARD, Slurm job arrays,
/// Kubernetes Indexed Jobs; anything missing, malformed or contradictory is a usage error.
@Suite struct ShardEnvironmentTests {
    func resolve(_ variables: [String: String], count: Int? = nil) throws(ShardError) -> (
        shard: Shard, source: ShardEnvironment.Source
    ) {
        try ShardEnvironment(variables).resolve(count: count)
    }

    func message(_ variables: [String: String], count: Int? = nil) -> String? {
        do {
            _ = try resolve(variables, count: count)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func parsesKOverN() throws {
        let shard = try Shard(parsing: "2/4")
        #expect(shard.number == 2 && shard.count == 4 && shard.index == 1 && shard.description == "2/4")
        #expect(Shard.whole.description == "1/1")
        for bad in ["0/4", "5/4", "2", "2/", "/4", "a/b", "2/4/6", "-1/4", "1/0"] {
            #expect(throws: ShardError.self, "\(bad)") { try Shard(parsing: bad) }
        }
    }

    @Test func ciMatrixVariableIsOneBased() throws {
        let resolved = try resolve(["SIMRUN_SHARD": "3/8"])
        #expect(resolved.shard == (try Shard(number: 3, count: 8)) && resolved.source == .simrunShard)
        #expect(message(["SIMRUN_SHARD": "9/8"])?.hasPrefix("SIMRUN_SHARD:") == true)
        #expect(message(["SIMRUN_SHARD": "3/8"], count: 4)?.contains("disagrees") == true)
        // The explicit variable wins over an engine's (a CI job that happens to run inside Slurm).
        #expect(try resolve(["SIMRUN_SHARD": "1/2", "SLURM_ARRAY_TASK_ID": "3"]).source == .simrunShard)
    }

    @Test func slurmArrayFromZeroOrOneOrWithAStep() throws {
        let zero = ["SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3", "SLURM_ARRAY_TASK_COUNT": "4"]
        for id in 0...3 {
            let resolved = try resolve(zero.merging(["SLURM_ARRAY_TASK_ID": "\(id)"]) { $1 })
            #expect(resolved.shard == (try Shard(number: id + 1, count: 4)) && resolved.source == .slurm)
        }
        let one = ["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "4"]
        #expect(try resolve(one).shard == (try Shard(number: 4, count: 4)))
        let stepped = [
            "SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6",
            "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_STEP": "2",
        ]
        #expect(try resolve(stepped).shard == (try Shard(number: 3, count: 4)))
        // A task off the array's grid is named with the array.
        let offGrid = stepped.merging(["SLURM_ARRAY_TASK_ID": "3"]) { $1 }
        #expect(message(offGrid)?.contains("SLURM_ARRAY_TASK_ID 3 is not a task of the job array 0-6:2") == true)
        // `--array=1,3,5` sets no STEP: the even gap is worked out from MIN, MAX and COUNT.
        let list = [
            "SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "5",
            "SLURM_ARRAY_TASK_COUNT": "3",
        ]
        #expect(try resolve(list).shard == (try Shard(number: 3, count: 3)))
        #expect(try resolve(zero.merging(["SLURM_ARRAY_TASK_ID": "2"]) { $1 }, count: 4).shard.number == 3)
    }

    @Test func slurmArraysThatAreNotOneShardPerTaskAreRefused() {
        let gaps = [
            "SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "7",
            "SLURM_ARRAY_TASK_COUNT": "3",
        ]
        #expect(message(gaps)?.contains("--array=0-2") == true)
        // Report 2026-11-28, old #33: with no STEP, an id off the grid MIN, MAX and COUNT describe is
        // named as such (set by hand, or a list with uneven gaps), never "not evenly spaced" alone.
        let offGrid = [
            "SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6",
            "SLURM_ARRAY_TASK_COUNT": "4",
        ]
        let offGridMessage = message(offGrid) ?? ""
        #expect(
            offGridMessage.contains("SLURM_ARRAY_TASK_ID 3 is not on the evenly spaced grid 0, 2, … 6"),
            "\(offGridMessage)")
        #expect(offGridMessage.contains("--array=0-3"), "\(offGridMessage)")
        #expect(message(["SLURM_ARRAY_TASK_ID": "2"])?.contains("SLURM_ARRAY_TASK_MIN") == true)
        let outside = ["SLURM_ARRAY_TASK_ID": "9", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"]
        #expect(message(outside)?.contains("outside") == true)
        let garbage = ["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"]
        #expect(message(garbage)?.contains("SLURM_ARRAY_TASK_ID must be") == true)
        let four = ["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "3"]
        #expect(message(four, count: 8)?.contains("disagrees") == true)
    }

    @Test func kubernetesIndexNeedsACountFromTheOptionOrTheVariable() throws {
        let fromOption = try resolve(["JOB_COMPLETION_INDEX": "0"], count: 5)
        #expect(fromOption.shard == (try Shard(number: 1, count: 5)) && fromOption.source == .kubernetes)
        let fromVariable = try resolve(["JOB_COMPLETION_INDEX": "4", "SIMRUN_SHARD_COUNT": "5"])
        #expect(fromVariable.shard == (try Shard(number: 5, count: 5)))
        #expect(message(["JOB_COMPLETION_INDEX": "0"])?.contains("SIMRUN_SHARD_COUNT") == true)
        #expect(message(["JOB_COMPLETION_INDEX": "5", "SIMRUN_SHARD_COUNT": "5"])?.contains("not below") == true)
        #expect(
            message(["JOB_COMPLETION_INDEX": "1", "SIMRUN_SHARD_COUNT": "5"], count: 4)?.contains("disagrees") == true)
    }

    @Test func noEngineIsAUsageErrorNamingEveryWay() {
        let text = message([:]) ?? ""
        for name in ["SIMRUN_SHARD", "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"] { #expect(text.contains(name)) }
        // Empty variables count as unset.
        #expect(message(["SIMRUN_SHARD": "", "JOB_COMPLETION_INDEX": ""]) == text)
    }
}
