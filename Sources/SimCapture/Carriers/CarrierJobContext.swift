import SimCore

/// State a router keeps for the job running now (the running task's name, an actor drain's callers):
/// when a carrier pauses mid-job another job runs and overwrites it, so the carriers save it at the
/// pause and put it back when the paused job continues.
protocol CarrierJobContext: AnyObject {
    /// The per-job state now.
    func saveJobContext() -> Any
    /// Puts back what `saveJobContext` returned.
    func restoreJobContext(_ saved: Any)
}
