import SimRunKit
import SimScenarios

SimRun.main(scenarios: BuiltinScenarios.all)
