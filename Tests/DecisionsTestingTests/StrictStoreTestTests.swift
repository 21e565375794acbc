import Decisions
import Testing

@testable import DecisionsTesting

/// `send` and `receive` with their steps, the end-of-test checks, and the non-exhaustive mode: each
/// failure path pinned by its exact message.
@Suite(.timeLimit(.minutes(3))) struct StrictStoreTestTests {
  private func deps(load: @escaping @Sendable () async throws -> String) -> Loader.Deps {
    .init(load: load, track: { _ in }, log: { _ in }, snackbar: { _ in })
  }

  @Test(arguments: StoreKind.allCases)
  func aStoryOfSentAndReceivedEventsPassesWithNoFailure(on kind: StoreKind) async {
    let failures = await withCapturedFailures {
      let test = await StoreTest<Loader>(state: .idle, deps: deps(load: { "hi" }), on: kind)
      await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
      await test.receive(.finished("hi"), decisions: [.log("hi")]) { $0 = .loaded("hi") }
      await test.finish()
    }
    #expect(failures == [])
  }

  @Test(arguments: StoreKind.allCases)
  func aReceivedStepWithAnotherStateFailsWithADiff(on kind: StoreKind) async {
    let test = await StoreTest<Loader>(state: .idle, deps: deps(load: { "hi" }), on: kind)
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    let failures = await withCapturedFailures {
      await test.receive(.finished("hi"), decisions: [.log("hi")]) { $0 = .loaded("hello") }
    }
    #expect(
      failures.map(\.message) == [
        """
        Received .finished("hi"): the state differs from the expected one (− expected, + actual):
        Loader.State
          .loaded(_:)
        −   "hello"
        +   "hi"
        """
      ])
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func aSentStepWithOtherDecisionsFailsNamingThem(on kind: StoreKind) async {
    let test = await StoreTest<Loader>(state: .idle, deps: deps(load: { "hi" }), on: kind)
    let failures = await withCapturedFailures {
      await test.send(.tap, decisions: [.load]) { $0 = .loading(previous: nil) }
    }
    #expect(
      failures.map(\.message) == [
        """
        Sent .tap: the decisions differ.
          Emitted but not expected:
            .track("tap")
          Expected: [.load]
          Emitted:  [.track("tap"), .load]
        """
      ])
    await test.receive(.finished("hi"), decisions: [.log("hi")]) { $0 = .loaded("hi") }
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func receivingAnotherEventThanTheNextOneFailsAndNamesWhatCame(on kind: StoreKind) async {
    let test = await StoreTest<Loader>(state: .idle, deps: deps(load: { "hi" }), on: kind)
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    let failures = await withCapturedFailures {
      await test.receive(.failed("offline"))
    }
    #expect(
      failures.map(\.message) == [
        """
        Expected to receive .failed("offline"), but the store processed other events:
            .finished("hi")
        """
      ])
    // The step was taken by the failed receive, so one mistake fails once.
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func sendingBeforeReceivingWhatWorkSentFailsAndNamesIt(on kind: StoreKind) async {
    let test = await StoreTest<Loader>(state: .idle, deps: deps(load: { "hi" }), on: kind)
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    await test.settle()
    let failures = await withCapturedFailures {
      await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: "hi") }
    }
    #expect(
      failures.map(\.message) == [
        """
        The store processed 1 event that the test did not receive before sending .tap:
            .finished("hi")
          Assert each with receive, in order.
        """
      ])
    await test.receive(.finished("hi"), decisions: [.log("hi")]) { $0 = .loaded("hi") }
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func receivingWhenWorkWaitsForTheTestFailsOnceSettled(on kind: StoreKind) async throws {
    let load = ControlledDependency<Void, String>()
    let test = await StoreTest<Loader>(
      state: .idle, deps: deps(load: { try await load() }), on: kind)
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    let failures = await withCapturedFailures {
      await test.receive(.finished("hi"))
    }
    #expect(failures.count == 1)
    #expect(
      failures.first?.message.hasPrefix(
        "Expected to receive .finished(\"hi\"), but the store settled without processing another "
          + "event.") == true)
    try await load.nextCall().answer("hi")
    await test.receive(.finished("hi"), decisions: [.log("hi")]) { $0 = .loaded("hi") }
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func finishReportsWorkStillRunningByItsId(on kind: StoreKind) async throws {
    let load = ControlledDependency<Void, String>()
    let test = await StoreTest<Loader>(
      state: .idle, deps: deps(load: { try await load() }), on: kind)
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    let failures = await withCapturedFailures { await test.finish() }
    #expect(
      failures.map(\.message) == [
        "The test ended with work still running: \"load\". Advance the test clock, answer the "
          + "dependency's call, or cancel the work first."
      ])
    // `finish()` stopped the store, which cancelled the call.
    #expect(try await load.nextCall().isWaiting == false)
  }

  @Test(arguments: StoreKind.allCases)
  func finishFailsTheRunningSwiftTestingTest(on kind: StoreKind) async {
    let test = await StoreTest<Loader>(state: .idle, deps: deps(load: { "hi" }), on: kind)
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    await withKnownIssue {
      await test.finish()
    } matching: { issue in
      issue.description.contains("The test ended with 1 processed event not asserted")
    }
  }

  @Test(arguments: StoreKind.allCases)
  func finishReportsEventsThatWereNotAsserted(on kind: StoreKind) async {
    let test = await StoreTest<Loader>(state: .idle, deps: deps(load: { "hi" }), on: kind)
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    let failures = await withCapturedFailures { await test.finish() }
    #expect(
      failures.map(\.message) == [
        """
        The test ended with 1 processed event not asserted:
            .finished("hi")
          Assert each with send or receive, in order.
        """
      ])
  }

  @Test(arguments: StoreKind.allCases)
  func finishReportsUnhandledErrorsUntilTheTestTakesThem(on kind: StoreKind) async {
    let test = await StoreTest<Failing>(state: 0, deps: .init(), on: kind)
    await test.send(.save, decisions: [.save])
    let failures = await withCapturedFailures { await test.finish() }
    #expect(
      failures.map(\.message) == [
        """
        The test ended with unhandled errors not checked (give the work a catch: handler, or \
        check them with takeUnhandledErrors()):
          work "save": Offline()
        """
      ])

    let checked = await StoreTest<Failing>(state: 0, deps: .init(), on: kind)
    await checked.send(.save, decisions: [.save])
    await checked.settle()
    #expect(checked.takeUnhandledErrors().map(\.id) == [WorkID("save")])
    #expect(await withCapturedFailures { await checked.finish() } == [])
  }

  @Test(arguments: StoreKind.allCases)
  func finishReportsDroppedEventsUntilTheTestExpectsThem(on kind: StoreKind) async throws {
    let load = ControlledDependency<Void, String>()
    // NB: work that ignores cancellation: it sends its result after the store cancelled it.
    let stubborn: @Sendable () async throws -> String = {
      let call = Task { try await load() }
      return try await call.value
    }
    for expectsIt in [false, true] {
      let test = await StoreTest<Loader>(state: .idle, deps: deps(load: stubborn), on: kind)
      await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
      let call = try await load.nextCall()
      await test.send(.finished("reset"), decisions: [.log("reset")]) { $0 = .loaded("reset") }
      await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: "reset") }
      call.answer("stale")  // the first load was replaced: its answer is dropped
      if expectsIt { await test.expectIgnored(.finished("stale")) }
      let second = try await load.nextCall()
      second.answer("fresh")
      await test.receive(.finished("fresh"), decisions: [.log("fresh")]) { $0 = .loaded("fresh") }
      let failures = await withCapturedFailures { await test.finish() }
      if expectsIt {
        #expect(failures == [])
      } else {
        #expect(
          failures.map(\.message) == [
            """
            The test ended with events dropped that the test did not expect with expectIgnored:
                .finished("stale") (cancelledWork)
            """
          ])
      }
    }
  }

  @Test(arguments: StoreKind.allCases)
  func eachEndCheckCanBeSwitchedOff(on kind: StoreKind) async {
    let load = ControlledDependency<Void, String>()
    let test = await StoreTest<Loader>(
      state: .idle, deps: deps(load: { try await load() }),
      endChecks: .all.subtracting(.runningWork), on: kind)
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    #expect(await withCapturedFailures { await test.finish() } == [])

    let unchecked = await StoreTest<Loader>(
      state: .idle, deps: deps(load: { "hi" }), endChecks: [], on: kind)
    await unchecked.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    #expect(await withCapturedFailures { await unchecked.finish() } == [])
  }

  @Test(arguments: StoreKind.allCases)
  func aTestThatNeverFinishesIsCheckedWhenReleasedAtTheLineThatCreatedIt(on kind: StoreKind) async {
    var line: UInt = 0
    let failures = await withCapturedFailures {
      let test = await StoreTest<Loader>(state: .idle, deps: deps(load: { "hi" }), on: kind)
      line = #line - 1
      await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
      await test.settle()
    }
    #expect(failures.map(\.line) == [line])
    #expect(
      failures.map(\.message) == [
        """
        The test ended with 1 processed event not asserted:
            .finished("hi")
          Assert each with send or receive, in order.
        (Checked when the StoreTest was released; call `await test.finish()` to check at a line \
        of your choice.)
        """
      ])
  }

  @Test(arguments: StoreKind.allCases)
  func aPlainSendOfAnEventThatChangesSomethingFailsInAnExhaustiveTest(on kind: StoreKind) async {
    let test = await StoreTest<Loader>(state: .idle, deps: deps(load: { "hi" }), on: kind)
    let failures = await withCapturedFailures { await test.send(.tap) }
    #expect(failures.count == 2)  // the state and the decisions
    #expect(failures.first?.message.hasPrefix("Sent .tap: the state differs") == true)
    await test.receive(.finished("hi"), decisions: [.log("hi")]) { $0 = .loaded("hi") }
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func aNonExhaustiveTestSaysWhatItSkipped(on kind: StoreKind) async throws {
    let load = ControlledDependency<Void, String>()
    let test = await StoreTest<Loader>(
      state: .idle, deps: deps(load: { try await load() }), exhaustivity: .off, on: kind)
    await test.send(.tap, decisions: [.load])  // the state and the tracking are not checked
    await test.send(.tap)  // ignored by the core while loading
    try await load.nextCall().answer("hi")
    await test.receive(.finished("hi")) { $0 = .loaded("hi") }
    #expect(
      test.skippedAssertions == [
        """
        Sent .tap: the state differs from the asserted one (− asserted, + actual):
        Loader.State
        −   .idle
        +   .loading(previous: nil)
        """,
        "Sent .tap: decisions not listed: [.track(\"tap\"), .load]",
        "Sent .tap: decisions not listed: [.track(\"tap\")]",
        "Received .finished(\"hi\"): decisions not listed: [.log(\"hi\")]",
      ])
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func aNonExhaustiveReceiveSkipsToTheEventItNames(on kind: StoreKind) async {
    let test = await StoreTest<Ticker>(
      state: .init(), deps: .init(clock: ImmediateClock()), exhaustivity: .off, on: kind)
    await test.send(.chain(3))
    await test.receive(.stepped(1)) { $0.steps = 3 }
    #expect(
      test.skippedAssertions == [
        "Sent .chain(3): decisions not listed: [.step(3)]",
        "Skipped receiving .stepped(3)", "Skipped receiving .stepped(2)",
      ])
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func noNewEventsBeforeADeadlineAndAFailureNamingTheEarlyOne(on kind: StoreKind) async {
    let clock = TestClock()
    let test = await StoreTest<Ticker>(state: .init(), deps: .init(clock: clock), on: kind)
    await test.send(.typed("a"), decisions: [.debounce("a")]) { $0.query = "a" }
    await clock.advance(by: .milliseconds(299))
    #expect(await withCapturedFailures { await test.expectNoNewEvents() } == [])
    await clock.advance(by: .milliseconds(1))
    let failures = await withCapturedFailures { await test.expectNoNewEvents() }
    #expect(
      failures.map(\.message) == [
        """
        Expected no new events, but the store processed 1 since the last one asserted:
            .quietPeriodEnded("a")
        """
      ])
    await test.finish()  // the failure counted the event as asserted: one mistake fails once
  }

  // NB: compiles only because `send` and `receive` are `nonisolated(nonsending)`: the step closures
  // are main-actor isolated here, and would not be sent to another executor.
  @MainActor
  @Test(arguments: StoreKind.allCases)
  func aStoreTestRunsOnTheMainActor(on kind: StoreKind) async {
    let test = StoreTest<Loader>(state: .idle, deps: deps(load: { "hi" }), on: kind)
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    await test.receive(.finished("hi"), decisions: [.log("hi")]) { $0 = .loaded("hi") }
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func advancingTheClockThenReceivingReadsLikeTheStory(on kind: StoreKind) async {
    let clock = TestClock()
    let test = await StoreTest<Ticker>(state: .init(), deps: .init(clock: clock), on: kind)
    await test.send(.typed("a"), decisions: [.debounce("a")]) { $0.query = "a" }
    await clock.advance(by: .milliseconds(100))
    await test.send(.typed("ab"), decisions: [.debounce("ab")]) { $0.query = "ab" }
    await clock.advance(by: .milliseconds(300))
    await test.receive(.quietPeriodEnded("ab")) { $0.searched = ["ab"] }
    await test.finish()
  }
}

