// Attacks on the promises of explore-with-effects (issue 38), with features a user would write
// (AttackFeatures.swift). A test that shows a bug is written as the library should behave, inside
// `withKnownIssue`, so that the suite stays green until the bug is fixed; then it fails, asking for
// the wrapper to go.

import Decisions
import DecisionsTesting
import Foundation
import Testing

extension ExplorationRule<TwinLoads> {
  /// Slot "a" is answered first: broken on the path where "b" is.
  static var slotAAnswersFirst: Self {
    Self("slot a answers first") { $0.state.order.first != "b" }
  }
}

/// Whether `issue` is the failure of a printed test's last line, the check of `rule`.
private func isRuleCheck(_ issue: Issue, _ rule: String) -> Bool {
  String(describing: issue).contains("The rule \"\(rule)\" does not hold")
}

/// Printed store tests: they paste, compile and fail as printed (`storeTest(to:)`: pass).
///
/// Each test checks that the exploration still prints the code below it, then runs
/// that code as pasted.
@Suite struct ExploreAttackPrintedTests {
  /// Two pieces of work call the same dependency with equal arguments.
  ///
  /// The explorer answers the second one first. The store starts both pieces of work at once, so
  /// which calls first is a race: the printed `answer` names the work whose call it answers, and
  /// the pasted test fails on its check, whichever called first.
  @Test func twoCallsWithEqualArgumentsPrintAPathThatTheStoreTestTakes() async throws {
    let exploration = explore(
      TwinLoads.self, from: .init(), deps: TwinLoads.deps, events: TwinLoads.refreshing)
    withKnownIssue {
      exploration.expectInvariant(.slotAAnswersFirst)
    } matching: { issue in
      // The path names the work too, as a newcomer could not tell which had answered.
      String(describing: issue).contains(#"2. load(1) of "b" answers value("x")"#)
        && String(describing: issue).hasSuffix(
          """
          try await effects.answer("load", arguments: "1", work: "b", sample: 0)
          await test.receive(.loaded(slot: "b", value: "x")) {
            $0 = TwinLoads.State(refreshed: true, order: ["b"])
          }
          await test.expect(.slotAAnswersFirst, effects: effects)
          """)
    }
    // As pasted, the test fails on its last line only, the rule's check.
    try await withKnownIssue {
      try await twinLoadsAsPrinted()
    } matching: {
      isRuleCheck($0, "slot a answers first")
    }
  }

  func twinLoadsAsPrinted() async throws {
    let deps = TwinLoads.deps
    let effects = ExploredEffects()
    let test = StoreTest<TwinLoads>(
      state: TwinLoads.State(refreshed: false, order: []), deps: deps(effects),
      endChecks: EndChecks.all.subtracting(.runningWork))
    await test.send(.refresh, decisions: [.load(slot: "a"), .load(slot: "b")]) {
      $0 = TwinLoads.State(refreshed: true, order: [])
    }
    try await effects.answer("load", arguments: "1", work: "b", sample: 0)
    await test.receive(.loaded(slot: "b", value: "x")) {
      $0 = TwinLoads.State(refreshed: true, order: ["b"])
    }
    await test.expect(.slotAAnswersFirst, effects: effects)
  }

  /// Two waits end at the same instant: one clock step wakes both, and the printed test receives
  /// their events in the order the explorer saw.
  @Test func waitsThatEndTogetherPassAsPrinted() async {
    let exploration = explore(
      TwinTimers.self, from: .init(), deps: TwinTimers.deps, events: TwinTimers.starting)
    exploration.expectComplete()
    let both = exploration.snapshots.firstIndex { $0.state.order.count == 2 }
    #expect(both != nil)
    #expect(
      exploration.storeTest(to: both ?? 0).hasSuffix(
        """
        await test.settle()
        await effects.advanceClock(by: .seconds(1))
        await test.receive(.woke("a")) {
          $0 = TwinTimers.State(started: true, order: ["a"])
        }
        await test.receive(.woke("b")) {
          $0 = TwinTimers.State(started: true, order: ["a", "b"])
        }
        """))
    let deps = TwinTimers.deps
    let effects = ExploredEffects()
    let test = StoreTest<TwinTimers>(
      state: TwinTimers.State(started: false, order: []), deps: deps(effects))
    await test.send(.start, decisions: [.wait("a"), .wait("b")]) {
      $0 = TwinTimers.State(started: true, order: [])
    }
    await test.settle()
    await effects.advanceClock(by: .seconds(1))
    await test.receive(.woke("a")) {
      $0 = TwinTimers.State(started: true, order: ["a"])
    }
    await test.receive(.woke("b")) {
      $0 = TwinTimers.State(started: true, order: ["a", "b"])
    }
  }

