/// An animation (its name and duration), standing in for Blueprint's `AnimationAttributes`.
public struct AnimationAttributes: Hashable, Sendable, CustomStringConvertible {
    /// A name for the animation, shown in events.
    public var name: String
    /// How long it runs, in virtual milliseconds.
    public var milliseconds: Int

    /// An animation called `name` lasting `milliseconds`.
    public init(_ name: String = "default", milliseconds: Int = 200) {
        self.name = name
        self.milliseconds = milliseconds
    }

    /// `default`, 200 ms.
    public static let `default` = AnimationAttributes()

    /// `name(Nms)`.
    public var description: String { "\(name)(\(milliseconds)ms)" }
}
