/// How a view animates when it is inserted or removed, as Blueprint's `VisibilityTransition`: the
/// invisible state it animates from (insert) or to (remove).
public struct VisibilityTransition: Hashable, Sendable, CustomStringConvertible {
    /// The opacity the view animates from (appearing) or to (disappearing).
    public var alpha: Double
    /// The scale it animates from or to.
    public var scale: Double
    /// The animation's name and duration.
    public var attributes: AnimationAttributes

    /// A transition to or from `alpha` and `scale`.
    public init(alpha: Double, scale: Double, attributes: AnimationAttributes = .default) {
        self.alpha = alpha
        self.scale = scale
        self.attributes = attributes
    }

    /// Fades out or in, at full size.
    public static let fade = VisibilityTransition(alpha: 0, scale: 1)
    /// Shrinks away or grows in, fully opaque.
    public static let scale = VisibilityTransition(alpha: 1, scale: 0.01)
    /// Shrinks and fades at once.
    public static let scaleAndFade = VisibilityTransition(alpha: 0, scale: 0.01)

    /// `alpha=A,scale=S,name(Nms)`.
    public var description: String { "alpha=\(alpha),scale=\(scale),\(attributes)" }
}
