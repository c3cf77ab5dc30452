import SimCore
import Testing

@testable import SimEngine

/// `Codable` over `JSONValue`, the encoding of everything that crosses to a child process: every
/// member written (an absent optional as `null`), every member required when read.
@Suite struct JSONValueCodableTests {
    struct Inner: Codable, Equatable {
        var name: String
        var limit: Int?
    }

    enum Shape: Codable, Equatable {
        case none
        case one(Inner)
        case labelled(seed: UInt64, ratio: Double)
    }

    struct Outer: Codable, Equatable {
        var count: Int
        var big: UInt64
        var flag: Bool
        var inner: Inner
        var optionalInner: Inner?
        var list: [Inner]
        var maybeNames: [String?]
        var range: Range<UInt64>
        var shapes: [Shape]
    }

    static let full = Outer(
        count: -3, big: .max, flag: true, inner: Inner(name: "a \"b\"", limit: 7), optionalInner: nil,
        list: [Inner(name: "x", limit: nil)], maybeNames: ["p", nil], range: 4..<9,
        shapes: [.none, .one(Inner(name: "y", limit: 1)), .labelled(seed: 12, ratio: 0.125)])

    @Test func everyValueRoundTrips() throws {
        let encoded = try JSONValueEncoder().encode(Self.full)
        let decoded = try JSONValueDecoder(what: "test").decode(Outer.self, fromText: encoded.text)
        #expect(decoded == Self.full)
        for verdict: Verdict in [.pass, .fail(oracle: "o", message: "m"), .stepLimit(9), .timeLimit(3), .crashed("t")] {
            let text = try JSONValueEncoder().encode(verdict).text
            #expect(try JSONValueDecoder(what: "verdict").decode(Verdict.self, fromText: text) == verdict)
        }
    }

    @Test func anAbsentOptionalIsWrittenAsNull() throws {
        let encoded = try JSONValueEncoder().encode(Self.full)
        #expect(encoded["optionalInner"] == .null)
        #expect(encoded["list"]?.arrayValue?.first?["limit"] == .null)
    }

    @Test func aMissingMemberIsAnErrorNamingIt() throws {
        guard case .object(let members) = try JSONValueEncoder().encode(Self.full) else {
            Issue.record("not an object")
            return
        }
        for member in members {
            let without = JSONValue.object(members.filter { $0.key != member.key })
            do {
                _ = try JSONValueDecoder(what: "test").decode(Outer.self, from: without)
                Issue.record("a value without '\(member.key)' was read")
            } catch {
                #expect(error.kind == .usage)
                #expect(error.message == "test: no '\(member.key)'", "\(error.message)")
            }
        }
        // Deeper: the path says where.
        let nested = JSONValue.object(
            members.map { $0.key == "inner" ? .init("inner", .object(["name": .string("n")])) : $0 })
        do {
            _ = try JSONValueDecoder(what: "test").decode(Outer.self, from: nested)
            Issue.record("an inner value without 'limit' was read")
        } catch {
            #expect(error.message == "test: no 'limit' in 'inner'", "\(error.message)")
        }
    }

    @Test func aMistypedOrNullMemberIsAnError() throws {
        guard case .object(let members) = try JSONValueEncoder().encode(Self.full) else { return }
        let edits: [(String, JSONValue, String)] = [
            ("count", .string("3"), "test: 'count' is not an integer"),
            ("big", .int(-1), "test: 'big' is not an unsigned integer"),
            ("flag", .null, "test: 'flag' is null, not a boolean"),
        ]
        for (key, value, message) in edits {
            let edited = JSONValue.object(members.map { $0.key == key ? .init(key, value) : $0 })
            do {
                _ = try JSONValueDecoder(what: "test").decode(Outer.self, from: edited)
                Issue.record("a bad '\(key)' was read")
            } catch {
                #expect(error.message == message, "\(error.message)")
            }
        }
        #expect(throws: SimEngineError.self) { try JSONValueDecoder(what: "t").decode(Outer.self, fromText: "{") }
    }
}
