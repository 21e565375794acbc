// Attacks on the explorer's returns to a state along the shortest path known from a quiet state,
// its answer steps named by work, and the clock shifted on a return (ReturnAttackFeatures.swift).
// A test that shows a bug is written as the library should behave, inside `withKnownIssue`, so
// that the suite stays green until the bug is fixed.

import Decisions
import Testing

@testable import DecisionsTesting

/// The graph as text, for a failure's message.
private func dump<F: Feature>(_ exploration: FeatureExploration<F>) -> String {
  let states = exploration.snapshots.indices.map {
    "\($0) t=\(exploration.time(of: $0)) \(exploration.snapshots[$0])"
  }
  let steps = exploration.transitions.map { "\($0.from) -> \($0.to): \($0.choice)" }
  return (states + steps).joined(separator: "\n")
}

/// Whether `issue` is the failure of a printed test's last line, the check of `rule`.
private func isRuleCheck(_ issue: Issue, _ rule: String) -> Bool {
  String(describing: issue).contains("The rule \"\(rule)\" does not hold")
}

// NB: `endsElsewhere`, the comment a printed path gets when it ends in another state, is in
// TakeBackComparison.swift.

extension ExplorationRule<UnkeyedTwins> {
  /// Slot "a" is answered first: broken on the path where "b" is.
  static var unkeyedSlotAFirst: Self {
    Self("slot a answers first") { $0.state.order.first != "b" }
  }
}

extension ExplorationRule<TrioLoader> {
  /// The first load in is not z.
  static var zIsNotFirst: Self {
    Self("z is not first") { $0.state.got.first != "z" }
  }
}

