// `import SimTesting` is all a test file needs: `Simulation`, `Scenario` and the rest of the kernel's
// API it explores come with it (as `import SimRunKit` brings them to an executable), so the snippets
// the articles show compile as shown.
@_exported import SimCore
