import SimCore

/// Player's reference input asset on the native side: local text, a binding, and the pending
/// `.input` transaction it registers while being edited.
///
/// Typing changes only the local text. Editing begins → register `.input { set() }`; editing
/// ends → `set()` then `clear(.input)`. Every native update of the asset's own view copies the
/// binding's value into the local text (the view model's data sink), whatever the user has typed;
/// updates of other views do not reach it (each view has its own assets). A binding with no value
/// leaves the text alone: the sink maps an optional (`(newData.value?.stringValue).map { text = $0 }`
/// in player-ui/player `plugins/reference-assets/swiftui/Sources/SwiftUI/InputAsset.swift`).
public final class PlayerInputAsset {
    private unowned let simulation: Simulation
    private let data: PlayerDataModel
    private let transactions: TransactionContext<PendingTransactionPhases>

    /// The asset's id, the subject of its events.
    public let id: String
    /// The data-model binding it saves to and is updated from.
    public let binding: String
    /// The view the asset belongs to.
    public let viewRef: String
    /// The text shown in the field.
    public private(set) var text = ""
    /// True between focus and blur.
    public private(set) var isEditing = false
    /// Every time a view update replaced text the user had typed but not saved: (typed, replacement).
    public private(set) var overwrites: [(typed: String, with: String)] = []

    /// An input asset of `viewRef` bound to `binding`; sessions make them with `input(_:binding:view:)`.
    public init(
        _ simulation: Simulation, id: String, binding: String, data: PlayerDataModel,
        transactions: TransactionContext<PendingTransactionPhases>, views: PlayerViewController, view viewRef: String
    ) {
        self.simulation = simulation
        self.id = id
        self.binding = binding
        self.viewRef = viewRef
        self.data = data
        self.transactions = transactions
        views.onNativeUpdate { [weak self] update in
            // nil: the view does not show the binding, or the binding holds no value.
            guard update.viewRef == viewRef, let self, let value = update.value(of: binding) else { return }
            sink(value, update)
        }
    }

    /// Editing begins: registers the `.input` transaction that saves the local text.
    public func focus() {
        isEditing = true
        simulation.emit("input.focus", id)
        // Weak, as Player's: the session owns the asset. If the session itself was freed with this
        // commit pending, the run fails rather than silently saving nothing.
        transactions.register(.input) { [weak self, unowned simulation, id] in
            guard let self else {
                simulation.fail(
                    "player-asset-alive",
                    "input '\(id)' was freed with its .input transaction pending (keep the session)")
                return
            }
            set()
        }
    }

    /// The user types `characters`: only the local text changes.
    public func type(_ characters: String) {
        text += characters
        simulation.emit("input.type", id, ["text": .text(text)])
    }

    /// Editing ends: saves the local text, then clears the `.input` transactions.
    public func blur() {
        isEditing = false
        simulation.emit("input.blur", id, ["text": .text(text)])
        set()
        transactions.clear(.input)
    }

    /// Writes the local text into the binding.
    public func set() { data.set(binding, text) }

    /// Unsaved: being edited, and the field shows something the data model does not hold.
    public var hasUnsavedText: Bool { isEditing && text != data.get(binding) }

    private func sink(_ value: String, _ update: PlayerViewUpdate) {
        let lost = hasUnsavedText && value != text
        if lost { overwrites.append((text, value)) }
        simulation.emit(
            "input.sink", id,
            [
                "from": .text(text), "to": .text(value), "lostTyping": .bool(lost),
                "update": .text(update.reason),
            ])
        text = value
    }
}