/// Returns along another path than the one that found a state.
@Suite struct ExploreReturnAttackTests {
  /// A repeating timer (`Effects.timer`) returned to along a path that reaches its state at
  /// another time: each tick it counts is one more, two seconds later, as on every path from the
  /// start.
  ///
  /// "flag up, ticking, no tick counted" is found at 2 s (`.both`, then the delay and the first
  /// tick end together) and is one step from the quiet "flag up" at 0 s (`.setFlag`, `.start`).
  /// That shorter path reaches it at another time, so the explorer does not return along it: the
  /// timer keeps its own next deadline (`start + period`), which no clock moved to the state's
  /// time would move (it did, before: two ticks at once).
  @Test func aTimerReturnedToAlongAPathOfAnotherTimeTicksOnce() throws {
    let exploration = explore(
      LateTimer.self, from: .init(), deps: LateTimer.deps, events: LateTimer.using)
    exploration.expectComplete()
    let flagged = try #require(
      exploration.snapshots.firstIndex {
        $0.state == .init(ticking: true, flag: true) && $0.work.count == 1
      })
    #expect(exploration.time(of: flagged) == .seconds(2))
    // One step from the quiet "flag up", at another time: the return takes the path that found
    // the state (two steps).
    let flagUp = try #require(
      exploration.snapshots.firstIndex { $0.state == .init(flag: true) && $0.work.isEmpty })
    #expect(exploration.transitions(from: flagUp).contains { $0.to == flagged })
    #expect(exploration.returnSteps[flagged] == 2)
    // What holds: every deadline reached is the timer's, two seconds ahead.
    for transition in exploration.transitions {
      guard case .clock(let advance) = transition.choice else { continue }
      #expect(advance == .seconds(2), "\(transition)")
    }
    for transition in exploration.transitions {
      guard case .clock = transition.choice else { continue }
      let before = exploration.snapshots[transition.from].state
      let after = exploration.snapshots[transition.to].state
      guard before.flag else { continue }
      #expect(after.ticks == min(before.ticks + 1, 3), "\(transition)\n\(dump(exploration))")
    }
    for number in exploration.snapshots.indices {
      #expect(!exploration.storeTest(to: number).contains(endsElsewhere), "state \(number)")
    }
  }

  /// The same, with an hour between the two times and a timer of 10 ms: the search is complete.
  /// (The timer, returned to at zero and its clock shifted to one hour, slept until instants long
  /// past, 360,000 times, and the search stopped as if work never waited.)
  @Test func aFastTimerReturnedToAnHourEarlierDoesNotStopTheSearch() throws {
    let exploration = explore(
      NapThenTimer.self, from: .init(), deps: NapThenTimer.deps, events: NapThenTimer.using)
    let ticking = try #require(
      exploration.snapshots.firstIndex { $0.state == .init(flag: true, ticking: true) })
    #expect(exploration.time(of: ticking) == .seconds(3600))
    exploration.expectComplete()
    #expect(exploration.snapshots.contains { $0.state.ticks == 3 })
  }

  /// A repeating `sleep(for:)` keeps no instant of its own: returned to at another time, it ticks
  /// as on every path from the start.
  @Test func aLoopOfRelativeSleepsReturnedToAtAnotherTimeTicksOnce() {
    let exploration = explore(
      NapThenTimer.self, from: .init(relative: true), deps: NapThenTimer.deps,
      events: NapThenTimer.using)
    exploration.expectComplete()
    #expect(stepsThatEndElsewhere(exploration) == [])
    #expect(exploration.snapshots.contains { $0.state.ticks == 3 })
    for transition in exploration.transitions {
      guard case .clock(let advance) = transition.choice else { continue }
      let before = exploration.snapshots[transition.from].state
      let after = exploration.snapshots[transition.to].state
      guard before.ticking else { continue }
      #expect(advance == .milliseconds(10))
      #expect(after.ticks == min(before.ticks + 1, 3), "\(transition)")
    }
  }

  /// One piece of work waits for three calls, which it made in another order on the path that
  /// found the state than on the shorter path the explorer returns along: every answer must still
  /// reach the call it names.
  ///
  /// `.prefetch` loads a config, then x, y, z in a task group; `.arm`, `.direct` loads x, z, y.
  /// Both reach one state (started, nothing got; "trio" waits for x, y, z): a state's key sorts
  /// the calls after the first. The answer step names the call by its rank among its work's calls
  /// (`nth`), which along the shorter path is another call: "y answers" there answers z.
  @Test func anAnswerReachesTheCallItNamesWhenTheWorkCalledInAnotherOrder() throws {
    let exploration = explore(
      TrioLoader.self, from: .init(), deps: TrioLoader.deps, events: TrioLoader.using)
    exploration.expectComplete()
    let waiting = try #require(
      exploration.snapshots.firstIndex {
        $0.state.started && $0.state.got.isEmpty
          && $0.work.first?.waitsFor == .answer(dependency: "x", arguments: "")
      })
    #expect(exploration.depth(of: waiting) == 2)
    // One step from the quiet armed state.
    let armed = try #require(exploration.snapshots.firstIndex { $0.state.armed })
    #expect(exploration.transitions(from: armed).map(\.to) == [waiting])
    #expect(exploration.transitions(from: waiting).count == 3)
    // NB: an answer step names its call by the work, the dependency and the arguments (it named
    // the work's nth call, and "y answers" answered z there).
    for transition in exploration.transitions {
      guard case .answer(let dependency, _, _) = transition.choice, dependency != "config"
      else { continue }
      let before = exploration.snapshots[transition.from].state
      let after = exploration.snapshots[transition.to].state
      #expect(after.got == before.got + [dependency], "\(transition)\n\(dump(exploration))")
    }
    // The rule "z is not first" breaks when z answers first: the path printed must answer z.
    withKnownIssue {
      exploration.expectInvariant(.zIsNotFirst)
    } matching: { issue in
      let text = String(describing: issue)
      let printsZ = text.contains("3. z() answers value(3)")
      let endsThere = !text.contains(endsElsewhere)
      if !printsZ || !endsThere {
        withKnownIssue("bug: the path printed answers y, and ends elsewhere when taken again") {
          #expect(printsZ && endsThere, "\(text)")
        }
      }
      return isRuleBreach(text, "z is not first")
    }
  }
}

/// Whether `text` is the message of a broken invariant named `rule`.
private func isRuleBreach(_ text: String, _ rule: String) -> Bool {
  text.contains("The invariant \"\(rule)\" does not hold")
}

/// Printed store tests, pasted and run.
@Suite struct ExploreReturnAttackPrintedTests {
  /// Two pieces of work started without an id wait for equal calls: the path where the second
  /// answers first is printed without naming its work (it has no id), so the pasted test answers
  /// whichever call its store made first.
  @Test func equalCallsOfUnkeyedWorkPrintAPathTheStoreTestTakes() async throws {
    let exploration = explore(
      UnkeyedTwins.self, from: .init(), deps: UnkeyedTwins.deps, events: UnkeyedTwins.refreshing)
    exploration.expectComplete()
    #expect(exploration.snapshots.count == 6)
    withKnownIssue {
      exploration.expectInvariant(.unkeyedSlotAFirst)
    } matching: { issue in
      // The path says the answer may go to the other call.
      String(describing: issue).hasSuffix(
        """
        // Another piece of work waits for an equal call, and this one has no id to name it by: \
        the test answers the oldest, which may not be this one.
        try await effects.answer("load", arguments: "1", sample: 0)
        await test.receive(.loaded(slot: "b", value: "x")) {
          $0 = TwinLoads.State(refreshed: true, order: ["b"])
        }
        await test.expect(.unkeyedSlotAFirst, effects: effects)
        """)
    }
    // As pasted, the test should fail on its last line only, the rule's check.
    await withKnownIssue(
      """
      bug: a printed answer names the calling work only by its id; unkeyed work has none, so the \
      store test answers the oldest equal call, slot a's, and `receive(.loaded(slot: "b"…))` fails
      """,
      isIntermittent: true
    ) {
      try await withKnownIssue {
        try await unkeyedTwinsAsPrinted()
      } matching: {
        isRuleCheck($0, "slot a answers first")
      }
    }
  }

