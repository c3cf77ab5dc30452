import CSimInterpose
import SimTestSupport
import Testing

@testable import SimCapture
@testable import SimCore

/// A code address is named by the function around it, read from the program's own symbol table, and
/// its demangled name reads as a person writes the function.
@Suite struct CodeSymbolTests {
    @Test func theRuntimesPartialFunctionWordingAndTypesAreDropped() {
        #expect(
            CodeSymbol.readable("(1) suspend resume partial function for SimScenarios.ProfileLoader.load(id: Swift.Int, _: Swift.String) async throws -> ()")
                == "ProfileLoader.load(id:_:)")
        #expect(CodeSymbol.readable("(2) await resume partial function for SimScenarios.TokenRefresher.refresh() async -> Swift.String") == "TokenRefresher.refresh()")
        #expect(
            CodeSymbol.readable("closure #1 @Sendable () async -> () in SimScenarios.Autosave.schedule(after: Swift.Duration) -> ()")
                == "closure #1 in Autosave.schedule(after:)")
        #expect(CodeSymbol.readable("static (extension in ArgumentParser):ArgumentParser.AsyncMainProtocol.main() async -> ()") == "AsyncMainProtocol.main()")
        #expect(CodeSymbol.readable("simrun_code_symbols_readable") == "simrun_code_symbols_readable")
        #expect(
            CodeSymbol.readable("closure #2 in variable initialization expression of static SimScenarios.CaptureProbe.scenario : SimCore.Scenario")
                == "closure #2 in CaptureProbe.scenario")
        #expect(
            CodeSymbol.readable("function signature specialization <Arg[3] = Dead> of static SimScenarios.CaptureProbe.dispatchProbe(_: SimCore.Simulation, _: Swift.String, _: Swift.Int) async -> ()")
                == "CaptureProbe.dispatchProbe(_:_:_:)")
        #expect(
            CodeSymbol.readable("generic specialization <Swift.ContinuousClock> of (1) await resume partial function for M.Waiter.wait<A where A: Swift.Clock>(on: A) async -> ()")
                == "Waiter.wait(on:)")
        // A closure in a stored variable's initializer (a scenario's body): the variable, without its type.
        #expect(
            CodeSymbol.readable(
                "closure #1 @Sendable (SimCore.Simulation, Swift.String) async -> () in variable initialization expression of static SimScenarios.ActorReentrancyCache.scenario : SimCore.Scenario"
            ) == "closure #1 in ActorReentrancyCache.scenario")
        #expect(
            CodeSymbol.readable("closure #2 () async -> () in variable initialization expression of SimRunKitTests.(taskRace in _6F1C2A0B9D) : SimCore.Scenario")
                == "closure #2 in taskRace")
    }

    @Test(.enabled(if: TestPlatform.isLinux, "the symbol table is read on Linux only (ELF)"))
    func aCFunctionsAddressIsNamedByItsSymbol() throws {
        let function: @convention(c) () -> Int32 = simrun_code_symbols_readable
        let address = try #require(unsafeBitCast(function, to: UnsafeRawPointer?.self))
        let symbol = try #require(CodeSymbol.at(address + 3))
        #expect(symbol.mangled == "simrun_code_symbols_readable")
        #expect(symbol.offset == 3)
        #expect(CodeSymbol.areReadable)
    }

    @Test(.enabled(if: TestPlatform.isLinux, "the symbol table is read on Linux only (ELF)"))
    func aSwiftClosuresAddressIsNamedAndDemangled() throws {
        let closure: @convention(c) () -> Int32 = { 7 }
        let address = try #require(unsafeBitCast(closure, to: UnsafeRawPointer?.self))
        let symbol = try #require(CodeSymbol.at(address))
        #expect(symbol.mangled.hasPrefix("$s"))
        #expect(symbol.function == "closure #1 in CodeSymbolTests.aSwiftClosuresAddressIsNamedAndDemangled()", "demangled: \(symbol.demangled)")
    }

    /// Nil everywhere: outside any loaded code on Linux, and where the table is not read elsewhere.
    @Test func anAddressOutsideAnyLoadedCodeIsNotNamed() {
        #expect(CodeSymbol.at(UnsafeRawPointer(bitPattern: 0x10)!) == nil)
    }

    @Test(.enabled(if: !TestPlatform.isLinux, "Linux reads the symbol table"))
    func codeIsNotNamedWhereTheSymbolTableIsNotRead() {
        #expect(!CodeSymbol.areReadable)
    }
}
