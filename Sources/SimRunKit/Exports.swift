// `import SimRunKit` is all a user's executable needs for `SimRun.main(scenarios: [mine] +
// BuiltinScenarios.all)`: the scenario type and the built-ins come with it.
@_exported import SimCore
@_exported import SimScenarios