  func unkeyedTwinsAsPrinted() async throws {
    let deps = UnkeyedTwins.deps
    let effects = ExploredEffects()
    let test = StoreTest<UnkeyedTwins>(
      state: TwinLoads.State(refreshed: false, order: []), deps: deps(effects),
      endChecks: EndChecks.all.subtracting(.runningWork))
    await test.send(.refresh, decisions: [.load(slot: "a"), .load(slot: "b")]) {
      $0 = TwinLoads.State(refreshed: true, order: [])
    }
    try await effects.answer("load", arguments: "1", sample: 0)
    await test.receive(.loaded(slot: "b", value: "x")) {
      $0 = TwinLoads.State(refreshed: true, order: ["b"])
    }
    await test.expect(.unkeyedSlotAFirst, effects: effects)
  }
}

extension ExplorationRule<PrefetchingList> {
  /// The screen's text arrives before the list's prefetch.
  static var screenLoadsFirst: Self {
    Self("the screen loads first") {
      $0.state.prefetched == nil || $0.state.screen?.textItem != nil
    }
  }
}

extension ExploreReturnAttackPrintedTests {
  /// The list's work "load" and its screen's work "load" wait for equal calls: the paths where
  /// either answers first print the same `answer` line, `work: "load"`, so one of the two cannot
  /// be taken by its store test.
  @Test func equalCallsOfWorkWithOneIdInTwoScopesPrintAPathTheStoreTestTakes() async throws {
    let exploration = explore(
      PrefetchingList.self, from: .init(), deps: PrefetchingList.deps,
      events: PrefetchingList.opening)
    exploration.expectComplete()
    #expect(exploration.snapshots.count == 5)
    let screenFirst = try #require(
      exploration.snapshots.firstIndex {
        $0.state.screen?.textItem == 1 && $0.state.prefetched == nil
      })
    let listFirst = try #require(
      exploration.snapshots.firstIndex {
        $0.state.screen?.textItem == nil && $0.state.prefetched == 1
      })
    let answer = #"try await effects.answer("load", arguments: "1", work: "load", sample: 0)"#
    #expect(exploration.storeTest(to: screenFirst).contains(answer))
    // The path says the answer may go to the other call.
    #expect(
      exploration.storeTest(to: screenFirst).contains(
        "// Work with this id in another scope waits for an equal call: the test answers the "
          + "oldest of the two, which may not be this one.\n" + answer))
    withKnownIssue {
      exploration.expectInvariant(.screenLoadsFirst)
    } matching: { issue in
      String(describing: issue).contains(answer + "\nawait test.receive(.prefetched(1)) {")
    }
    withKnownIssue(
      """
      bug: a printed answer names the calling work by its id alone; the list's "load" and its \
      screen's "load" print alike, and the store test answers whichever called first
      """
    ) {
      #expect(
        exploration.storeTest(to: screenFirst).components(separatedBy: "\n").filter {
          $0.hasPrefix("try await")
        }
          != exploration.storeTest(to: listFirst).components(separatedBy: "\n").filter {
            $0.hasPrefix("try await")
          })
    }
    // As pasted, the path to the breach should fail on its last line only, the rule's check.
    await withKnownIssue(
      """
      bug: `work: "load"` answers the screen's call (it called first), and \
      `receive(.prefetched(1))` fails
      """,
      isIntermittent: true
    ) {
      try await withKnownIssue {
        try await prefetchingListAsPrinted()
      } matching: {
        isRuleCheck($0, "the screen loads first")
      }
    }
  }

  func prefetchingListAsPrinted() async throws {
    let deps = PrefetchingList.deps
    let effects = ExploredEffects()
    let test = StoreTest<PrefetchingList>(
      state: PrefetchingList.State(screen: nil, prefetched: nil), deps: deps(effects),
      endChecks: EndChecks.all.subtracting(.runningWork))
    await test.send(.open(1), decisions: [.screen(.load(1)), .prefetch(1)]) {
      $0 = PrefetchingList.State(
        screen: ItemScreen.State(item: 1, textItem: nil),
        prefetched: nil
      )
    }
    try await effects.answer("load", arguments: "1", work: "load", sample: 0)
    await test.receive(.prefetched(1)) {
      $0 = PrefetchingList.State(
        screen: ItemScreen.State(item: 1, textItem: nil),
        prefetched: 1
      )
    }
    await test.expect(.screenLoadsFirst, effects: effects)
  }
}

