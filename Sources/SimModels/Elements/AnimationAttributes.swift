/// An animation (its name and duration), standing in for Blueprint's `AnimationAttributes`.
public struct AnimationAttributes: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var milliseconds: Int

    public init(_ name: String = "default", milliseconds: Int = 200) {
        self.name = name
        self.milliseconds = milliseconds
    }

    public static let `default` = AnimationAttributes()

    public var description: String { "\(name)(\(milliseconds)ms)" }
}
