/// How a view animates when its layout changes in an update, as Blueprint's `LayoutTransition`.
///
/// The animation a view passes on to its descendants is resolved down the tree:
/// `none` passes no animation, `inherited` passes its parent's, `inheritedWithFallback(f)` passes
/// its parent's or else `f`, and `specific(a)` passes `a`.
public enum LayoutTransition: Hashable, Sendable {
    /// No animation, whatever is inherited.
    case none
    /// This animation, whatever is inherited.
    case specific(AnimationAttributes = .default)
    /// The animation inherited from above, or none.
    case inherited
    /// The animation inherited from above, or this one when nothing is inherited.
    case inheritedWithFallback(AnimationAttributes = .default)

    /// The animation in effect under this transition, given the one inherited from above.
    public func resolve(inherited: AnimationAttributes?) -> AnimationAttributes? {
        switch self {
        case .none: nil
        case .inherited: inherited
        case .inheritedWithFallback(let fallback): inherited ?? fallback
        case .specific(let attributes): attributes
        }
    }
}
