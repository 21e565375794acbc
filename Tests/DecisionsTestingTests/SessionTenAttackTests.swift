import Decisions
import Testing

@testable import DecisionsTesting

/// A screen that loads when it opens, and counts the opens in its state.
private enum Greeter: Feature {
  struct State: Equatable, Sendable {
    var opened = 0
    var text = ""
  }

  enum Event: Equatable, Sendable {
    case loaded(String)
  }

  enum Decision: Equatable, Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> String
  }

  static func makeStartDecisions(state: inout State) -> [Decision] {
    state.opened += 1
    return [.load]
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .loaded(let text):
      state.text = text
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { send in await send(.loaded(try await deps.load())) }
    }
  }
}

/// Session ten's attacks on `StoreTest`: a test that should fail and passes.
@Suite(.timeLimit(.minutes(3))) struct SessionTenAttackTests {
  /// An exhaustive test that never asserts the store's start passes.
  ///
  /// StoreTest: "Exhaustive by default"; Testing.md: "`await test.expectStart(decisions:_:)`
  /// asserts the store's start; an exhaustive test fails at its first step until it does." Only
  /// `send` and `receive` check that the start was asserted. An exhaustive test that walks its
  /// story with `expectProcessed` and `expectState` (as their docs suggest) and finishes never
  /// asserts the start, which changed the state and decided `[.load]`, and passes: the end-of-test
  /// checks leave the start out.
  @Test(arguments: StoreKind.allCases)
  func anExhaustiveTestThatNeverAssertsTheStartFails(on kind: StoreKind) async {
    let failures = await withCapturedFailures {
      let test = await StoreTest<Greeter>(state: .init(), deps: .init(load: { "hi" }), on: kind)
      await test.settle()
      test.expectProcessed([.loaded("hi")])
      await test.expectState(.init(opened: 1, text: "hi"))
      await test.finish()
    }
    #expect(
      failures.contains { $0.message.contains("start") },
      "no failure for the unasserted start: \(failures.map(\.message))")
  }
}