/// `receive` while work keeps sending: each step is read whole.
@Suite(.timeLimit(.minutes(3))) struct ReceiveWhileWorkSendsTests {
  // NB: `receive` hops to the store before it reads the journal, so that an event the store is
  // recording right then is read whole. This test passed without the hop too (the window is a few
  // hundred instructions); it pins that receiving keeps up with work that never pauses.
  @Test(arguments: StoreKind.allCases)
  func eachStepIsCheckedWholeWhileTheStoreIsStillBusy(on kind: StoreKind) async {
    let test = await StoreTest<Burst>(state: 0, deps: .init(), on: kind)
    await test.send(.start(2_000), decisions: [.emit(2_000)])
    for value in 1...2_000 {
      await test.receive(.tick(value), decisions: [.note(value)]) { $0 = value }
    }
    await test.finish()
  }
}

/// Work that sends one event after another without waiting for anything.
enum Burst: Feature {
  typealias State = Int
  enum Event: Equatable, Sendable {
    case start(Int)
    case tick(Int)
  }
  enum Decision: Equatable, Sendable {
    case emit(Int)
    case note(Int)
  }
  struct Deps: Sendable {}

  static func makeDecisions(event: Event, state: inout Int) -> [Decision] {
    switch event {
    case .start(let count): return [.emit(count)]
    case .tick(let value):
      state = value
      return [.note(value)]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .emit(let count):
      effects.run { send in
        for value in 1...count { await send(.tick(value)) }
      }
    case .note: break
    }
  }
}

