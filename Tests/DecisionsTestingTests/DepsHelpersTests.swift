import Testing

@testable import DecisionsTesting

@Suite struct UnimplementedTests {
  @Test func aSyncClosureFailsNamingTheDependencyAtTheLineThatMadeIt() {
    let track: @Sendable (String, Int) -> Void = unimplemented("Deps.track")
    let line = UInt(#line - 1)
    let failures = withCapturedFailures { track("tap", 1) }
    #expect(
      failures == [
        .init(
          message: "Unimplemented dependency called: Deps.track", line: line,
          fileID: "DecisionsTestingTests/DepsHelpersTests.swift")
      ])
  }

  @Test func aClosureWithAResultReturnsItsPlaceholder() {
    let count: @Sendable () -> Int = unimplemented("count", placeholder: 42)
    var result = 0
    let failures = withCapturedFailures { result = count() }
    #expect(result == 42)
    #expect(failures.map(\.message) == ["Unimplemented dependency called: count"])
  }

  @Test func aThrowingClosureFailsAndThrows() {
    let parse: @Sendable (String) throws -> Int = unimplemented("parse")
    let failures = withCapturedFailures {
      #expect(throws: UnimplementedDependency(name: "parse")) { try parse("1") }
    }
    #expect(failures.map(\.message) == ["Unimplemented dependency called: parse"])
  }

  @Test func anAsyncClosureFails() async {
    let save: @Sendable (Int) async -> Void = unimplemented("save")
    let failures = await withCapturedFailures { await save(1) }
    #expect(failures.map(\.message) == ["Unimplemented dependency called: save"])
  }

  @Test func anAsyncThrowingClosureFailsAndThrows() async {
    let load: @Sendable () async throws -> String = unimplemented("load")
    let failures = await withCapturedFailures {
      await #expect(throws: UnimplementedDependency.self) { try await load() }
    }
    #expect(failures.map(\.message) == ["Unimplemented dependency called: load"])
  }

  @Test func anUncalledClosureDoesNotFail() {
    let failures = withCapturedFailures {
      let _: @Sendable (String) -> Void = unimplemented("log")
    }
    #expect(failures.isEmpty)
  }

  @Test func aCallRecordsARealIssue() {
    let log: @Sendable (String) -> Void = unimplemented("log")
    withKnownIssue {
      log("hi")
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "Unimplemented dependency called: log" }
    }
  }
}

@Suite struct CallsTests {
  @Test func recordsArgumentsInOrder() {
    let logged = Calls<String>()
    let log: @Sendable (String) -> Void = logged.record
    log("a")
    log("b")
    #expect(logged.all == ["a", "b"])
    #expect(logged.count == 2)
  }

  @Test func returningRecordsAndReturns() {
    let lookups = Calls<Int>()
    let lookup = lookups.returning("found")
    #expect(lookup(7) == "found")
    #expect(lookups.all == [7])
  }

  @Test func recordingRecordsThenRuns() async throws {
    let loads = Calls<Void>()
    let load: @Sendable () async throws -> String = loads.recording { "fact" }
    #expect(try await load() == "fact")
    #expect(try await load() == "fact")
    #expect(loads.count == 2)
  }

  @Test func recordingRecordsEvenWhenTheBodyThrows() async {
    let saves = Calls<Int>()
    let save = saves.recording { (_: Int) -> Void in throw Loader.Offline() }
    await #expect(throws: Loader.Offline.self) { try await save(3) }
    #expect(saves.all == [3])
  }

  @Test func aClosureWithoutArgumentsCanReturnAValue() {
    let calls = Calls<Void>()
    let next = calls.returning(5)
    #expect(next() + next() == 10)
    #expect(calls.count == 2)
  }
}
