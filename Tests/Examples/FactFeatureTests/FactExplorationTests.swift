import Decisions
import DecisionsTesting
import FactFeature
import Testing

/// The fact screen's whole state space, and the rules its documentation claims, checked in every
/// reachable state.
enum FactModel {
  /// The events tried in every state: a tap, two different facts arriving, and a failure (the
  /// values of the core tests, so that coverage can match their steps).
  static let events: [FactFeature.Event] = [
    .view(.didTapButton), .model(.finishLoading(Fact(text: "old"))),
    .model(.finishLoading(Fact(text: "7 is a prime number."))), .model(.failedLoading("offline")),
  ]

  /// Every state the screen can reach from `.idle`.
  static let exploration = explore(FactFeature.self, from: .idle) { _ in events }

  /// The shortest paths that together send every transition: the model-based tests' arguments.
  static let paths = exploration.transitionCoveringPaths()

  /// The phase of a state, for the diagram.
  static func phase(_ state: FactFeature.State) -> String {
    switch state {
    case .idle: "idle"
    case .loading(previous: nil): "loading"
    case .loading(previous: _?): "loading, a fact shown"
    case .loaded: "loaded"
    }
  }
}

@Suite struct FactExplorationTests {
  let exploration = FactModel.exploration

  @Test func theWholeStateSpaceIsSmallAndExplored() {
    exploration.expectComplete()
    #expect(exploration.states.count == 6)
    #expect(exploration.transitions.count == 24)
    exploration.expectDeterministic()
  }

  @Test func aFailureNeverLeavesTheScreenStuckLoading() {
    exploration.expectTransitionInvariant("a failure ends the load") { step in
      guard case .model(.failedLoading) = step.event else { return true }
      return !step.after.isLoading
    }
    exploration.expectAlwaysCanReach("not loading") { !$0.isLoading }
  }

  @Test func thereAreNeverTwoLoadsAtOnce() {
    exploration.expectTransitionInvariant("no load while loading") { step in
      !step.decisions.contains(.load) || !step.before.isLoading
    }
  }

  @Test func aStaleResultChangesNothing() {
    exploration.expectTransitionInvariant("a result when not loading changes nothing") { step in
      guard case .model = step.event, !step.before.isLoading else { return true }
      return step.after == step.before && step.decisions.isEmpty
    }
  }

  @Test func aLoadInFlightKeepsTheFactOnScreen() {
    exploration.expectTransitionInvariant("a tap keeps the fact shown") { step in
      step.event != .view(.didTapButton) || step.after.text == step.before.text
    }
    exploration.expectReachable("loading with a fact shown") {
      $0.isLoading && $0.text != nil
    }
  }

  @Test func theMachineMatchesItsCheckedInDiagrams() {
    exploration.expectDiagram(named: "fact-phases", projection: FactModel.phase)
    exploration.expectDiagram(.dot, named: "fact-phases", projection: FactModel.phase)
  }

  @Test func theCoreTestsCoverTenOfTheTwentyFourTransitions() {
    let recording = recordingCoreTests {
      let tests = FactCoreTests()
      tests.aTapFromTheInitialStateStartsLoading()
      tests.finishLoadingShowsTheFactAndLogsItAndNothingElse()
      tests.aTapOnALoadedFactLoadsAnotherAndKeepsShowingTheOld()
      tests.aTapWhileLoadingIsTrackedButStartsNoSecondLoad()
      tests.finishLoadingReplacesThePreviousFact()
      tests.aFailureFromScratchGoesBackToIdleWithASnackbar()
      tests.aFailureKeepsThePreviousFactOnScreen()
      tests.resultsThatArriveWhenNotLoadingChangeNothing(state: .idle)
      tests.resultsThatArriveWhenNotLoadingChangeNothing(state: .loaded("old"))
      tests.failThenRetryThenSucceed()
    }
    let coverage = exploration.coverage(of: recording)
    // NB: most of what the core tests leave out is a rule they check once, sent again with the
    // other fact or in the other loaded state: `print(coverage)` lists each transition.
    #expect(coverage.covered.count == 10)
    #expect(coverage.uncovered.count == 14)
    #expect(coverage.outside == 2)
  }
}

/// Model-based tests: a real store, driven along every transition-covering path, agrees with the
/// core at every step.
@Suite(.timeLimit(.minutes(3))) struct FactModelTests {
  @Test(arguments: FactModel.paths)
  func theStoreFollowsTheCore(path: EventPath<FactFeature>) async {
    let tracked = Calls<FactFeature.Event>()
    let shown = Calls<String>()
    let journal = Journal<FactFeature>(initialState: path.initialState)
    // The load waits until the store stops: the path sends the results itself.
    let load = ControlledDependency<Void, Fact>()
    let deps = FactFeature.Deps(
      track: tracked.record, showSnackbar: shown.record, log: { _ in },
      loadFact: { try await load() })
    let store = Store<FactFeature>(
      state: path.initialState, deps: deps, diagnostics: journal.record)
    await path.expectStoreAgrees(store, journal: journal)
    await store.stop()
    // The executor performed the quick decisions the core made, each once.
    let decided = path.steps.flatMap(\.decisions)
    #expect(tracked.all.count == decided.count { if case .track = $0 { true } else { false } })
    #expect(
      shown.all.count == decided.count { if case .showSnackbar = $0 { true } else { false } })
  }

  @Test func thereIsAPathForEveryTransitionNotOnTheWayToAnother() {
    #expect(FactModel.paths.count == 19)
    #expect(FactModel.paths.allSatisfy { !$0.steps.isEmpty })
  }
}