/// The transitions whose step, taken again after the path that found its state, ends in another
/// state than the graph says.
private func stepsThatEndElsewhere<F: Feature>(_ exploration: FeatureExploration<F>) -> [String] {
  exploration.transitions.indices.compactMap { index in
    let transition = exploration.transitions[index]
    let path = exploration.pathIndices(to: transition.from) + [index]
    let printed = exploration.storeTest(of: path, deps: "deps")
    return printed.contains(endsElsewhere) ? "\(transition)" : nil
  }
}

/// Taken again after the path that found its state, every step explored ends where the graph
/// says, in features whose work keeps no value to itself: timers started again and stopped, child
/// scopes, `async let`, cancellation, returns along shorter paths.
@Suite struct ExploreReturnAttackOracleTests {
  func expectEveryStepEndsWhereItSays<F: Feature>(
    _ exploration: FeatureExploration<F>, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(exploration.isComplete, sourceLocation: sourceLocation)
    #expect(exploration.transitions.count > 1, sourceLocation: sourceLocation)
    #expect(stepsThatEndElsewhere(exploration) == [], sourceLocation: sourceLocation)
    // Each state's time is its parent's, plus the advance that found it.
    for number in exploration.snapshots.indices.dropFirst() {
      guard let found = exploration.shortestPath(to: number).last else { continue }
      var advance = Duration.zero
      if case .clock(let by) = found.choice { advance = by }
      #expect(
        exploration.time(of: number) == exploration.time(of: found.from) + advance,
        "state \(number)", sourceLocation: sourceLocation)
    }
  }

  @Test func timersStartedAgainStoppedAndANapBesideThem() {
    let exploration = explore(
      ClockMix.self, from: .init(), deps: ClockMix.deps, events: ClockMix.using)
    expectEveryStepEndsWhereItSays(exploration)
    #expect(exploration.snapshots.count == 22)
    // Every deadline reached is the earliest one waiting, as the snapshot shows it.
    for transition in exploration.transitions {
      guard case .clock(let advance) = transition.choice else { continue }
      let deadlines = exploration.snapshots[transition.from].work.compactMap { work in
        if case .deadline(let remaining) = work.waitsFor { remaining } else { nil }
      }
      #expect(advance == deadlines.min(), "\(transition)")
    }
  }

  @Test func featuresOfTheOtherTests() {
    expectEveryStepEndsWhereItSays(
      explore(Poller.self, from: .init(), deps: Poller.deps, events: { _ in [.start] }))
    expectEveryStepEndsWhereItSays(
      explore(
        DebouncedSearch.self, from: .init(), deps: DebouncedSearch.deps,
        events: DebouncedSearch.typing))
    expectEveryStepEndsWhereItSays(
      explore(Retrier.self, from: .init(), deps: Retrier.deps, events: Retrier.saving))
    expectEveryStepEndsWhereItSays(
      explore(
        RefreshedRows.self, from: .init(fixed: true), deps: RefreshedRows.deps,
        events: RefreshedRows.refreshing))
    expectEveryStepEndsWhereItSays(
      explore(PairLoader.self, from: .init(), deps: PairLoader.deps, events: PairLoader.starting))
    expectEveryStepEndsWhereItSays(
      explore(TwinTimers.self, from: .init(), deps: TwinTimers.deps, events: TwinTimers.starting))
    expectEveryStepEndsWhereItSays(
      explore(
        TwoCalls.self, from: .init(), deps: TwoCalls.deps,
        events: { _ in [.startA, .startB, .flip] }))
    expectEveryStepEndsWhereItSays(
      explore(
        LoadAndFlag.self, from: .init(), deps: LoadAndFlag.deps, events: { _ in [.load, .flip] }))
    expectEveryStepEndsWhereItSays(
      explore(
        ItemList.self, from: .init(fixed: true), deps: ItemList.deps, events: ItemList.browsing))
    expectEveryStepEndsWhereItSays(
      explore(
        CancelLogger.self, from: .init(), deps: CancelLogger.deps, events: CancelLogger.using))
    expectEveryStepEndsWhereItSays(
      explore(
        PrefetchingList.self, from: .init(), deps: PrefetchingList.deps,
        events: PrefetchingList.opening))
    expectEveryStepEndsWhereItSays(
      explore(
        UnkeyedTwins.self, from: .init(), deps: UnkeyedTwins.deps,
        events: UnkeyedTwins.refreshing))
  }
}