  /// The printed test's clock wakes the waits that end together one at a time, in the order they
  /// began, each after the store has settled what the one before sent: the events come in that
  /// order every time. (Resumed all at once, the two works raced to the store, and the pasted
  /// test failed now and then, under ThreadSanitizer in CI.)
  @Test func waitsThatEndTogetherWakeInTheOrderTheyBeganEveryTime() async {
    var orders: [[String]: Int] = [:]
    for _ in 0..<300 {
      let effects = ExploredEffects()
      let test = StoreTest<TwinTimers>(
        state: TwinTimers.State(started: false, order: []), deps: TwinTimers.deps(effects),
        endChecks: [])
      await test.send(.start, decisions: [.wait("a"), .wait("b")]) {
        $0 = TwinTimers.State(started: true, order: [])
      }
      await test.settle()
      await effects.advanceClock(by: .seconds(1))
      await test.settle()
      let order = await test.store.state.order
      orders[order, default: 0] += 1
    }
    #expect(orders == [["a", "b"]: 300])
  }

  /// Arguments with quotes, a backslash and a line break print as a Swift literal that the store
  /// test's doubles match.
  @Test func argumentsWithQuotesAndLineBreaksPassAsPrinted() async throws {
    let exploration = explore(
      QuotedSearch.self, from: .init(), deps: QuotedSearch.deps, events: QuotedSearch.searching)
    exploration.expectComplete()
    #expect(
      exploration.storeTest(to: 2).hasSuffix(
        #"""
        try await effects.answer("search", arguments: "\"say \\\"hi\\\"\\\\\\nbye\"", sample: 0)
        await test.receive(.found("hit")) {
          $0 = QuotedSearch.State(query: "say \"hi\"\\\nbye", results: "hit")
        }
        """#))
    let deps = QuotedSearch.deps
    let effects = ExploredEffects()
    let test = StoreTest<QuotedSearch>(
      state: QuotedSearch.State(query: nil, results: nil), deps: deps(effects))
    await test.send(.search("say \"hi\"\\\nbye"), decisions: [.search("say \"hi\"\\\nbye")]) {
      $0 = QuotedSearch.State(query: "say \"hi\"\\\nbye", results: nil)
    }
    try await effects.answer("search", arguments: "\"say \\\"hi\\\"\\\\\\nbye\"", sample: 0)
    await test.receive(.found("hit")) {
      $0 = QuotedSearch.State(query: "say \"hi\"\\\nbye", results: "hit")
    }
  }

  /// A load cancelled by the user logs the cancellation from its cancelled task.
  ///
  /// In the
  /// exploration the cancelled work ends at once; the printed test of that path must end the same
  /// way, with no work left running.
  @Test func aCallFromCancelledWorkPassesAsPrinted() async {
    let exploration = explore(
      CancelLogger.self, from: .init(), deps: CancelLogger.deps, events: CancelLogger.using)
    exploration.expectComplete()
    exploration.expectNoUnhandledErrors()
    let cancelled = exploration.snapshots.firstIndex { $0.state.started && !$0.state.loading }
    #expect(cancelled.map { exploration.snapshots[$0].work.isEmpty } == true)
    #expect(
      exploration.storeTest(to: cancelled ?? 0)
        == """
        let effects = ExploredEffects()
        let test = StoreTest<CancelLogger>(state: CancelLogger.State(loading: false, started: false), deps: deps(effects))
        await test.send(.load, decisions: [.load]) {
          $0 = CancelLogger.State(loading: true, started: true)
        }
        await test.send(.cancel, decisions: [.cancel]) {
          $0 = CancelLogger.State(loading: false, started: true)
        }
        """)
    let deps = CancelLogger.deps
    let effects = ExploredEffects()
    let test = StoreTest<CancelLogger>(
      state: CancelLogger.State(loading: false, started: false), deps: deps(effects))
    await test.send(.load, decisions: [.load]) {
      $0 = CancelLogger.State(loading: true, started: true)
    }
    await test.send(.cancel, decisions: [.cancel]) {
      $0 = CancelLogger.State(loading: false, started: true)
    }
    await test.finish()
  }

  /// A sleep for no time, or for a negative time, ends at once, in the exploration and in its
  /// printed test.
  @Test(arguments: [Duration.zero, .seconds(-1)])
  func aSleepForNoTimeEndsAtOnce(duration: Duration) async {
    let exploration = explore(
      ZeroSleeper.self, from: .init(), deps: ZeroSleeper.deps,
      events: { $0.started ? [] : [.start(duration)] })
    exploration.expectComplete()
    #expect(exploration.snapshots.map(\.state.woke) == [0, 1])
    #expect(exploration.snapshots.allSatisfy { $0.work.isEmpty })
    let deps = ZeroSleeper.deps
    let effects = ExploredEffects()
    let test = StoreTest<ZeroSleeper>(
      state: ZeroSleeper.State(started: false, woke: 0), deps: deps(effects))
    await test.send(.start(duration), decisions: [.sleep(duration)]) {
      $0 = ZeroSleeper.State(started: true, woke: 0)
    }
    await test.receive(.woke) {
      $0 = ZeroSleeper.State(started: true, woke: 1)
    }
  }

  /// One of two `async let` loads fails: the other is cancelled, the work's handler sends
  /// `.failed`, and the printed path passes.
  ///
  /// In the store test, `receive(.failed)` gives up at once: the second call still waits for the
  /// test, so the store counts the whole piece of work as settled, though its task is about to
  /// handle the failure (with a real pause before `receive`, the test passes).
  @Test func aFailedAsyncLetPassesAsPrinted() async throws {
    let exploration = explore(
      PairLoader.self, from: .init(), deps: PairLoader.deps, events: PairLoader.starting)
    exploration.expectComplete()
    exploration.expectNoUnhandledErrors()
    #expect(exploration.snapshots.contains { $0.state.sum == 20 && $0.work.isEmpty })
    let failed = exploration.snapshots.firstIndex { $0.state.failed }
    #expect(failed.map { exploration.snapshots[$0].work.isEmpty } == true)
    #expect(
      exploration.storeTest(to: failed ?? 0).hasSuffix(
        """
        try await effects.answer("load", arguments: "1", sample: 1)
        await test.receive(.failed) {
          $0 = PairLoader.State(started: true, sum: nil, failed: true)
        }
        """))
    await withKnownIssue(
      """
      bug: a store test counts a piece of work as waiting for the test once any of its tasks \
      does; while the other `async let` call still waits, `receive` settles before the work \
      handles the failure, and the work is left running
      """,
      isIntermittent: true  // a race: the work's task may handle the failure before the check
    ) {
      try await failedAsyncLetAsPrinted()
    }
  }

  func failedAsyncLetAsPrinted() async throws {
    let deps = PairLoader.deps
    let effects = ExploredEffects()
    let test = StoreTest<PairLoader>(
      state: PairLoader.State(started: false, sum: nil, failed: false), deps: deps(effects))
    await test.send(.start, decisions: [.loadPair]) {
      $0 = PairLoader.State(started: true, sum: nil, failed: false)
    }
    try await effects.answer("load", arguments: "1", sample: 1)
    await test.receive(.failed) {
      $0 = PairLoader.State(started: true, sum: nil, failed: true)
    }
  }

  /// One piece of work waits for two calls at once, with `async let`.
  ///
  /// Answering the second call
  /// first changes what the work waits for, so it cannot lead back to the state it left.
  @Test func answeringOneOfTwoWaitingCallsLeavesTheState() {
    let exploration = explore(
      PairLoader.self, from: .init(), deps: PairLoader.deps, events: PairLoader.starting)
    #expect(exploration.transitions.contains { $0.from == 1 && $0.to == 2 })
    // NB: a state's key holds every call a piece of work waits for, not only the first: once one
    // of two is answered, the work waits for the other alone, in another state.
    #expect(!exploration.transitions.contains { $0.from == $0.to })
  }
}

extension ExplorationRule<Retrier> {
  /// The save is done.
  static var attackIsSaved: Self {
    Self("the save is done") { $0.state.isSaved }
  }

  /// The user asked for the save.
  static var attackSaveAsked: Self {
    Self("the save was asked for") { $0.state.attempts > 0 }
  }
}

/// Rules over time: time limits, lassos as printed.
@Suite struct ExploreAttackTimeTests {
  /// An hour's nap ends the feature: the rule "it ends within 20 s" must break, whether the hour
  /// passes in one deadline or in many.
  @Test func anHourInOneDeadlineBreaksATwentySecondLimit() {
    let exploration = explore(
      LongNap.self, from: .init(), deps: LongNap.deps, events: LongNap.starting)
    exploration.expectComplete()
    withKnownIssue {
      exploration.expectEventually(
        "the nap ends", after: { $0.state.started }, within: .seconds(20)
      ) { $0.state.ended }
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains(
        "the feature reaches it only after 3600.0 seconds on the clock, more than the 20.0 seconds "
          + "the rule allows")
        && text.contains("2. the clock advances by 3600.0 seconds")
        && text.hasSuffix(
          "// \"the nap ends\" holds here, but only after 3600.0 seconds on the clock: more than "
            + "the 20.0 seconds the rule allows.")
    }
    // Within an hour, it holds.
    exploration.expectEventually(
      "the nap ends", after: { $0.state.started }, within: .seconds(3600), { $0.state.ended })
  }

  /// The poller stops at its first tick, after a second: within half a second breaks, within a
  /// second holds.
  @Test func aTimeLimitShorterThanTheLastDeadlineBreaks() {
    let exploration = explore(
      Poller.self, from: .init(stopsAfterOneTick: true), deps: Poller.deps,
      events: Poller.starting)
    exploration.expectEventually(
      "the polling stops", after: { $0.state.isOn }, within: .seconds(1), { $0.work.isEmpty })
    withKnownIssue {
      exploration.expectEventually(
        "the polling stops", after: { $0.state.isOn }, within: .milliseconds(500)
      ) { $0.work.isEmpty }
    } matching: {
      String(describing: $0).contains("the 0.5 seconds the rule allows")
    }
  }

  /// A save that fails for ever is a lasso of an answer and a deadline; its printed test, pasted,
  /// fails on its last line only.
  @Test func aLassoOfAnswersAndDeadlinesFailsAsPrinted() async throws {
    let exploration = explore(
      Retrier.self, from: .init(), deps: Retrier.deps, events: Retrier.saving)
    withKnownIssue {
      exploration.expectEventually(.attackIsSaved, after: .attackSaveAsked)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("can loop for ever")
        && text.contains("2. save() answers failure(") && text.contains("3. the clock advances")
        && text.hasSuffix(
          """
          try await effects.answer("save", arguments: "", sample: 1)
          await test.receive(.failed, decisions: [.save(after: .seconds(1))])
          await test.settle()
          await effects.advanceClock(by: .seconds(1))
          await test.expect(.attackIsSaved, effects: effects)
          """)
    }
    try await withKnownIssue {
      try await retrierLassoAsPrinted()
    } matching: {
      isRuleCheck($0, "the save is done")
    }
  }

  func retrierLassoAsPrinted() async throws {
    let deps = Retrier.deps
    let effects = ExploredEffects()
    let test = StoreTest<Retrier>(
      state: Retrier.State(isSaved: false, attempts: 0, ignoresSuccess: false),
      deps: deps(effects), endChecks: EndChecks.all.subtracting(.runningWork))
    await test.send(.save, decisions: [.save(after: .seconds(0))]) {
      $0 = Retrier.State(isSaved: false, attempts: 1, ignoresSuccess: false)
    }
    try await effects.answer("save", arguments: "", sample: 1)
    await test.receive(.failed, decisions: [.save(after: .seconds(1))])
    await test.settle()
    await effects.advanceClock(by: .seconds(1))
    await test.expect(.attackIsSaved, effects: effects)
  }
}

/// Work that waits for what the explorer does not control: reported, not judged, and not explored.
@Suite struct ExploreAttackUncontrolledTests {
  /// A real sleep of a tenth of a second: the states where the work waits are reported, and the
  /// wake, which the explorer does not control, must not land in some later step of the search,
  /// where it makes states that no path the explorer prints can reach.
  @Test func aRealSleepIsReportedAndItsWakeIsNotExplored() {
    let exploration = explore(
      UncontrolledWaiter.self, from: .init(),
      // NB: a real sleep, on purpose: what the explorer does not control. Long enough that its wake
      // never lands in the drain after `.start` (50 µs did, on a loaded machine, one run in 60).
      deps: { _ in UncontrolledWaiter.Deps(wait: { try await Task.sleep(for: .milliseconds(100)) })
      },
      events: { state in (state.started ? [] : [.start]) + (state.taps < 1_000 ? [.tap] : []) })
    #expect(exploration.statesWithUncontrolledWork.contains(1))
    withKnownIssue {
      exploration.expectComplete()
    } matching: {
      String(describing: $0).contains("the explorer does not control")
    }
    // Intermittent: the wake lands in a step only when the search is still running by then.
    withKnownIssue(
      """
      bug: a real sleep's wake is queued on the explorer's executor and runs in whatever step \
      the search takes next, which is recorded as that step's effect
      """,
      isIntermittent: true
    ) {
      #expect(!exploration.snapshots.contains { $0.state.woke })
    }
  }

  /// Work that waits on a stream the test keeps open: reported, and its end is not explored.
  ///
  /// The stream is one value shared by every branch of the search: when the explorer cancels the work
  /// of one branch, the stream ends for the others, which then wake.
  @Test func aStreamSharedByTheBranchesIsReportedAndItsEndIsNotExplored() {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    let exploration = withExtendedLifetime(continuation) {
      explore(
        UncontrolledWaiter.self, from: .init(),
        deps: { _ in UncontrolledWaiter.Deps(wait: { for await _ in stream {} }) },
        events: UncontrolledWaiter.using)
    }
    #expect(exploration.statesWithUncontrolledWork.contains(1))
    withKnownIssue {
      exploration.expectComplete()
    } matching: {
      String(describing: $0).contains("the explorer does not control")
    }
    // A rule over time does not judge a state whose work waits for something uncontrolled.
    exploration.expectEventually(
      "the wait ends", after: { $0.state.started }, { $0.state.woke })
    withKnownIssue(
      """
      bug: the deps are made once and shared by every branch of the search; cancelling one \
      branch's work ends the stream another branch waits on, and the explorer records that as \
      the effect of a tap
      """,
      isIntermittent: true
    ) {
      #expect(!exploration.snapshots.contains { $0.state.woke })
    }
  }

  /// An explored dependency called from an unstructured task inside the work: that task does not
  /// run on the explorer's executor, so the work is reported as waiting for something the explorer
  /// does not control.
  @Test func aCallFromAnUnstructuredTaskIsReported() {
    let exploration = explore(
      TaskForker.self, from: .init(), deps: TaskForker.deps, events: TaskForker.starting)
    #expect(exploration.statesWithUncontrolledWork == [1])
    #expect(exploration.snapshots.map(\.work.first?.waitsFor) == [nil, .somethingElse])
    withKnownIssue {
      exploration.expectComplete()
    } matching: {
      String(describing: $0).contains("the explorer does not control")
    }
  }
}

/// Limits, misuse, and explorations that run at once.
@Suite struct ExploreAttackMisuseTests {
  /// `states: 1` keeps the start and says it was cut; checks on the cut search report no false
  /// breach.
  @Test func oneStateIsKeptAndTheCutIsSaid() {
    let exploration = explore(
      DebouncedSearch.self, from: .init(), deps: DebouncedSearch.deps,
      limits: ExplorationLimits(states: 1), events: DebouncedSearch.typing)
    #expect(exploration.snapshots.count == 1)
    #expect(exploration.transitions.isEmpty)
    #expect(exploration.limitReached == .states(1))
    withKnownIssue {
      exploration.expectComplete()
    } matching: {
      String(describing: $0).contains("the limit of 1 states")
    }
    exploration.expectEventually("the work ends") { $0.work.isEmpty }
    exploration.expectInvariant(.idleResultsAreForTheQuery)
  }

  /// `depth: 1` expands the start only.
  @Test func depthOneExpandsTheStartOnly() {
    let exploration = explore(
      DebouncedSearch.self, from: .init(), deps: DebouncedSearch.deps,
      limits: ExplorationLimits(depth: 1), events: DebouncedSearch.typing)
    #expect(exploration.limitReached == .depth(1))
    #expect(exploration.transitions.allSatisfy { $0.from == 0 })
    #expect(exploration.snapshots.indices.allSatisfy { exploration.depth(of: $0) <= 1 })
    withKnownIssue {
      exploration.expectComplete()
    } matching: {
      String(describing: $0).contains("the depth limit of 1 steps")
    }
    exploration.expectEventually("the work ends") { $0.work.isEmpty }
  }

  /// A dependency with 500 samples: the state limit holds, and no transition leads to a state
  /// that was dropped.
  @Test func manySamplesStayWithinTheStateLimit() {
    let samples = (0..<500).map { ExploredAnswer<String>.value("hit \($0)") }
    let exploration = explore(
      QuotedSearch.self, from: .init(),
      deps: { QuotedSearch.Deps(search: $0.dependency("search", answers: samples)) },
      limits: ExplorationLimits(states: 50), events: QuotedSearch.searching)
    #expect(exploration.limitReached == .states(50))
    #expect(exploration.snapshots.count == 50)
    #expect(exploration.transitions.allSatisfy { $0.to < exploration.snapshots.count })
  }

  /// `deps` is called once, and the clock it was given throws once the exploration is over,
  /// rather than wait for ever.
  @Test func depsAreMadeOnceAndTheClockThrowsAfterTheExploration() async {
    final class Kept: @unchecked Sendable {
      var calls = 0
      var clock: ExploredClock?
    }
    let kept = Kept()
    let exploration = explore(
      Poller.self, from: .init(),
      deps: { effects in
        kept.calls += 1
        kept.clock = effects.clock
        return Poller.deps(effects)
      },
      events: Poller.starting)
    #expect(exploration.snapshots.count > 2)
    #expect(kept.calls == 1)
    await #expect(throws: ExploredEffectsError.calledOutsideAnExploration(dependency: "clock")) {
      try await kept.clock?.sleep(for: .seconds(1))
    }
  }

  /// A timer with a period of zero would tick without end: it fails at once, and the check of
  /// unhandled errors says so.
  @Test func aTimerWithAPeriodOfZeroIsReported() {
    let exploration = explore(
      ZeroTimer.self, from: .init(), deps: ZeroTimer.deps, events: ZeroTimer.starting)
    exploration.expectComplete()
    #expect(exploration.snapshots.map(\.state.ticks) == [0, 0])
    withKnownIssue {
      exploration.expectNoUnhandledErrors()
    } matching: {
      String(describing: $0).contains("period must be more than zero")
    }
  }

  /// A sample number below zero is named in the error, as one above the last is.
  @Test func aNegativeSampleThrows() async {
    let effects = ExploredEffects()
    let load: @Sendable (Int) async throws -> String = effects.dependency(
      "load", answers: [.value("text")])
    _ = load
    await #expect(throws: ExploredEffectsError.noSuchSample(dependency: "load", sample: -1)) {
      try await effects.answer("load", sample: -1)
    }
  }

  /// A dependency that answers `CancellationError` when its work was not cancelled: a failure
  /// that no handler takes, and the check says so.
  @Test func aCancellationErrorAnswerIsAnUnhandledFailure() {
    let exploration = explore(
      ItemList.self, from: .init(fixed: true),
      deps: {
        ItemList.Deps(load: $0.dependency("load", answers: [.failure(CancellationError())]))
      },
      events: ItemList.browsing)
    withKnownIssue {
      exploration.expectNoUnhandledErrors()
    } matching: {
      String(describing: $0).contains("failed with Swift.CancellationError()")
    }
  }

  /// Explorations of one feature at once, on several threads (as parallel tests run them), find
  /// the same graph as one alone, step for step.
  @Test func explorationsAtOnceAgreeWithOneAlone() async {
    @Sendable func summary() -> String {
      let exploration = explore(
        DebouncedSearch.self, from: .init(), deps: DebouncedSearch.deps,
        events: DebouncedSearch.typing)
      let steps = exploration.transitions.map { "\($0.from) \($0.choice) \($0.to)" }
      return "\(exploration.snapshots) \(steps) \(exploration.stepsRun)"
    }
    let alone = summary()
    let together = await withTaskGroup(of: String.self) { group in
      for _ in 0..<4 { group.addTask { summary() } }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(together == Array(repeating: alone, count: 4))
  }
}
