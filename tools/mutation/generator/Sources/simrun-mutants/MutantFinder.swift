import SwiftSyntax

/// Walks one parsed file and collects every mutant its operators make.
///
/// Left alone, on purpose (each is listed with its reason in the Contributing article):
/// - code inside `#if` clauses: on this platform a clause may not be compiled at all, and a mutant
///   there would survive without telling anything;
/// - the arguments of assertions (`precondition`, `assert`, `fatalError`, …): a weaker assertion
///   about an invariant that holds is not a wrong answer;
/// - a closure's or function's single expression (its implicit return value).
final class MutantFinder: SyntaxVisitor {
    private let file: String
    private let converter: SourceLocationConverter
    private let text: [UInt8]
    private(set) var mutants: [Mutant] = []
    private var seenRanges = Set<String>()
    /// How many `#if` clauses the finder left out, for the generator's summary.
    private(set) var skippedIfConfig = 0

    static let assertions: Set<String> = [
        "precondition", "preconditionFailure", "assert", "assertionFailure", "fatalError",
        "dispatchPrecondition",
    ]
    static let boundary: [String: String] = ["<": "<=", "<=": "<", ">": ">=", ">=": ">", "..<": "...", "...": "..<"]
    static let relational: [String: String] = [
        "<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "==", "===": "!==", "!==": "===",
    ]
    static let logical: [String: String] = ["&&": "||", "||": "&&"]
    static let arithmetic: [String: String] = ["+": "-", "-": "+", "+=": "-=", "-=": "+=", "&+": "&-", "&-": "&+"]
    static let ends: [String: String] = [
        "first": "last", "last": "first", "firstIndex": "lastIndex", "lastIndex": "firstIndex",
        "min": "max", "max": "min", "dropFirst": "dropLast", "dropLast": "dropFirst",
        "removeFirst": "removeLast", "removeLast": "removeFirst", "popFirst": "popLast", "popLast": "popFirst",
        "prefix": "suffix", "suffix": "prefix",
    ]

    init(file: String, tree: SourceFileSyntax) {
        self.file = file
        self.converter = SourceLocationConverter(fileName: file, tree: tree)
        self.text = Array(tree.syntaxTextBytes)
        super.init(viewMode: .sourceAccurate)
    }

    // MARK: - Where not to mutate

