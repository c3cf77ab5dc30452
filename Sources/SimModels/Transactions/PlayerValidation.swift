import SimCore

/// Player's navigation validation reduced to `required` bindings per view.
///
/// Player's `ValidationController.validateView("navigation")` answers whether the current view may
/// be left and which bindings fail (player-ui/player `core/player/src/controllers/validation/controller.ts`);
/// `player.ts` taps the flow's `skipTransition` with it and, when blocked, calls
/// `currentView.update(bindings)` so the view shows the errors. The check reads the data model only:
/// text typed but not yet committed does not count.
public final class PlayerValidation {
    private unowned let simulation: Simulation
    private let data: PlayerDataModel
    private let required: [String: [String]]

    /// Validation for `required` (view ref → bindings that must be non-empty to navigate away).
    public init(_ simulation: Simulation, data: PlayerDataModel, required: [String: [String]]) {
        self.simulation = simulation
        self.data = data
        self.required = required
    }

    /// The bindings of `viewRef` that fail navigation validation, in declaration order (empty: may leave).
    public func validateNavigation(_ viewRef: String) -> [String] {
        let failing = (required[viewRef] ?? []).filter { data.get($0).isEmpty }
        simulation.emit(
            "validation.navigation", viewRef,
            ["canTransition": .bool(failing.isEmpty), "failing": .text(failing.joined(separator: ","))])
        return failing
    }
}
