// SimScenarios