    override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
        skippedIfConfig += 1
        return .skipChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let callee = node.calledExpression.as(DeclReferenceExprSyntax.self) {
            let name = callee.baseName.text
            if Self.assertions.contains(name) { return .skipChildren }
            if name == "min" || name == "max", node.arguments.count >= 2 {
                add(callee, Self.ends[name]!, .ends, change: "`\(name)(…)` → `\(Self.ends[name]!)(…)`")
            }
        }
        quantifier(node)
        return .visitChildren
    }

    // MARK: - Operators in expressions

    override func visit(_ node: BinaryOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        let symbol = node.operator.text
        if let other = Self.boundary[symbol] { add(node, other, .boundary, change: "`\(symbol)` → `\(other)`") }
        if let other = Self.relational[symbol] { add(node, other, .relational, change: "`\(symbol)` → `\(other)`") }
        if let other = Self.logical[symbol] { add(node, other, .logical, change: "`\(symbol)` → `\(other)`") }
        if let other = Self.arithmetic[symbol], !nextToTextOrArray(node) {
            add(node, other, .arithmetic, change: "`\(symbol)` → `\(other)`")
        }
        return .visitChildren
    }

    override func visit(_ node: PrefixOperatorExprSyntax) -> SyntaxVisitorContinueKind {
        if node.operator.text == "!" {
            add(node, node.expression.trimmedDescription, .removeNegation, change: "`!` removed")
        }
        return .visitChildren
    }

    override func visit(_ node: BooleanLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        let value = node.literal.text == "true" ? "false" : "true"
        add(node, value, .booleanLiteral, change: "`\(node.literal.text)` → `\(value)`")
        return .visitChildren
    }

    override func visit(_ node: IntegerLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        guard let list = node.parent?.as(ExprListSyntax.self) else { return .visitChildren }
        let digits = node.literal.text.replacingUnderscores()
        guard let value = Int(digits), String(value) == digits else { return .visitChildren }
        let elements = Array(list)
        guard let index = elements.firstIndex(where: { $0.id == node.id }) else { return .visitChildren }
        let neighbours = [index - 1, index + 1].filter { elements.indices.contains($0) }
        let additive = neighbours.contains { position in
            guard let op = elements[position].as(BinaryOperatorExprSyntax.self) else { return false }
            return ["+", "-", "&+", "&-"].contains(op.operator.text)
        }
        guard additive else { return .visitChildren }
        add(node, String(value + 1), .offByOne, change: "`\(value)` → `\(value + 1)`")
        if value > 0 { add(node, String(value - 1), .offByOne, change: "`\(value)` → `\(value - 1)`") }
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.declName.baseName.text
        guard let other = Self.ends[name] else { return .visitChildren }
        if let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id {
            // `prefix(while:)` has no `suffix(while:)`; `first(where:)` and `last(where:)` both exist.
            if call.arguments.first?.label?.text == "while" { return .visitChildren }
            if name == "min" || name == "max", call.arguments.count >= 2 { return .visitChildren }
        }
        add(node.declName.baseName, other, .ends, change: "`.\(name)` → `.\(other)`")
        return .visitChildren
    }

    // MARK: - Conditions

    override func visit(_ node: ConditionElementSyntax) -> SyntaxVisitorContinueKind {
        if case .expression(let expression) = node.condition {
            negate(expression)
        }
        return .visitChildren
    }

    override func visit(_ node: RepeatStmtSyntax) -> SyntaxVisitorContinueKind {
        negate(node.condition)
        return .visitChildren
    }

    override func visit(_ node: WhereClauseSyntax) -> SyntaxVisitorContinueKind {
        negate(node.condition)
        return .visitChildren
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        // `condition ? a : b`, unfolded: the condition is everything from the last assignment
        // before the `?` (or the start) up to it.
        let elements = Array(node.elements)
        guard let ternary = elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }) else {
            return .visitChildren
        }
        var first = 0
        for index in 0..<ternary where elements[index].is(AssignmentExprSyntax.self) { first = index + 1 }
        if let op = elements[..<ternary].last(where: { $0.is(BinaryOperatorExprSyntax.self) })?
            .as(BinaryOperatorExprSyntax.self), op.operator.text.hasSuffix("="), op.operator.text.count >= 2,
            !["==", "!=", "<=", ">=", "===", "!=="].contains(op.operator.text)
        {
            return .visitChildren  // a compound assignment before the `?`: leave the precedence puzzle alone
        }
        guard first < ternary else { return .visitChildren }
        let start = elements[first].positionAfterSkippingLeadingTrivia.utf8Offset
        let end = elements[ternary - 1].endPositionBeforeTrailingTrivia.utf8Offset
        let original = slice(start, end)
        addRange(
            start: start, end: end, original: original, replacement: "!(\(original))", .negateCondition,
            function: context(of: Syntax(node)), position: elements[first].positionAfterSkippingLeadingTrivia,
            change: "`\(short(original))` → `!(…)`")
        return .visitChildren
    }

    // MARK: - Statements

    override func visit(_ node: CodeBlockItemSyntax) -> SyntaxVisitorContinueKind {
        guard !insideSkippedCall(Syntax(node)) else { return .skipChildren }
        let items = node.parent?.as(CodeBlockItemListSyntax.self)
        let alone = items?.count == 1
        let container = items?.parent
        if let guardStatement = node.item.as(GuardStmtSyntax.self) {
            let plain = guardStatement.conditions.allSatisfy {
                if case .expression = $0.condition { return true } else { return false }
            }
            if plain, exits(guardStatement.body) {
                remove(node, change: "`guard \(short(guardStatement.conditions.trimmedDescription))` removed", op: .removeEarlyExit)
            }
            return .visitChildren
        }
        guard let expression = statementExpression(node) else { return .visitChildren }
        if let ifExpression = expression.as(IfExprSyntax.self) {
            if ifExpression.elseBody == nil, exits(ifExpression.body) {
                remove(node, change: "`if \(short(ifExpression.conditions.trimmedDescription)) { … }` removed", op: .removeEarlyExit)
            }
            return .visitChildren
        }
        guard doesSomething(expression) else { return .visitChildren }
        // `self.x = x` in an initializer sets a stored property: without it the file does not compile.
        if isInitializerStore(expression) { return .visitChildren }
        if alone, let container, container.is(ClosureExprSyntax.self) || container.is(CodeBlockSyntax.self)
            && (container.parent?.is(FunctionDeclSyntax.self) == true || container.parent?.is(AccessorDeclSyntax.self) == true)
        {
            return .visitChildren  // the body's implicit return value
        }
        if alone, container?.is(AccessorBlockSyntax.self) == true { return .visitChildren }
        if alone, container?.is(SwitchCaseSyntax.self) == true {
            replace(node, with: "break", change: "`\(short(node.trimmedDescription))` removed (`break`)")
        } else {
            remove(node, change: "`\(short(node.trimmedDescription))` removed", op: .removeStatement)
        }
        return .visitChildren
    }

    // MARK: - Helpers

    private func statementExpression(_ node: CodeBlockItemSyntax) -> ExprSyntax? {
        if let statement = node.item.as(ExpressionStmtSyntax.self) { return statement.expression }
        return node.item.as(ExprSyntax.self)
    }

    /// A call, an assignment or a compound assignment, possibly under `try` or `await`.
    private func doesSomething(_ expression: ExprSyntax) -> Bool {
        var expression = expression
        while true {
            if let tried = expression.as(TryExprSyntax.self) { expression = tried.expression; continue }
            if let awaited = expression.as(AwaitExprSyntax.self) { expression = awaited.expression; continue }
            break
        }
        if let call = expression.as(FunctionCallExprSyntax.self) {
            let callee = call.calledExpression.trimmedDescription
            if Self.assertions.contains(callee) { return false }
            if callee.hasSuffix("super.init") || callee.hasSuffix("self.init") || callee == "super.init" { return false }
            return true
        }
        if let sequence = expression.as(SequenceExprSyntax.self) {
            return sequence.elements.contains { element in
                if element.is(AssignmentExprSyntax.self) { return true }
                if let op = element.as(BinaryOperatorExprSyntax.self) {
                    let text = op.operator.text
                    return text.hasSuffix("=") && !["==", "!=", "<=", ">=", "===", "!=="].contains(text)
                }
                return false
            }
        }
        return false
    }

    private func isInitializerStore(_ expression: ExprSyntax) -> Bool {
        guard let sequence = expression.as(SequenceExprSyntax.self),
            sequence.elements.dropFirst().first?.is(AssignmentExprSyntax.self) == true,
            sequence.elements.first?.trimmedDescription.hasPrefix("self.") == true
        else { return false }
        var current = expression.parent
        while let node = current {
            if node.is(InitializerDeclSyntax.self) { return true }
            if node.is(FunctionDeclSyntax.self) || node.is(ClosureExprSyntax.self) { return false }
            current = node.parent
        }
        return false
    }

    /// Whether a block ends by leaving: `return`, `throw`, `break` or `continue`.
    private func exits(_ block: CodeBlockSyntax) -> Bool {
        guard let last = block.statements.last?.item else { return false }
        return last.is(ReturnStmtSyntax.self) || last.is(ThrowStmtSyntax.self) || last.is(BreakStmtSyntax.self)
            || last.is(ContinueStmtSyntax.self)
            || last.as(ExpressionStmtSyntax.self)?.expression.is(ReturnStmtSyntax.self) == true
    }

    private func negate(_ expression: ExprSyntax) {
        if insideSkippedCall(Syntax(expression)) { return }
        // `!x` negated is `remove-negation`'s mutant, and `a < b` negated is `relational`'s: one each.
        if expression.is(PrefixOperatorExprSyntax.self) { return }
        if let sequence = expression.as(SequenceExprSyntax.self), sequence.elements.count == 3,
            let op = sequence.elements.dropFirst().first?.as(BinaryOperatorExprSyntax.self),
            Self.relational[op.operator.text] != nil
        {
            return
        }
        let original = expression.trimmedDescription
        add(expression, "!(\(original))", .negateCondition, change: "`\(short(original))` → `!(…)`")
    }

    /// `x.allSatisfy(p)` ↔ `x.contains(where: p)`, and the trailing-closure forms.
    private func quantifier(_ call: FunctionCallExprSyntax) {
        guard let member = call.calledExpression.as(MemberAccessExprSyntax.self) else { return }
        let name = member.declName.baseName
        let arguments = Array(call.arguments)
        switch name.text {
        case "allSatisfy":
            if call.trailingClosure != nil, arguments.isEmpty {
                add(name, "contains", .quantifier, change: "`allSatisfy` → `contains(where:)`")
            } else if arguments.count == 1, arguments[0].label == nil {
                let start = name.positionAfterSkippingLeadingTrivia.utf8Offset
                let end = arguments[0].expression.positionAfterSkippingLeadingTrivia.utf8Offset
                addRange(
                    start: start, end: end, original: slice(start, end), replacement: "contains(where: ", .quantifier,
                    function: context(of: Syntax(call)), position: name.positionAfterSkippingLeadingTrivia,
                    change: "`allSatisfy` → `contains(where:)`")
            }
        case "contains":
            if call.trailingClosure != nil, arguments.isEmpty {
                add(name, "allSatisfy", .quantifier, change: "`contains(where:)` → `allSatisfy`")
            } else if arguments.count == 1, arguments[0].label?.text == "where" {
                let start = name.positionAfterSkippingLeadingTrivia.utf8Offset
                let end = arguments[0].expression.positionAfterSkippingLeadingTrivia.utf8Offset
                addRange(
                    start: start, end: end, original: slice(start, end), replacement: "allSatisfy(", .quantifier,
                    function: context(of: Syntax(call)), position: name.positionAfterSkippingLeadingTrivia,
                    change: "`contains(where:)` → `allSatisfy`")
            }
        default:
            break
        }
    }

    /// Whether `+`/`-` sits next to a string or array literal (concatenation, not arithmetic).
    private func nextToTextOrArray(_ node: BinaryOperatorExprSyntax) -> Bool {
        guard let list = node.parent?.as(ExprListSyntax.self) else { return false }
        let elements = Array(list)
        guard let index = elements.firstIndex(where: { $0.id == node.id }) else { return false }
        return [index - 1, index + 1].contains { position in
            guard elements.indices.contains(position) else { return false }
            let element = elements[position]
            return element.is(StringLiteralExprSyntax.self) || element.is(ArrayExprSyntax.self)
        }
    }

    private func insideSkippedCall(_ node: Syntax) -> Bool {
        var current = node.parent
        while let node = current {
            if node.is(IfConfigClauseSyntax.self) { return true }
            if let call = node.as(FunctionCallExprSyntax.self),
                let callee = call.calledExpression.as(DeclReferenceExprSyntax.self),
                Self.assertions.contains(callee.baseName.text)
            {
                return true
            }
            current = node.parent
        }
        return false
    }

    private func add(_ node: some SyntaxProtocol, _ replacement: String, _ op: Operator, change: String) {
        if insideSkippedCall(Syntax(node)) { return }
        let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = node.endPositionBeforeTrailingTrivia.utf8Offset
        addRange(
            start: start, end: end, original: slice(start, end), replacement: replacement, op,
            function: context(of: Syntax(node)), position: node.positionAfterSkippingLeadingTrivia, change: change)
    }

    private func remove(_ node: CodeBlockItemSyntax, change: String, op: Operator) {
        if insideSkippedCall(Syntax(node)) { return }
        let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = node.endPositionBeforeTrailingTrivia.utf8Offset
        addRange(
            start: start, end: end, original: slice(start, end), replacement: "", op,
            function: context(of: Syntax(node)), position: node.positionAfterSkippingLeadingTrivia, change: change)
    }

    private func replace(_ node: CodeBlockItemSyntax, with replacement: String, change: String) {
        let start = node.positionAfterSkippingLeadingTrivia.utf8Offset
        let end = node.endPositionBeforeTrailingTrivia.utf8Offset
        addRange(
            start: start, end: end, original: slice(start, end), replacement: replacement, .removeStatement,
            function: context(of: Syntax(node)), position: node.positionAfterSkippingLeadingTrivia, change: change)
    }

    private func addRange(
        start: Int, end: Int, original: String, replacement: String, _ op: Operator, function: String,
        position: AbsolutePosition, change: String
    ) {
        guard original != replacement else { return }
        let id = "\(start):\(end):\(replacement)"
        guard seenRanges.insert(id).inserted else { return }
        let location = converter.location(for: position)
        mutants.append(
            Mutant(
                file: file, line: location.line, column: location.column, start: start, end: end, original: original,
                replacement: replacement, op: op, function: function, change: change))
    }

    private func slice(_ start: Int, _ end: Int) -> String {
        String(decoding: text[start..<end], as: UTF8.self)
    }

    private func short(_ text: String) -> String {
        let line = Mutant.squeeze(text)
        return line.count <= 60 ? line : String(line.prefix(57)) + "…"
    }

    /// `Type.member` for the declaration around `node` (types from the outside in).
    private func context(of node: Syntax) -> String {
        var names: [String] = []
        var current: Syntax? = node
        while let node = current {
            if let function = node.as(FunctionDeclSyntax.self) {
                names.append(function.name.text)
            } else if node.is(InitializerDeclSyntax.self) {
                names.append("init")
            } else if let variable = node.as(VariableDeclSyntax.self), node.parent?.is(MemberBlockItemSyntax.self) == true {
                if let binding = variable.bindings.first { names.append(binding.pattern.trimmedDescription) }
            } else if node.is(SubscriptDeclSyntax.self) {
                names.append("subscript")
            } else if let type = node.as(StructDeclSyntax.self) {
                names.append(type.name.text)
            } else if let type = node.as(ClassDeclSyntax.self) {
                names.append(type.name.text)
            } else if let type = node.as(EnumDeclSyntax.self) {
                names.append(type.name.text)
            } else if let type = node.as(ActorDeclSyntax.self) {
                names.append(type.name.text)
            } else if let type = node.as(ExtensionDeclSyntax.self) {
                names.append(type.extendedType.trimmedDescription)
            }
            current = node.parent
        }
        return names.isEmpty ? "(file)" : names.reversed().joined(separator: ".")
    }
}

extension String {
    fileprivate func replacingUnderscores() -> String { String(filter { $0 != "_" }) }
}
