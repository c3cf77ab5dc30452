// `import SimTesting` is all a test file needs: `Simulation`, `Scenario` and the rest of the kernel's
// API it explores come with it (as `import SimRunKit` brings them to an executable), so the snippets
// the articles show compile as shown. The capture of the run's process (`Scenario.async`, `sim.spawn`,
// GCD, locks, threads) is SimCapture's, beside the kernel: it comes with it too.
@_exported import SimCapture
@_exported import SimCore