/// What `perform` reports: cancellations, and work that never ends.
@Suite(.timeLimit(.minutes(3))) struct PerformUnfinishedWorkTests {
  @Test func workThatWaitsForTheTestIsCancelledAndListed() async {
    let next = ControlledDependency<Void, Int>(answers: [1, 2])
    let execution = await perform(
      Feed.Decision.subscribe, of: Feed.self, deps: .init(next: { try await next() }))
    #expect(execution.events == [.got(1), .got(2)])
    #expect(execution.unfinishedWork == [WorkID("feed")])
    #expect(next.callCount == 3)  // the third call waited, and was cancelled
  }

  @Test func workAsleepOnATestClockIsCancelledAndListed() async {
    let clock = TestClock()
    let execution = await perform(
      Ticker.Decision.startTicking, of: Ticker.self, deps: .init(clock: clock))
    #expect(execution.events == [])
    #expect(execution.unfinishedWork == [WorkID("ticker")])
    #expect(clock.sleeperCount == 0)
  }

  @Test func workThatFinishesIsNotListed() async {
    let execution = await perform(
      Ticker.Decision.step(1), of: Ticker.self, deps: .init(clock: ImmediateClock()))
    #expect(execution.events == [.stepped(1)])
    #expect(execution.unfinishedWork == [])
  }
}

/// Work without a `catch:` handler that fails.
enum Failing: Feature {
  typealias State = Int
  enum Event: Equatable, Sendable { case save }
  enum Decision: Equatable, Sendable { case save }
  struct Deps: Sendable {}
  struct Offline: Error {}

  static func makeDecisions(event: Event, state: inout Int) -> [Decision] {
    [.save]
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "save") { _ in throw Offline() }
  }
}

/// A subscription: asks for one value after another, for ever.
enum Feed: Feature {
  typealias State = [Int]
  enum Event: Equatable, Sendable { case got(Int) }
  enum Decision: Equatable, Sendable { case subscribe }
  struct Deps: Sendable { var next: @Sendable () async throws -> Int }

  static func makeDecisions(event: Event, state: inout [Int]) -> [Decision] {
    switch event {
    case .got(let value): state.append(value)
    }
    return []
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "feed") { send in
      while true { await send(.got(try await deps.next())) }
    }
  }
}
