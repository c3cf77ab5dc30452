import CSimInterpose

/// `Task(name:)` names (SE-0469) as identities: a task made with a name is named by it in traces
/// (`writer`, then `writer#2`, … for later tasks of the same name in a run), wherever and whenever it
/// is made, so adding or removing other tasks renames no named one.
///
/// The runtime shows an executor only the running task's name, after the task has started. simrun
/// reads the name as the task is created instead: on Linux its `swift_task_create` (CSimInterpose)
/// wraps the runtime's and reads the name option record. Where it cannot (other platforms), tasks keep
/// the names of the jobs that created them, and `areRead` is false.
public enum TaskNames {
    /// Whether `Task(name:)` names become identities in this process.
    public static var areRead: Bool { simrun_task_names_interposed() == 1 }

    /// The `Task(name:)` name of the task being created on this thread now, or nil (no name, no task
    /// being created, or names not read here).
    static var creating: String? {
        guard let raw = simrun_task_creating_name() else { return nil }
        return String(cString: raw)
    }
}
