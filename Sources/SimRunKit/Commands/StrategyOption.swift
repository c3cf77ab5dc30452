import ArgumentParser
import SimCore
import SimEngine

extension StrategySpec: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
    public static var defaultCompletionKind: CompletionKind { .list(Kind.allCases.map(\.rawValue)) }
}
