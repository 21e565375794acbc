import Decisions
import DecisionsTesting
import Testing

@Suite struct ExploreEffectsTests {
  /// The rule the debounced search must keep: once no work is in flight, the results on show are
  /// for the query on show.
  static func idleResultsAreForTheQuery(_ snapshot: FeatureExploration<DebouncedSearch>.Snapshot)
    -> Bool
  {
    !snapshot.work.isEmpty || snapshot.state.resultsQuery.map { $0 == snapshot.state.query } ?? true
  }

  @Test func theFixedSearchKeepsItsResultsForTheQuery() {
    let exploration = explore(
      DebouncedSearch.self, from: .init(fixed: true), deps: DebouncedSearch.deps,
      events: DebouncedSearch.typing)
    exploration.expectComplete()
    exploration.expectInvariant("idle results are for the query", Self.idleResultsAreForTheQuery)
    // The search reached every kind of moment: a debounce, a search waiting, results shown.
    #expect(
      exploration.snapshots.contains {
        $0.work.map(\.waitsFor) == [.deadline(in: .milliseconds(300))]
      })
    #expect(
      exploration.snapshots.contains {
        $0.work.map(\.waitsFor) == [.answer(dependency: "search", arguments: #""sw""#)]
      })
    #expect(exploration.snapshots.contains { $0.state.resultsQuery == "sw" && $0.work.isEmpty })
  }

  /// Issue 38 (d): with the fix removed, the explorer finds the answers in the order that shows
  /// an older query's results, and prints the path.
  @Test func theBuggySearchShowsResultsForAnOlderQuery() {
    let exploration = explore(
      DebouncedSearch.self, from: .init(), deps: DebouncedSearch.deps,
      events: DebouncedSearch.typing)
    withKnownIssue {
      exploration.expectInvariant("idle results are for the query", Self.idleResultsAreForTheQuery)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("5. search(\"sw\") answers") && text.contains("6. search(\"s\") answers")
    }
  }
}
