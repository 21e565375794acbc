import Decisions
import DecisionsTesting
import Foundation
import Testing

/// A main-actor feature is explored with its work, as any other: its core and executor run on the
/// main actor, and the printed store test runs it on a `MainStore`.
@MainActor
@Suite struct MainActorExploreEffectsTests {
  @Test func theExplorerFindsTheOlderQuerysResultsOnTheMainActor() {
    // NB: the test's thread, which runs the main actor's jobs now: the main thread, or the thread
    // a test runner has the main actor's queue run on.
    MainActorSearch.expectedThread = Thread.current
    MainActorSearch.callsOnAnotherThread = 0
    defer { MainActorSearch.expectedThread = nil }
    let exploration = explore(
      MainActorSearch.self, from: .init(), deps: MainActorSearch.deps,
      events: MainActorSearch.typing)
    exploration.expectComplete()
    #expect(exploration.snapshots.count > 10)
    #expect(MainActorSearch.callsOnAnotherThread == 0)
    withKnownIssue {
      exploration.expectInvariant(.idleResultsMatchTheQuery)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("search(\"sw\") answers") && text.contains("search(\"s\") answers")
        && text.contains("let test = StoreTest<MainActorSearch>(")
        && text.hasSuffix("await test.expect(.idleResultsMatchTheQuery, effects: effects)")
    }
  }
}

/// The store test the exploration printed for the main-actor search, pasted as printed: it runs
/// on a `MainStore`, and fails on its last line.
@MainActor
@Suite struct MainActorPrintedStoreTestTests {
  @Test func thePrintedTestFailsAsPrinted() async throws {
    let deps = MainActorSearch.deps
    let effects = ExploredEffects()
    // NB: as printed, but for the line's length.
    let test = StoreTest<MainActorSearch>(
      state: MainActorSearch.State(query: "", resultsQuery: nil), deps: deps(effects))
    #expect(test.kind == .mainStore)
    await test.send(.queryChanged("s"), decisions: [.debounce("s")]) {
      $0 = MainActorSearch.State(query: "s", resultsQuery: nil)
    }
    await test.settle()
    await effects.advanceClock(by: .milliseconds(300))
    await test.receive(.debounced("s"), decisions: [.search("s")])
    await test.send(.queryChanged("sw"), decisions: [.debounce("sw")]) {
      $0 = MainActorSearch.State(query: "sw", resultsQuery: nil)
    }
    await test.settle()
    await effects.advanceClock(by: .milliseconds(300))
    await test.receive(.debounced("sw"), decisions: [.search("sw")])
    try await effects.answer("search", arguments: "\"sw\"", sample: 0)
    await test.receive(.searched(query: "sw")) {
      $0 = MainActorSearch.State(query: "sw", resultsQuery: "sw")
    }
    try await effects.answer("search", arguments: "\"s\"", sample: 0)
    await test.receive(.searched(query: "s")) {
      $0 = MainActorSearch.State(query: "sw", resultsQuery: "s")
    }
    await withKnownIssue {
      await test.expect(.idleResultsMatchTheQuery, effects: effects)
    } matching: { issue in
      String(describing: issue).contains(
        #"The rule "idle results are for the query" does not hold"#)
    }
  }
}

/// A main-actor feature whose work hops to the main actor itself.
@MainActor
private enum MainActorHop: @MainActor Feature {
  struct State: Hashable, Sendable {
    var tapped = false
    var done = 0
  }
  enum Event: Equatable, Sendable {
    case tap, done
  }
  enum Decision: Equatable, Sendable {
    case work
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .tap:
      state.tapped = true
      return [.work]
    case .done:
      state.done += 1
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Void, effects: Effects<Event>) {
    effects.run { send in
      await onTheMainActor()
      await send(.done)
    }
  }

  static func onTheMainActor() async {}
}

@MainActor
@Suite struct MainActorHopExploreTests {
  /// The main actor is busy exploring: work that hops to it waits for something the explorer does
  /// not control, and the exploration says so rather than hang.
  @Test func workThatHopsToTheMainActorIsReportedAsUncontrolled() {
    let exploration = explore(
      MainActorHop.self, from: .init(), deps: { _ in () }, events: { $0.tapped ? [] : [.tap] })
    #expect(exploration.snapshots.count == 2)
    #expect(!exploration.statesWithUncontrolledWork.isEmpty)
    #expect(exploration.snapshots.allSatisfy { $0.state.done == 0 })
    withKnownIssue {
      exploration.expectComplete()
    } matching: { issue in
      String(describing: issue).contains("work waits for something the explorer does not control")
    }
  }
}
