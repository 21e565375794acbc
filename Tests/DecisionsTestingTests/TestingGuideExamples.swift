// The examples of Docs/Testing.md, compiled and run so that the guide cannot rot; GuidesTests'
// GuideCodeBlocksTests checks that every Swift block of the guide stands here, line for line.
//
// Each suite is one section of the guide, in the same order. The examples that show a failure run
// the failing code inside `withCapturedFailures` and pin the exact message the guide quotes: if a
// message changes, these tests fail until the guide shows the new text.

import DecisionsTesting
import Foundation
import Testing
import XCTest

// MARK: - The example feature

/// The guide's example feature: a tap loads a fact; a failed load shows a snackbar.
enum FactLoader: Feature {
  struct Fact: Equatable, Sendable, Codable {
    var number: Int
    var text: String
  }

  enum Status: Equatable, Sendable, Codable {
    case idle
    case loading
    case loaded(Fact)
  }

  struct State: Equatable, Sendable, Codable {
    var status: Status = .idle
    var failures = 0
  }

  enum Event: Equatable, Sendable, Codable {
    case tap
    case finishLoading(Fact)
    case failedLoading(String)
  }

  enum Decision: Equatable, Sendable {
    case track(String)
    case load
    case log(String)
    case showSnackbar(String)
  }

  struct Deps: Sendable {
    var loadFact: @Sendable () async throws -> Fact
    var track: @Sendable (String) -> Void
    var log: @Sendable (String) -> Void
    var showSnackbar: @Sendable (String) -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch (event, state.status) {
    case (.tap, .loading):
      return [.track("tap")]  // one load at a time
    case (.tap, _):
      state.status = .loading
      return [.track("tap"), .load]
    case (.finishLoading(let fact), _):
      state.status = .loaded(fact)
      state.failures = 0
      return [.log("fact \(fact.number)")]
    case (.failedLoading(let reason), .loading):
      state.status = .idle
      state.failures += 1
      return [.log("failed: \(reason)"), .showSnackbar("Could not load a fact")]
    case (.failedLoading, _):
      return []  // a failure that arrives after a success changes nothing
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .track(let name):
      deps.track(name)
    case .load:
      effects.run(id: "load") { send in
        await send(.finishLoading(try await deps.loadFact()))
      } catch: { error in
        .failedLoading("\(error)")
      }
    case .log(let text):
      deps.log(text)
    case .showSnackbar(let text):
      deps.showSnackbar(text)
    }
  }
}

extension FactLoader.Fact {
  static let answer = Self(number: 42, text: "The answer.")
}

/// What the tests' `loadFact` throws; `"\(error)"` makes it `.failedLoading("offline")`.
struct FactLoaderOffline: Error, CustomStringConvertible {
  var description: String { "offline" }
}

extension FactLoader.Deps {
  /// Deps whose every closure fails the test when called; a test replaces the ones its path uses.
  static var unused: Self {
    Self(
      loadFact: unimplemented("loadFact"),
      track: unimplemented("track"),
      log: unimplemented("log"),
      showSnackbar: unimplemented("showSnackbar"))
  }
}

// MARK: - 2. Your first core test

@Suite struct GuideFirstCoreTest {
  @Test func aTapLoadsAFact() {
    var test = CoreTest<FactLoader>(state: .init())
    test.send(.tap, decisions: [.track("tap"), .load]) {
      $0.status = .loading
    }
    test.send(.tap, decisions: [.track("tap")])  // already loading: no second load, no change
    test.send(.finishLoading(.answer), decisions: [.log("fact 42")]) {
      $0.status = .loaded(.answer)
    }
  }

  @Test func aFailureShowsASnackbar() {
    var test = CoreTest<FactLoader>(state: .init(status: .loading))
    test.send(
      .failedLoading("offline"),
      decisions: [.log("failed: offline"), .showSnackbar("Could not load a fact")]
    ) {
      $0.status = .idle
      $0.failures = 1
    }
  }

