import SimTrace
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The members of one request a child process decodes (`WorkerRequest`, `RecordRequest`), each
/// required: a missing or mistyped member is a usage error naming it, and `null` is how an absent
/// optional is written (so a member the writer forgot is never read as absent).
struct RequestFields {
    /// The request's name in messages ("worker request").
    let what: String
    let value: JSONValue

    /// Parses `text` and checks its `version` against `version`.
    init(parsing text: String, what: String, version: Int64) throws(SimEngineError) {
        self.what = what
        do {
            value = try JSONValue(parsing: text)
        } catch {
            throw .usage("\(what): not JSON (\(error.reason) at offset \(error.offset))")
        }
        let found = try int("version")
        guard found == Int(version) else {
            throw .usage("\(what) version \(found); this simrun reads version \(version)")
        }
    }

    private init(what: String, value: JSONValue) {
        self.what = what
        self.value = value
    }

    func member(_ key: String) throws(SimEngineError) -> JSONValue {
        guard let member = value[key] else { throw .usage("\(what): no '\(key)'") }
        return member
    }

    /// The object member `key`, as fields.
    func object(_ key: String) throws(SimEngineError) -> RequestFields {
        RequestFields(what: what, value: try member(key))
    }

    /// The array member `key`, each element as fields (read with `text()`, `integer()` or by key).
    func array(_ key: String) throws(SimEngineError) -> [RequestFields] {
        guard let items = try member(key).arrayValue else { throw .usage("\(what): '\(key)' is not an array") }
        return items.map { RequestFields(what: what, value: $0) }
    }

    /// This element as a string.
    func text() throws(SimEngineError) -> String {
        guard let text = value.stringValue else { throw .usage("\(what): an element is not a string") }
        return text
    }

    /// This element as an integer.
    func integer() throws(SimEngineError) -> Int {
        guard let number = value.intValue else { throw .usage("\(what): an element is not an integer") }
        return number
    }

    /// True when the member is `null` (it must still be present).
    func isNull(_ key: String) throws(SimEngineError) -> Bool {
        if case .null = try member(key) { return true }
        return false
    }

    func int(_ key: String) throws(SimEngineError) -> Int {
        guard let number = try member(key).intValue else { throw .usage("\(what): '\(key)' is not an integer") }
        return number
    }

    func unsigned(_ key: String) throws(SimEngineError) -> UInt64 {
        guard let number = try member(key).unsignedValue else {
            throw .usage("\(what): '\(key)' is not an unsigned integer")
        }
        return number
    }

    func string(_ key: String) throws(SimEngineError) -> String {
        guard let text = try member(key).stringValue else { throw .usage("\(what): '\(key)' is not a string") }
        return text
    }

    func bool(_ key: String) throws(SimEngineError) -> Bool {
        guard let flag = try member(key).boolValue else { throw .usage("\(what): '\(key)' is not a boolean") }
        return flag
    }

    func optionalInt(_ key: String) throws(SimEngineError) -> Int? { try isNull(key) ? nil : try int(key) }
    func optionalString(_ key: String) throws(SimEngineError) -> String? { try isNull(key) ? nil : try string(key) }

    /// The whole of `descriptor` (a child's stdin) to its end; at most 1 MiB.
    static func readAll(_ descriptor: Int32, what: String) throws(SimEngineError) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let read = chunk.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in try SystemIO.read(descriptor, into: raw) }
            }
            let count: Int
            switch read {
            case .success(let found): count = found
            case .failure(let error): throw .usage("\(what): cannot read stdin: \(error)")
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
            if bytes.count > 1 << 20 { throw .usage("\(what): more than 1 MiB on stdin") }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
