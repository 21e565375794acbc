import Decisions
import DecisionsTesting
import SearchFeature
import Testing

/// The search screen's reachable states, over a small alphabet of queries and answers, and the
/// rules its documentation claims, checked in every one.
enum SearchModel {
  /// The texts typed: none, one, and one that extends it, so that every answer can be stale.
  static let texts = ["", "a", "ab"]

  /// The events tried in every state: each text typed, a retry, and every answer for every text.
  static let events: [SearchFeature.Event] =
    texts.map { .view(.queryChanged($0)) } + [.view(.retry)]
    + texts.dropFirst().flatMap { text in
      [
        .model(.quietPeriodEnded(text)),
        .model(.searchFinished(SearchResults(query: text, matches: ["\(text) found"]))),
        .model(.searchFailed(query: text, reason: "offline")),
      ]
    }

  /// Every state the screen can reach from an empty query.
  ///
  /// Told apart by query and phase, which only take the values above.
  static let exploration = explore(
    SearchFeature.self, from: .init(), key: { "\($0.query)|\($0.phase)" }, events: { _ in events })

  /// The phase of a state, for the diagram.
  static func phase(_ state: SearchFeature.State) -> String {
    switch state.phase {
    case .idle: "idle"
    case .debouncing: "debouncing"
    case .searching: "searching"
    case .loaded: "loaded"
    case .failed: "failed"
    }
  }
}

@Suite struct SearchExplorationTests {
  let exploration = SearchModel.exploration

  @Test func theWholeStateSpaceIsExplored() {
    exploration.expectComplete()
    exploration.expectDeterministic()
    #expect(exploration.states.count == 9)  // no query, and four phases for each of two texts
  }

  @Test func aFailureNeverLeavesTheScreenStuckSearching() {
    exploration.expectTransitionInvariant("a failure for the text on screen ends the search") {
      step in
      guard case .model(.searchFailed(let query, _)) = step.event,
        query == step.before.searchText, step.before.phase == .searching
      else { return true }
      return step.after.failureReason != nil
    }
    exploration.expectAlwaysCanReach("nothing pending") { !$0.isPending }
  }

  @Test func thereIsNeverMoreThanOneSearchAtOnce() {
    exploration.expectTransitionInvariant("at most one search or wait started per step") { step in
      step.decisions.filter { $0 != .cancelSearch }.count <= 1
    }
  }

  @Test func aStaleAnswerChangesNothing() {
    exploration.expectTransitionInvariant("an answer for another text changes nothing") { step in
      let query: String
      switch step.event {
      case .model(.quietPeriodEnded(let text)): query = text
      case .model(.searchFinished(let results)): query = results.query
      case .model(.searchFailed(let text, _)): query = text
      case .view: return true
      }
      guard query != step.before.searchText else { return true }
      return step.after == step.before && step.decisions.isEmpty
    }
  }

  @Test func anEmptyQueryNeverSearches() {
    exploration.expectInvariant("an empty query is idle") { state in
      !state.searchText.isEmpty || state.phase == .idle
    }
    exploration.expectTransitionInvariant("typing nothing starts no search") { step in
      guard case .view(.queryChanged(let text)) = step.event,
        text.allSatisfy(\.isWhitespace)
      else { return true }
      return step.decisions.allSatisfy { $0 == .cancelSearch }
    }
  }

  @Test func theMachineMatchesItsCheckedInDiagram() {
    exploration.expectDiagram(named: "search-phases", projection: SearchModel.phase)
  }
}