  @Test func failureOfAWrongDecision() {
    let failures = withCapturedFailures {
      var test = CoreTest<FactLoader>(state: .init(status: .loading))
      test.send(
        .failedLoading("offline"),
        decisions: [.log("failed: offline"), .showSnackbar("Could not load the fact")]
      ) {
        $0.status = .idle
        $0.failures = 1
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1, .failedLoading("offline"): the decisions differ.
          Emitted but not expected:
            .showSnackbar("Could not load a fact")
          Expected but not emitted:
            .showSnackbar("Could not load the fact")
          Expected: [.log("failed: offline"), .showSnackbar("Could not load the fact")]
          Emitted:  [.log("failed: offline"), .showSnackbar("Could not load a fact")]
        """
      ])
  }

  @Test func failureOfAForgottenDecision() {
    let failures = withCapturedFailures {
      var test = CoreTest<FactLoader>(state: .init())
      test.send(.tap, decisions: [.load]) {
        $0.status = .loading
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1, .tap: the decisions differ.
          Emitted but not expected:
            .track("tap")
          Expected: [.load]
          Emitted:  [.track("tap"), .load]
        """
      ])
  }

  @Test func failureOfAWrongOrder() {
    let failures = withCapturedFailures {
      var test = CoreTest<FactLoader>(state: .init())
      test.send(.tap, decisions: [.load, .track("tap")]) {
        $0.status = .loading
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1, .tap: the decisions are right but their order is not.
          Expected: [.load, .track("tap")]
          Emitted:  [.track("tap"), .load]
        """
      ])
  }

  @Test func failureOfAWrongState() {
    let failures = withCapturedFailures {
      var test = CoreTest<FactLoader>(state: .init(status: .loading, failures: 2))
      test.send(.finishLoading(.answer), decisions: [.log("fact 42")]) {
        $0.status = .loaded(FactLoader.Fact(number: 42, text: "The answer"))
      }
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1, .finishLoading(FactLoader.Fact(number: 42, text: "The answer.")): the state \
        differs from the expected one (− expected, + actual):
        FactLoader.State
          .status.loaded(_:).text
        −   "The answer"
        +   "The answer."
          .failures
        −   2
        +   0
        """
      ])
  }
}

// MARK: - 3. One step

@Suite struct GuideOneStep {
  @Test func aTapWhileLoadingOnlyTracks() {
    expectStep(
      FactLoader.self, from: .init(status: .loading), on: .tap, decisions: [.track("tap")])
  }

  @Test func aTapAfterASuccessLoadsAgain() {
    let state = expectStep(
      FactLoader.self, from: .init(status: .loaded(.answer)), on: .tap,
      decisions: [.track("tap"), .load]
    ) {
      $0.status = .loading
    }
    #expect(state.failures == 0)
  }
}

// MARK: - 4. Non-exhaustive mode

@Suite struct GuideNonExhaustive {
  @Test func aFailureShowsTheSnackbar() {
    var test = CoreTest<FactLoader>(state: .init(status: .loading), exhaustivity: .off)
    test.send(.failedLoading("offline"), decisions: [.showSnackbar("Could not load a fact")]) {
      $0.failures = 1
    }
  }