/// Work that keeps a value to itself: two moments are one state, and a path printed says so.
@Suite struct ExploreReturnAttackKeptValueTests {
  /// A save that tries twice: a failure leaves the state as it was, the tries being the work's own.
  ///
  /// The step is a loop on the state. Each choice is taken in the moment that found the state
  /// (the first try), so every path ends where it says; but giving up, after a second failure, is
  /// not explored. (The explorer once kept the loop of such a step for the next choice: the second
  /// failure then gave up, in a moment its printed path did not reach.)
  @Test func aSaveThatKeepsItsTriesToItselfIsExploredFromItsFirstTry() throws {
    let exploration = explore(
      TwoTries.self, from: .init(), deps: TwoTries.deps, events: TwoTries.saving)
    exploration.expectComplete()
    let waiting = try #require(exploration.snapshots.firstIndex { $0.state.saving })
    #expect(exploration.transitions(from: waiting).map(\.to).contains(waiting))
    #expect(stepsThatEndElsewhere(exploration) == [])
    withKnownIssue(
      """
      bug: the tries are the work's own, so a failure is a step back to the same state, and \
      giving up is never explored
      """
    ) {
      #expect(exploration.snapshots.contains { $0.state.outcome == "gave up" })
    }
  }

  /// The same save, which once it gave up reports, and shows the report's number (1 or 2): its
  /// report is not explored either, since giving up is not.
  @Test func aSaveThatGivesUpAndReportsIsExploredFromItsFirstTry() throws {
    let exploration = explore(
      TriesThenReport.self, from: .init(), deps: TriesThenReport.deps,
      events: TriesThenReport.saving)
    exploration.expectComplete()
    #expect(stepsThatEndElsewhere(exploration) == [])
    withKnownIssue("bug: the tries are the work's own: giving up, and the report, are not explored")
    {
      #expect(exploration.snapshots.contains { $0.state.gaveUp })
      #expect(exploration.snapshots.contains { $0.state.report == 2 })
    }
  }

  /// Work whose call takes a value from outside the feature: the explorer says it cannot return.
  ///
  /// The value is a counter of the process: each return to the state after the start ends in
  /// another state, along the path that found it too, and so does taking back the answer (the
  /// work started again). The explorer takes no choice there but the first. (Without the check of
  /// each return, the search ran on in states no path reaches.)
  @Test func aStateTheExplorerCannotReturnToIsSaid() throws {
    let exploration = explore(
      OutsideCounter.self, from: .init(), deps: OutsideCounter.deps,
      events: OutsideCounter.starting)
    let loading = try #require(exploration.snapshots.firstIndex { $0.state.started })
    #expect(exploration.transitions(from: loading).count == 1)
    #expect(!exploration.isComplete)
    withKnownIssue {
      exploration.expectComplete()
    } matching: { issue in
      String(describing: issue).contains(
        "The explorer could not return to a state reached in 1 step to take its other choices")
    }
  }

  /// `async let` of two loads, each answered 1 or 2: every pair is explored, [2, 2] too.
  ///
  /// The state after the first answer does not show it: the work keeps it until the second
  /// comes, so the answer is part of what tells the moments apart.
  @Test func bothAsyncLetAnswersOfTheSecondSampleAreExplored() {
    let exploration = explore(
      PairValues.self, from: .init(), deps: PairValues.deps, events: PairValues.starting)
    exploration.expectComplete()
    let pairs = Set(exploration.snapshots.compactMap(\.state.pair))
    // NB: a state's key holds the answers a piece of work got while it still waits for a call it
    // made before (the first answer of the pair): [2, 2] was never explored, and the rule held.
    #expect(pairs == [[1, 1], [1, 2], [2, 1], [2, 2]])
    withKnownIssue {
      exploration.expectInvariant("the pair is not [2, 2]") { $0.state.pair != [2, 2] }
    } matching: { issue in
      isRuleBreach(String(describing: issue), "the pair is not [2, 2]")
    }
    #expect(stepsThatEndElsewhere(exploration) == [])
  }
}
