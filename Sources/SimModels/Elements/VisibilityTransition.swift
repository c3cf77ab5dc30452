/// How a view animates when it is inserted or removed, as Blueprint's `VisibilityTransition`: the
/// invisible state it animates from (insert) or to (remove).
public struct VisibilityTransition: Hashable, Sendable, CustomStringConvertible {
    public var alpha: Double
    public var scale: Double
    public var attributes: AnimationAttributes

    public init(alpha: Double, scale: Double, attributes: AnimationAttributes = .default) {
        self.alpha = alpha
        self.scale = scale
        self.attributes = attributes
    }

    public static let fade = VisibilityTransition(alpha: 0, scale: 1)
    public static let scale = VisibilityTransition(alpha: 1, scale: 0.01)
    public static let scaleAndFade = VisibilityTransition(alpha: 0, scale: 0.01)

    public var description: String { "alpha=\(alpha),scale=\(scale),\(attributes)" }
}
