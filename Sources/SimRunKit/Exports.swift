// `import SimRunKit` is all a user's executable needs for `SimRun.main(scenarios: [mine] +
// BuiltinScenarios.all)`: the scenario type and the built-ins come with it, and the capture of Swift
// concurrency, GCD and threads (`Scenario.async`, `sim.spawn`: SimCapture, beside the kernel).
@_exported import SimCapture
@_exported import SimCore
@_exported import SimScenarios
