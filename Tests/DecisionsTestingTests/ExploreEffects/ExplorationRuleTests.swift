import Decisions
import DecisionsTesting
import Testing

/// Rules declared where a printed test cannot call them by name.
enum SearchRules {
  static let idleResults = ExplorationRule<DebouncedSearch>(
    "idle results are for the query"
  ) {
    ExplorationRule<DebouncedSearch>.idleResultsAreForTheQuery.holds(in: $0)
  }
}

/// The moments a rule was asked about.
final class Moments<F: Feature & SendableMetatype>: @unchecked Sendable where F.State: Hashable {
  var seen: [FeatureExploration<F>.Snapshot] = []

  /// A rule that keeps each moment it is asked about, and holds.
  var recorder: ExplorationRule<F> {
    ExplorationRule("records") { [self] moment in
      seen.append(moment)
      return true
    }
  }
}

@Suite struct ExplorationRuleTests {
  /// A store test's check sees what the explorer saw in the same state: the core's state, and
  /// each piece of work with what it waits for (a deadline, then a call with its arguments).
  ///
  /// On either kind of store: both list their work in flight for the check.
  @MainActor
  @Test(arguments: StoreKind.allCases)
  func aStoreTestSeesTheMomentTheExplorerSaw(on kind: StoreKind) async throws {
    let exploration = explore(
      DebouncedSearch.self, from: .init(), deps: DebouncedSearch.deps,
      events: DebouncedSearch.typing)
    let moments = Moments<DebouncedSearch>()
    let effects = ExploredEffects()
    let test = StoreTest<DebouncedSearch>(
      state: .init(), deps: DebouncedSearch.deps(effects), on: kind)
    await test.send(.queryChanged("s"), decisions: [.debounce("s")]) { $0.query = "s" }
    await test.expect(moments.recorder, effects: effects)
    await effects.advanceClock(by: .milliseconds(300))
    await test.receive(.debounced("s"), decisions: [.search("s")])
    await test.expect(moments.recorder, effects: effects)
    // A second debounce, from 0.3 s: its deadline is 0.3 s away, as the explorer counts it.
    await test.send(.queryChanged("sw"), decisions: [.debounce("sw")]) { $0.query = "sw" }
    await test.expect(moments.recorder, effects: effects)
    try await effects.answer("search", arguments: "\"s\"", sample: 0)
    await test.receive(.searched(query: "s", results: ["result"])) {
      $0.results = ["result"]
      $0.resultsQuery = "s"
    }
    await test.expect(moments.recorder, effects: effects)
    await effects.advanceClock(by: .milliseconds(300))
    await test.receive(.debounced("sw"), decisions: [.search("sw")])
    try await effects.answer("search", arguments: "\"sw\"", sample: 0)
    await test.receive(.searched(query: "sw", results: ["result"])) { $0.resultsQuery = "sw" }
    await test.expect(moments.recorder, effects: effects)
    await test.finish()

    let debounce = ExploredWork(
      scope: [], id: WorkID("debounce"), waitsFor: .deadline(in: .milliseconds(300)))
    let search = ExploredWork(
      scope: [], id: nil, waitsFor: .answer(dependency: "search", arguments: #""s""#))
    #expect(
      moments.seen.map(\.work) == [[debounce], [search], [search, debounce], [debounce], []])
    for moment in moments.seen {
      #expect(exploration.snapshots.contains(moment), "the explorer never saw \(moment)")
    }
  }

  /// A broken rule fails the store test at the check's line, with the state and the work.
  @Test func aBrokenRuleFailsWithTheMoment() async {
    let effects = ExploredEffects()
    let test = StoreTest<DebouncedSearch>(
      state: .init(), deps: DebouncedSearch.deps(effects),
      endChecks: EndChecks.all.subtracting(.runningWork))
    await test.send(.queryChanged("s"), decisions: [.debounce("s")]) { $0.query = "s" }
    let nothingRuns = ExplorationRule<DebouncedSearch>("nothing runs") { $0.work.isEmpty }
    await withKnownIssue {
      await test.expect(nothingRuns, effects: effects)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("The rule \"nothing runs\" does not hold")
        && text.contains(#"state: DebouncedSearch.State(query: "s""#)
        && text.contains(#"work:  "debounce" sleeps for 0.3 seconds"#)
    }
    // A rule that holds passes.
    await test.expect(.idleResultsAreForTheQuery, effects: effects)
  }

  /// The doubles an exploration made cannot take a store test's moment: the check says so.
  @Test func theDoublesOfAnExplorationAreRefused() async {
    final class Kept: @unchecked Sendable { var effects: ExploredEffects? }
    let kept = Kept()
    _ = explore(
      DebouncedSearch.self, from: .init(),
      deps: { effects in
        kept.effects = effects
        return DebouncedSearch.deps(effects)
      },
      events: { _ in [] })
    let test = StoreTest<DebouncedSearch>(state: .init(), deps: DebouncedSearch.deps(.init()))
    await withKnownIssue {
      await test.expect(.idleResultsAreForTheQuery, effects: kept.effects ?? ExploredEffects())
    } matching: { issue in
      String(describing: issue).contains("takes the doubles of a store test")
    }
  }

  /// A rule with no static property to call it by (a local constant, a `static let` elsewhere, or
  /// a closure given to the check) ends the printed test with a comment where it breaks.
  @Test func aRuleWithoutAPropertyEndsThePrintedTestWithAComment() {
    let exploration = explore(
      DebouncedSearch.self, from: .init(), deps: DebouncedSearch.deps,
      events: DebouncedSearch.typing)
    let local = ExplorationRule<DebouncedSearch>("idle results are for the query") { moment in
      !moment.work.isEmpty || moment.state.resultsQuery.map { $0 == moment.state.query } ?? true
    }
    let comment =
      "// The rule \"idle results are for the query\" breaks here. Declared as a static "
      + "property of ExplorationRule, it would be checked on this line."
    for rule in [local, SearchRules.idleResults] {
      withKnownIssue {
        exploration.expectInvariant(rule)
      } matching: { issue in
        String(describing: issue).hasSuffix(comment)
      }
    }
    withKnownIssue {
      exploration.expectInvariant("idle results are for the query") { local.holds(in: $0) }
    } matching: { issue in
      String(describing: issue).hasSuffix(comment)
    }
  }
}

extension ExplorationRule<Retrier> {
  /// The draft is saved.
  static var isSaved: Self {
    Self("the draft is saved") { $0.state.isSaved }
  }

  /// A save was asked for.
  static var saveAsked: Self {
    Self("a save was asked for") { $0.state.attempts > 0 }
  }
}

@Suite struct ExplorationFairnessTests {
  /// A retry without a cap can fail for ever when only calls are sure to be answered: the rule
  /// breaks with a lasso of failures and retries.
  @Test func aRetryWithoutACapCanFailForEver() {
    let exploration = explore(
      Retrier.self, from: .init(), deps: Retrier.deps, events: Retrier.saving)
    exploration.expectComplete()
    withKnownIssue {
      exploration.expectEventually(.isSaved, after: .saveAsked)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("can loop for ever") && text.contains("save() answers failure(")
    }
  }

  /// A named goal takes a trigger written in place: the rule applies from where it holds, and
  /// the printed test still ends with the goal's check.
  @Test func aNamedGoalTakesATriggerWrittenInPlace() {
    let exploration = explore(
      Retrier.self, from: .init(), deps: Retrier.deps, events: Retrier.saving)
    withKnownIssue {
      exploration.expectEventually(.isSaved, after: { $0.state.attempts > 0 })
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("The rule \"the draft is saved\" applies from")
        && text.hasSuffix("await test.expect(.isSaved, effects: effects)")
    }
    // A trigger that never holds: the rule applies nowhere.
    exploration.expectEventually(.isSaved, after: { $0.state.attempts > 99 })
  }

  /// Assuming every answer that can come again and again does come in the end, the retries
  /// succeed: the rule holds.
  @Test func assumingTheServerComesBackTheRetriesSucceed() {
    let exploration = explore(
      Retrier.self, from: .init(), deps: Retrier.deps, events: Retrier.saving)
    exploration.expectEventually(.isSaved, after: .saveAsked, assuming: .everyAnswerGiven)
    exploration.expectEventually(
      "the draft is saved", after: { $0.state.attempts > 0 }, assuming: .everyAnswerGiven,
      { $0.state.isSaved })
  }

  /// A loop that gives every answer it can is fair: a feature that drops its successes loops for
  /// ever under either fairness.
  @Test func aLoopThatTakesEveryAnswerStillBreaksTheRule() {
    let exploration = explore(
      Retrier.self, from: .init(ignoresSuccess: true), deps: Retrier.deps,
      events: Retrier.saving)
    withKnownIssue {
      exploration.expectEventually(.isSaved, after: .saveAsked, assuming: .everyAnswerGiven)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("can loop for ever")
        && text.contains("and the loop gives every answer its calls can get")
        && text.contains("save() answers value(())")
        && text.contains("save() answers failure(")
    }
  }

  /// Where the only answer is a failure, fairness over answers does not help: the failures are
  /// every answer there is.
  @Test func aServerThatNeverComesBackBreaksTheRule() {
    let exploration = explore(
      Retrier.self, from: .init(),
      deps: { effects in
        Retrier.Deps(
          save: effects.dependency("save", answers: [.failure(Retrier.Offline())]),
          clock: effects.clock)
      },
      events: Retrier.saving)
    withKnownIssue {
      exploration.expectEventually(.isSaved, after: .saveAsked, assuming: .everyAnswerGiven)
    } matching: { issue in
      String(describing: issue).contains("can loop for ever")
    }
  }
}
