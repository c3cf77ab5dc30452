import SimCore

/// Ready-made task executors: work that finishes later on the virtual clock.
public enum BoardExecutor {
    /// An executor that finishes after `delay` on `lane` and succeeds with `output(input)`, or fails
    /// when the decision at `site` says so (only when `canFail`).
    public static func timed(
        _ sim: Simulation, lane: String, delay: Duration, site: String, canFail: Bool = true,
        output: @escaping (BoardValue) -> BoardValue = { $0 }
    ) -> (BoardValue, @escaping (BoardTaskResult) -> Void) -> Void {
        { input, completion in
            sim.after(delay, on: sim.lane(lane), site) {
                let fails = canFail && sim.choose(2, site + ".outcome") == 1
                completion(fails ? .failure(BoardError("\(site) failed")) : .success(output(input)))
            }
        }
    }
}
