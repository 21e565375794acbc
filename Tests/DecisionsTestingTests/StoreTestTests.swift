import Decisions
import Foundation
import TestSupport
import Testing

@testable import DecisionsTesting

@Suite(.timeLimit(.minutes(3))) struct StoreTestTests {
  private func deps(
    load: @escaping @Sendable () async throws -> String, snackbars: Calls<String> = .init()
  ) -> Loader.Deps {
    .init(load: load, track: { _ in }, log: { _ in }, snackbar: snackbars.record)
  }

  @Test(arguments: StoreKind.allCases)
  func aLoadSucceedsEndToEnd(on kind: StoreKind) async {
    let test = await StoreTest<Loader>(state: .idle, deps: deps(load: { "hi" }), on: kind)
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    await test.receive(.finished("hi"), decisions: [.log("hi")]) { $0 = .loaded("hi") }
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func aFailureShowsTheSnackbarAndCanBeRetried(on kind: StoreKind) async {
    let snackbars = Calls<String>()
    let attempts = Calls<Void>()
    let test = await StoreTest<Loader>(
      state: .idle,
      deps: deps(
        load: attempts.recording {
          if attempts.count == 1 { throw Loader.Offline() }
          return "second time"
        },
        snackbars: snackbars), on: kind)
    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    await test.receive(
      .failed("Offline()"), decisions: [.log("failed: Offline()"), .snackbar("Went wrong")]
    ) {
      $0 = .idle
    }
    #expect(snackbars.all == ["Went wrong"])

    await test.send(.tap, decisions: [.track("tap"), .load]) { $0 = .loading(previous: nil) }
    await test.receive(.finished("second time"), decisions: [.log("second time")]) {
      $0 = .loaded("second time")
    }
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func aWrongStateFailsWithADiff(on kind: StoreKind) async {
    let test = await StoreTest<Loader>(state: .idle, deps: deps(load: { "hi" }), on: kind)
    let failures = await withCapturedFailures {
      await test.expectState(.loaded("hi"))
    }
    #expect(
      failures.map(\.message) == [
        """
        The store's state differs from the expected one (− expected, + actual):
        Loader.State
        −   .loaded("hi")
        +   .idle
        """
      ])
  }

  @Test(arguments: StoreKind.allCases)
  func unhandledWorkErrorsFailAndAreNamed(on kind: StoreKind) async {
    let test = await StoreTest<Loader>(
      state: .idle, deps: deps(load: { "hi" }), endChecks: [], on: kind)
    #expect(withCapturedFailures { test.expectNoUnhandledErrors() }.isEmpty)
    test.journal.record(.workFailed(id: WorkID("sync"), error: Loader.Offline()))
    let failures = withCapturedFailures { test.expectNoUnhandledErrors() }
    #expect(
      failures.map(\.message) == [
        """
        Work ended on errors that no catch: handler turned into events:
          work "sync": Offline()
        """
      ])
  }

  @Test(arguments: StoreKind.allCases)
  func unexpectedProcessedEventsFail(on kind: StoreKind) async {
    let test = await StoreTest<Loader>(
      state: .idle, deps: deps(load: { "hi" }), exhaustivity: .off, on: kind)
    await test.send(.tap)
    await test.settle()
    let failures = withCapturedFailures { test.expectProcessed([]) }  // `send` asserted the tap
    #expect(
      failures.map(\.message) == [
        """
        The store processed other events than expected since the last check.
          Expected:  []
          Processed: [.finished("hi")]
        """
      ])
  }
}

