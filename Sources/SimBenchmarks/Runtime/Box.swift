/// A thread-local variable of a benchmark thread: its operations' closures share it by reference.
final class Box<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
