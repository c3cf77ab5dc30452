// From Sources/SimScenarios/LostInputNavigation.swift
simulation.post(touch, simulation.symbol("action.tap")) {
    script.tapped = true
    if !script.blurred { simulation.reach("tap before blur") }
    if fixed { next.commitCallbacksThenCall() } else { next.run() }
}

