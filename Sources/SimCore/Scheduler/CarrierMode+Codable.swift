/// A carrier mode crosses to simrun's child processes in their job (a run planned with `--preempt`
/// runs on carriers there too), as its raw value: `off`, `carriers`, `preempt-locks`.
extension CarrierMode: Codable {}
