import SimCore

/// The namespace of the TCA model: effects, stores, scoping reducers (after pointfreeco's
/// swift-composable-architecture), with actions split at boundaries (after bocato/tca-boundaries).
///
/// The model runs on a `Simulation`: a store lives on the simulated `main` lane, every `.run` effect is
/// an async task on the simulation's executor, and every state change and effect step is an event.
public enum TCA {
    /// The lane every store runs on: TCA's stores are `@MainActor`.
    public static let mainLane = "main"

    /// A short, deterministic description of an action: `view.queryChanged("sw")`.
    ///
    /// Built with `Mirror`, so it is the same in every run and does not print module-qualified names.
    public static func describe(_ value: Any) -> String {
        if let text = value as? String { return String(reflecting: text) }
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .enum:
            guard let payload = mirror.children.first, let label = payload.label else {
                return String(describing: value)
            }
            let inner = Mirror(reflecting: payload.value)
            if inner.displayStyle == .enum { return "\(label).\(describe(payload.value))" }
            if inner.displayStyle == .tuple { return "\(label)\(describe(payload.value))" }
            return "\(label)(\(describe(payload.value)))"
        case .tuple:
            let parts = mirror.children.map { child -> String in
                let text = describe(child.value)
                guard let label = child.label, !label.hasPrefix(".") else { return text }
                return "\(label): \(text)"
            }
            return "(" + parts.joined(separator: ", ") + ")"
        case .collection:
            return "[" + mirror.children.map { describe($0.value) }.joined(separator: ", ") + "]"
        default:
            return String(describing: value)
        }
    }

    /// The boundary of an action (`view`, `internal`, `delegate`), or `plain` for other actions.
    public static func kind(of action: Any) -> String {
        guard let featureAction = action as? any TCAFeatureAction else { return "plain" }
        return featureAction.boundaryKind
    }
}
