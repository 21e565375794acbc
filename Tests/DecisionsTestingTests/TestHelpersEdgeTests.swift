import Decisions
import Testing

@testable import DecisionsTesting

/// The edges an adversarial review found in the test helpers: work the test does not control,
/// cancellation of the helpers' own waits, and what a clock keeps.
@Suite(.timeLimit(.minutes(3))) struct TestHelpersEdgeTests {
  @Test func finishDoesNotWaitForASubscriptionWhenRunningWorkIsNotChecked() async {
    let (values, _) = AsyncStream<Int>.makeStream()  // never finishes
    let test = StoreTest<Stream>(
      state: [], deps: .init(values: { values }), endChecks: .all.subtracting(.runningWork))
    await test.send(.subscribe, decisions: [.subscribe])
    #expect(await withCapturedFailures { await test.finish() } == [])
    #expect(await test.store.isStopped)
  }

  @Test func theReleaseCheckReportsWorkThatWaitsForTheTestButNotOtherWork() async {
    let load = ControlledDependency<Void, String>()
    let stuck = await withCapturedFailures {
      let test = StoreTest<Loader>(
        state: .idle,
        deps: .init(load: { try await load() }, track: { _ in }, log: { _ in }, snackbar: { _ in }))
      await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
      await test.settle()
    }
    #expect(stuck.map(\.message).contains { $0.contains("work still running: \"load\"") })

    let (values, _) = AsyncStream<Int>.makeStream()
    let streaming = await withCapturedFailures {
      let test = StoreTest<Stream>(state: [], deps: .init(values: { values }))
      await test.send(.subscribe, decisions: [.subscribe])
    }
    // NB: work that is not waiting for the test may be a moment from its end; `finish()` settles
    // and reports it, the release check cannot wait and leaves it.
    #expect(streaming == [])
  }

  @Test func performReturnsWhenItsTaskIsCancelled() async {
    let (values, _) = AsyncStream<Int>.makeStream()
    let performing = Task {
      await perform(Stream.Decision.subscribe, of: Stream.self, deps: .init(values: { values }))
    }
    performing.cancel()
    let execution = await performing.value
    #expect(execution.events == [])
  }

  @Test func waitForSleepersReturnsWhenItsTaskIsCancelled() async {
    let clock = TestClock()
    let waiting = Task { await clock.waitForSleepers(1) }
    waiting.cancel()
    await waiting.value
    #expect(clock.sleeperCount == 0)
  }

  @Test func anEventDroppedBecauseTheStoreStoppedCanBeExpected() async throws {
    let load = ControlledDependency<Void, String>()
    // NB: work that ignores cancellation: its answer arrives after the store stopped.
    let stubborn: @Sendable () async throws -> String = {
      try await Task { try await load() }.value
    }
    let test = StoreTest<Loader>(
      state: .idle, deps: .init(load: stubborn, track: { _ in }, log: { _ in }, snackbar: { _ in }))
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    let call = try await load.nextCall()
    await test.store.stop()
    call.answer("late")
    let failures = await withCapturedFailures {
      await test.expectIgnored(.finished("late"), reason: .stopped)
    }
    #expect(failures == [])
    await test.finish()
  }

  @Test func aClockForgetsTheStoresThatAreGone() async {
    let clock = TestClock()
    weak var testWaits: WorkRegistry.TestWaits?
    do {
      let store = Store<Ticker>(state: .init(), deps: .init(clock: clock))
      testWaits = store.testWaits
      await store.send(.wake(1))
      await store.settle()
      await clock.advance(by: .seconds(1))
      await store.settle()
    }
    await clock.advance(by: .zero)
    #expect(testWaits == nil)
  }

  // NB: a regression test: a call began to wait before it was recorded, so `settle()` could return
  // with `callCount` not yet counting it. Before the fix this test failed in 5 runs of 5.
  @Test func aCallIsCountedBeforeTheStoreCountsItsWorkAsWaiting() async {
    let load = ControlledDependency<Void, String>()
    let store = Store<Loader>(
      state: .idle,
      deps: .init(load: { try await load() }, track: { _ in }, log: { _ in }, snackbar: { _ in }))
    for round in 1...6_000 {
      await store.send(.tap)
      await store.settle()
      #expect(load.callCount == round)
      try? await load.nextCall().answer("\(round)")
      await store.settle()
    }
  }
}

/// A subscription to a stream of values that the test may never end.
enum Stream: Feature {
  typealias State = [Int]
  enum Event: Equatable, Sendable {
    case subscribe
    case got(Int)
  }
  enum Decision: Equatable, Sendable { case subscribe }
  struct Deps: Sendable { var values: @Sendable () -> AsyncStream<Int> }

  static func makeDecisions(event: Event, state: inout [Int]) -> [Decision] {
    switch event {
    case .subscribe: return [.subscribe]
    case .got(let value):
      state.append(value)
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "values") { send in
      for await value in deps.values() { await send(.got(value)) }
    }
  }
}