@Suite(.timeLimit(.minutes(3))) struct JournalTests {
  @Test func aRecordedJournalReplaysToTheSameStatesAndDecisions() async {
    let test = StoreTest<Loader>(
      state: .idle, deps: .init(load: { "hi" }, track: { _ in }, log: { _ in }, snackbar: { _ in }),
      exhaustivity: .off)
    await test.send(.tap)
    await test.send(.tap)  // ignored by the core while loading
    await test.settle()
    let recorded = test.journal.steps
    #expect(recorded.map(\.event) == [.tap, .tap, .finished("hi")])
    #expect(
      recorded == replay(Loader.self, from: .idle, events: [.tap, .tap, .finished("hi")]))
    #expect(withCapturedFailures { test.journal.expectReplayMatches() }.isEmpty)
  }

  @Test func aJournalSurvivesEncodingAndReplaysTheBug() throws {
    // A journal as a store in the field would have recorded it through its diagnostics hook.
    let journal = Journal<Loader>(initialState: .loaded("old"))
    journal.record(.received(.tap))
    journal.record(.state(.loading(previous: "old")))
    journal.record(.decided(.track("tap")))
    journal.record(.decided(.load))
    journal.record(.received(.failed("offline")))
    journal.record(.state(.loaded("old")))

    let data = try JSONEncoder().encode(journal.recording)
    let decoded = try JSONDecoder().decode(Journal<Loader>.Recording.self, from: data)
    #expect(decoded == journal.recording)
    let steps = decoded.replay()
    #expect(steps.map(\.state) == [.loading(previous: "old"), .loaded("old")])
    #expect(steps.last?.decisions == [.log("failed: offline"), .snackbar("Went wrong")])
  }

  @Test func aJournalThatDoesNotMatchTheCoreFails() {
    let journal = Journal<Loader>(initialState: .idle)
    journal.record(.received(.tap))
    journal.record(.state(.loaded("not what the core does")))
    let failures = withCapturedFailures { journal.expectReplayMatches() }
    #expect(
      failures.map(\.message) == [
        """
        Replay step 1, .tap: the replayed state differs from the recorded one (− recorded, + replayed):
        Loader.State
        −   .loaded("not what the core does")
        +   .loading(previous: nil)
        """
      ])
  }

  @Test func ignoredEventsAreKeptApart() async {
    let journal = Journal<Loader>(initialState: .idle)
    let store = Store<Loader>(
      state: .idle, deps: .init(load: { "x" }, track: { _ in }, log: { _ in }, snackbar: { _ in }),
      diagnostics: journal.record)
    await store.stop()
    await store.send(.tap)
    #expect(journal.events.isEmpty)
    #expect(journal.ignoredEvents.map(\.event) == [.tap])
    #expect(journal.ignoredEvents.map(\.reason) == [.stopped])
  }

  @Test func recordsCompareWithEqualsAndKeepErrorsAsText() async {
    let journal = Journal<Loader>(initialState: .idle)
    let store = Store<Loader>(
      state: .idle, deps: .init(load: { "hi" }, track: { _ in }, log: { _ in }, snackbar: { _ in }),
      diagnostics: journal.record)
    await store.send(.tap)
    await store.settle()
    journal.record(.workFailed(id: WorkID("sync"), error: Loader.Offline()))
    #expect(
      journal.records == [
        .started, .state(.idle),
        .received(.tap), .state(.loading(previous: nil)), .decided(.track("tap")),
        .decided(.load), .workStarted(id: WorkID("load")),
        .received(.finished("hi")), .state(.loaded("hi")), .decided(.log("hi")),
        .workFinished(id: WorkID("load")),
        .workFailed(id: WorkID("sync"), error: "Offline()"),
      ])
    #expect(journal.unhandledErrors.map(\.id) == [WorkID("sync")])
  }

  // NB: each task's sends used to read the journal and the count of asserted events apart, while
  // another task's send moved the count past the journal it had read: a crash (a range whose lower
  // bound was above its upper), or a send that did not find its own event.
  @Test(arguments: StoreKind.allCases)
  func sendsFromSeveralTasksAtOnceAreEachChecked(on kind: StoreKind) async {
    let test = await StoreTest<Ticker>(
      state: .init(), deps: .init(clock: TestClock()), exhaustivity: .off, on: kind)
    let failures = await withCapturedFailures {
      await withTaskGroup(of: Void.self) { group in
        for _ in 0..<8 {
          group.addTask {
            for _ in 0..<500 { await test.send(.tick) }
          }
        }
      }
    }
    #expect(failures.map(\.message) == [])
    #expect(await test.state.ticks == 4_000)
    await test.finish()
  }

  // NB: the load waits for a gate that the second tap's tracking opens. Had the receive held its
  // turn while it settled, waiting for the load, the second tap could never take its turn.
  @Test(arguments: StoreKind.allCases)
  func aReceiveThatSettlesLetsAnotherTasksSendGoFirst(on kind: StoreKind) async {
    let gate = Gate()
    let taps = Calls<String>()
    let test = await StoreTest<Loader>(
      state: .idle,
      deps: .init(
        load: {
          await gate.wait()
          return "hi"
        },
        track: { name in
          taps.record(name)
          if taps.count == 2 { gate.open() }
        },
        log: { _ in }, snackbar: { _ in }),
      exhaustivity: .off, on: kind)
    await test.send(.tap)
    let receiving = Task { await test.receive(.finished("hi")) }
    for _ in 0..<10 { await Task.yield() }
    await test.send(.tap)
    await receiving.value
    await test.expectState(.loaded("hi"))
    await test.finish()
  }
}