  @Test func failureOfAMissingDecision() {
    let failures = withCapturedFailures {
      var test = CoreTest<FactLoader>(state: .init(status: .loading), exhaustivity: .off)
      test.send(.failedLoading("offline"), decisions: [.showSnackbar("Try again")])
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1, .failedLoading("offline"): the decision .showSnackbar("Try again") was not \
        emitted (in the order listed, among the emitted ones).
          Emitted: [.log("failed: offline"), .showSnackbar("Could not load a fact")]
        """
      ])
  }

  @Test func failureOfARelativeUpdate() {
    let failures = withCapturedFailures {
      var test = CoreTest<FactLoader>(state: .init(status: .loading), exhaustivity: .off)
      test.send(.failedLoading("offline")) { $0.failures += 1 }  // wrong here: use `= 1`
    }
    #expect(
      failures.map(\.message) == [
        """
        Step 1, .failedLoading("offline"): the state differs from the expected one \
        (− expected, + actual):
        FactLoader.State
          .failures
        −   2
        +   1
        """
      ])
  }
}

// MARK: - 5. Deps in tests

@Suite(.timeLimit(.minutes(3))) struct GuideDeps {
  @Test func aFailedLoadShowsTheSnackbarOnce() async {
    let loads = Calls<Void>()
    let shown = Calls<String>()
    let test = StoreTest<FactLoader>(
      state: .init(),
      deps: .init(
        loadFact: loads.recording { throw FactLoaderOffline() },
        track: { _ in },
        log: { _ in },
        showSnackbar: shown.record),
      exhaustivity: .off)
    await test.send(.tap)
    await test.settle()
    #expect(loads.count == 1)
    #expect(shown.all == ["Could not load a fact"])
    await test.finish()
  }

  @Test func failureOfAnUnimplementedDependency() async {
    let failures = await withCapturedFailures {
      let test = StoreTest<FactLoader>(
        state: .init(),
        deps: .init(
          loadFact: { .answer },
          track: { _ in },
          log: unimplemented("log"),
          showSnackbar: unimplemented("showSnackbar")))
      await test.send(.tap, decisions: [.track("tap"), .load]) {
        $0.status = .loading
      }
      await test.receive(.finishLoading(.answer), decisions: [.log("fact 42")]) {
        $0.status = .loaded(.answer)
      }
    }
    #expect(failures.map(\.message) == ["Unimplemented dependency called: log"])
    #expect(failures.map(\.line) == [UInt(#line - 10)])  // the line of `unimplemented("log")`
  }

  @Test func anUnimplementedThrowingDependencyAlsoThrows() async {
    var events: [FactLoader.Event] = []
    let failures = await withCapturedFailures {
      events = await perform(FactLoader.Decision.load, of: FactLoader.self, deps: .unused).events
    }
    #expect(failures.map(\.message) == ["Unimplemented dependency called: loadFact"])
    #expect(events == [.failedLoading("Unimplemented dependency called: loadFact")])
  }

  @Test func oneDepsValueForAllTests() async {
    var deps = FactLoader.Deps.unused
    deps.loadFact = { .answer }
    deps.track = { _ in }
    deps.log = { _ in }
    let test = StoreTest<FactLoader>(state: .init(), deps: deps, exhaustivity: .off)
    await test.send(.tap)
    await test.settle()
    await test.expectState(.init(status: .loaded(.answer)))
    await test.finish()
  }
}

// MARK: - 6. Executor tests

@Suite(.timeLimit(.minutes(3))) struct GuideExecutor {
  @Test func loadSendsTheFactBack() async {
    let loads = Calls<Void>()
    let execution = await perform(
      FactLoader.Decision.load, of: FactLoader.self,
      deps: .init(
        loadFact: loads.recording { .answer },
        track: unimplemented("track"),
        log: unimplemented("log"),
        showSnackbar: unimplemented("showSnackbar")))
    #expect(execution.events == [.finishLoading(.answer)])
    #expect(execution.startedWork == [WorkID("load")])
    #expect(execution.unhandledErrors.isEmpty)
    #expect(loads.count == 1)
  }

  @Test func aLoadErrorBecomesAnEvent() async {
    var deps = FactLoader.Deps.unused
    deps.loadFact = { throw FactLoaderOffline() }
    let execution = await perform(FactLoader.Decision.load, of: FactLoader.self, deps: deps)
    #expect(execution.events == [.failedLoading("offline")])
  }

  @Test func workThatWaitsForeverIsCancelledAndListed() async {
    let load = ControlledDependency<Void, FactLoader.Fact>()
    var deps = FactLoader.Deps.unused
    deps.loadFact = { try await load() }
    let execution = await perform(FactLoader.Decision.load, of: FactLoader.self, deps: deps)
    #expect(execution.events.isEmpty)
    #expect(execution.unfinishedWork == [WorkID("load")])  // it waited for an answer: cancelled
  }

  @Test func showSnackbarCallsItsDependency() async {
    let shown = Calls<String>()
    var deps = FactLoader.Deps.unused
    deps.showSnackbar = shown.record
    let execution = await perform(
      FactLoader.Decision.showSnackbar("Hi"), of: FactLoader.self, deps: deps)
    #expect(shown.all == ["Hi"])
    #expect(execution.events.isEmpty)
    #expect(execution.startedWork.isEmpty)
  }
}

// MARK: - 7. Store tests

@Suite(.timeLimit(.minutes(3))) struct GuideStore {
  @Test func aFailedLoadCanBeRetried() async {
    let attempts = Calls<Void>()
    let shown = Calls<String>()
    let test = StoreTest<FactLoader>(
      state: .init(),
      deps: .init(
        loadFact: attempts.recording {
          if attempts.count == 1 { throw FactLoaderOffline() }
          return .answer
        },
        track: { _ in },
        log: { _ in },
        showSnackbar: shown.record))

    await test.send(.tap, decisions: [.track("tap"), .load]) {
      $0.status = .loading
    }
    await test.receive(
      .failedLoading("offline"),
      decisions: [.log("failed: offline"), .showSnackbar("Could not load a fact")]
    ) {
      $0.status = .idle
      $0.failures = 1
    }
    #expect(shown.all == ["Could not load a fact"])

    await test.send(.tap, decisions: [.track("tap"), .load]) {
      $0.status = .loading
    }
    await test.receive(.finishLoading(.answer), decisions: [.log("fact 42")]) {
      $0.status = .loaded(.answer)
      $0.failures = 0
    }
    await test.finish()
  }

  @Test func aTapWhileLoadingStartsNoSecondLoad() async throws {
    let load = ControlledDependency<Void, FactLoader.Fact>()
    let test = StoreTest<FactLoader>(
      state: .init(),
      deps: .init(
        loadFact: { try await load() }, track: { _ in }, log: { _ in },
        showSnackbar: unimplemented("showSnackbar")))

    await test.send(.tap, decisions: [.track("tap"), .load]) {
      $0.status = .loading
    }
    let call = try await load.nextCall()  // the load is in flight, held by the test
    await test.send(.tap, decisions: [.track("tap")])  // no second load, no change
    call.answer(.answer)
    await test.receive(.finishLoading(.answer), decisions: [.log("fact 42")]) {
      $0.status = .loaded(.answer)
    }
    await test.finish()
    #expect(load.callCount == 1)
  }

  @Test func aCancelledCallEndsAndTakesNoAnswer() async throws {
    let load = ControlledDependency<Void, FactLoader.Fact>()
    let test = StoreTest<FactLoader>(
      state: .init(),
      deps: .init(
        loadFact: { try await load() }, track: { _ in }, log: { _ in },
        showSnackbar: unimplemented("showSnackbar")))

    await test.send(.tap, decisions: [.track("tap"), .load]) {
      $0.status = .loading
    }
    let call = try await load.nextCall()
    await test.store.stop()  // the screen went away: the store cancels the load
    #expect(!call.isWaiting)  // the call ended with CancellationError
    call.answer(.answer)  // too late: does nothing
    await test.finish()  // no work running, no event dropped
  }

  @Test func aLoadThatIgnoresCancellationHasItsEventDropped() async throws {
    let load = ControlledDependency<Void, FactLoader.Fact>()
    // A load that ignores cancellation: the store's cancellation does not reach the inner task.
    let stubborn: @Sendable () async throws -> FactLoader.Fact = {
      try await Task { try await load() }.value
    }
    let test = StoreTest<FactLoader>(
      state: .init(),
      deps: .init(
        loadFact: stubborn, track: { _ in }, log: { _ in },
        showSnackbar: unimplemented("showSnackbar")))

    await test.send(.tap, decisions: [.track("tap"), .load]) {
      $0.status = .loading
    }
    let call = try await load.nextCall()
    await test.store.stop()  // cancels the load's work, which goes on waiting
    #expect(call.isWaiting)
    await test.settle()  // returns: the call waits for the test
    call.answer(.answer)  // the load returns, and the store drops the event it sends
    await test.expectIgnored(.finishLoading(.answer), reason: .stopped)
    await test.finish()
    #expect(test.journal.ignoredEvents.map(\.reason) == [.stopped])
  }

  @MainActor
  @Test func aTapLoadsAFactOnAMainStore() async {
    let test = StoreTest<FactLoader>(
      state: .init(),
      deps: .init(
        loadFact: { .answer }, track: { _ in }, log: { _ in },
        showSnackbar: unimplemented("showSnackbar")),
      on: .mainStore)
    await test.send(.tap, decisions: [.track("tap"), .load]) {
      $0.status = .loading
    }
    #expect(test.mainStore.state.status == .loading)  // the store itself, on the main actor
    await test.receive(.finishLoading(.answer), decisions: [.log("fact 42")]) {
      $0.status = .loaded(.answer)
    }
    await test.finish()
  }

  @MainActor
  @Test func aBatchOfTapsLoadsOnce() async throws {
    let load = ControlledDependency<Void, FactLoader.Fact>()
    let test = StoreTest<FactLoader>(
      state: .init(),
      deps: .init(
        loadFact: { try await load() }, track: { _ in }, log: { _ in },
        showSnackbar: unimplemented("showSnackbar")),
      on: .mainStore)
    test.mainStore.send(contentsOf: [.tap, .tap])  // one step each, as two sends would make
    test.expectProcessed([.tap, .tap])
    await test.expectState(.init(status: .loading))  // the second tap started no second load
    try await load.nextCall().answer(.answer)
    await test.receive(.finishLoading(.answer), decisions: [.log("fact 42")]) {
      $0.status = .loaded(.answer)
    }
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func aTapLoadsAFactOnEitherStore(on kind: StoreKind) async {
    let deps = FactLoader.Deps(
      loadFact: { .answer }, track: { _ in }, log: { _ in },
      showSnackbar: unimplemented("showSnackbar"))
    let test = await StoreTest<FactLoader>(state: .init(), deps: deps, on: kind)
    await test.send(.tap, decisions: [.track("tap"), .load]) {
      $0.status = .loading
    }
    await test.receive(.finishLoading(.answer), decisions: [.log("fact 42")]) {
      $0.status = .loaded(.answer)
    }
    await test.finish()
  }

  @Test func aNonExhaustiveTestChecksOnlyWhatItNames() async {
    let test = StoreTest<FactLoader>(
      state: .init(),
      deps: .init(
        loadFact: { .answer }, track: { _ in }, log: { _ in },
        showSnackbar: unimplemented("showSnackbar")),
      exhaustivity: .off)
    await test.send(.tap)
    await test.receive(.finishLoading(.answer)) {
      $0.status = .loaded(.answer)
    }
    await test.finish()
    #expect(
      test.skippedAssertions == [
        """
        Sent .tap: the state differs from the asserted one (− asserted, + actual):
        FactLoader.State
          .status
        −   .idle
        +   .loading
        """,
        "Sent .tap: decisions not listed: [.track(\"tap\"), .load]",
        "Received .finishLoading(FactLoader.Fact(number: 42, text: \"The answer.\")): decisions not "
          + "listed: [.log(\"fact 42\")]",
      ])
  }

  @Test func failureOfStoreTestAssertions() async throws {
    let load = ControlledDependency<Void, FactLoader.Fact>()
    let failures = await withCapturedFailures {
      let test = StoreTest<FactLoader>(
        state: .init(),
        deps: .init(
          loadFact: { try await load() }, track: { _ in }, log: { _ in },
          showSnackbar: unimplemented("showSnackbar")))
      await test.send(.tap, decisions: [.track("tap"), .load]) {
        $0.status = .loading
      }
      try? await load.nextCall().answer(.answer)
      await test.settle()
      await test.send(.tap, decisions: [.track("tap"), .load]) {  // wrong: a result came first
        $0.status = .loading
      }
      await test.finish()  // wrong: the second load still waits for its answer
    }
    #expect(
      failures.map(\.message) == [
        """
        The store processed 1 event that the test did not receive before sending .tap:
            .finishLoading(FactLoader.Fact(number: 42, text: "The answer."))
          Assert each with receive, in order.
        """,
        """
        The test ended with work still running: "load". Advance the test clock, answer the \
        dependency's call, or cancel the work first.
        """,
      ])
  }
}

// MARK: - 8. Trace snapshots

@Suite struct GuideTrace {
  static let story: [FactLoader.Event] = [
    .tap, .failedLoading("offline"), .tap, .tap, .finishLoading(.answer),
  ]

  /// Checked in at `__Traces__/TestingGuideExamples/tap-fail-retry.trace.txt`.
  @Test func tapFailRetry() {
    expectTrace(FactLoader.self, from: .init(), events: Self.story, named: "tap-fail-retry")
  }

  // NB: the failure examples below work on scratch traces beside a made-up test file, so they
  // never write the checked-in trace, even in record mode. Their messages name that file; the
  // guide shows it as /Users/me/MyApp.
  private static let scratchTestFile: StaticString =
    "/tmp/DecisionsTestingGuide/Tests/FactLoaderTests/FactLoaderTests.swift"
  private static let scratchRoot = "/tmp/DecisionsTestingGuide"
  private static let scratchTraces = URL(
    fileURLWithPath: scratchRoot + "/Tests/FactLoaderTests/__Traces__/FactLoaderTests")

  @Test func failureOfAMissingTrace() throws {
    let file = Self.scratchTraces.appendingPathComponent("first-run.trace.txt")
    try? FileManager.default.removeItem(at: file)
    let failures = withCapturedFailures {
      expectTrace(
        FactLoader.self, from: .init(), events: [.tap], named: "first-run",
        filePath: Self.scratchTestFile)
    }
    try FileManager.default.removeItem(at: file)
    #expect(
      failures.map {
        $0.message.replacingOccurrences(of: Self.scratchRoot, with: "/Users/me/MyApp")
      }
        == [
          """
          There was no recorded trace: recorded one at /Users/me/MyApp/Tests/FactLoaderTests/\
          __Traces__/FactLoaderTests/first-run.trace.txt. Review it, commit it, and run the test \
          again without record mode to compare.
          """
        ])
  }

  @Test func failureOfAChangedTrace() throws {
    // The scratch copy says what an older core did: it showed another snackbar text.
    let checkedIn = URL(fileURLWithPath: "\(#filePath)").deletingLastPathComponent()
      .appendingPathComponent("__Traces__/TestingGuideExamples/tap-fail-retry.trace.txt")
    let old = try String(contentsOf: checkedIn, encoding: .utf8)
      .replacingOccurrences(of: "Could not load a fact", with: "Something went wrong")
    try FileManager.default.createDirectory(
      at: Self.scratchTraces, withIntermediateDirectories: true)
    try old.write(
      to: Self.scratchTraces.appendingPathComponent("tap-fail-retry.trace.txt"),
      atomically: true, encoding: .utf8)
    let failures = withCapturedFailures {
      expectTrace(
        FactLoader.self, from: .init(), events: Self.story, named: "tap-fail-retry",
        filePath: Self.scratchTestFile)
    }
    #expect(
      failures.map {
        $0.message.replacingOccurrences(of: Self.scratchRoot, with: "/Users/me/MyApp")
      }
        == [
          """
          The trace "tap-fail-retry" differs from the recorded one at /Users/me/MyApp/Tests/\
          FactLoaderTests/__Traces__/FactLoaderTests/tap-fail-retry.trace.txt (− recorded, + now):
          @@ -12,5 +12,5 @@
               decisions:
               - .log("failed: offline")
          −    - .showSnackbar("Something went wrong")
          +    - .showSnackbar("Could not load a fact")

            3. event: .tap
          If the new story is right, record it again (record: true or DECISIONS_RECORD_TRACES=1).
          """
        ])
  }
}

// MARK: - 9. Journals and replay

@Suite(.timeLimit(.minutes(3))) struct GuideJournal {
  @Test func aJournalRecordsWhatTheStoreDid() async throws {
    let journal = Journal<FactLoader>(initialState: .init())
    let store = Store<FactLoader>(
      state: journal.initialState,
      deps: .init(loadFact: { .answer }, track: { _ in }, log: { _ in }, showSnackbar: { _ in }),
      diagnostics: journal.record)
    await store.send(.tap)
    await store.settle()

    #expect(journal.events == [.tap, .finishLoading(.answer)])
    journal.expectReplayMatches()

    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(journal.recording), as: UTF8.self)
    #expect(
      json == """
        {"events":[{"tap":{}},{"finishLoading":{"_0":{"number":42,"text":"The answer."}}}],\
        "initialState":{"failures":0,"status":{"idle":{}}}}
        """)
  }

  @Test func aLateFailureAfterASuccessShowsNoSnackbar() throws {
    // Attached to a bug report, "a snackbar showed over a loaded fact": the app's journal as JSON.
    let json = """
      {"initialState": {"status": {"idle": {}}, "failures": 0},
       "events": [{"tap": {}}, {"finishLoading": {"_0": {"number": 42, "text": "The answer."}}},
                  {"failedLoading": {"_0": "timeout"}}]}
      """
    let recording = try JSONDecoder().decode(
      Journal<FactLoader>.Recording.self, from: Data(json.utf8))
    let steps = recording.replay()
    #expect(steps.map(\.state.status) == [.loading, .loaded(.answer), .loaded(.answer)])
    #expect(steps.last?.decisions == [])  // no snackbar over a loaded fact
  }
}

// MARK: - 10. XCTest

/// The same helpers under XCTest: a failure is an `XCTFail` at the caller's line.
final class FactLoaderXCTests: XCTestCase {
  func testATapLoadsAFact() {
    var test = CoreTest<FactLoader>(state: .init())
    test.send(.tap, decisions: [.track("tap"), .load]) {
      $0.status = .loading
    }
  }
}
