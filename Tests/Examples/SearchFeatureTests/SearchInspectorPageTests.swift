import DecisionsTesting
import Foundation
import SearchFeature
import Testing

/// The inspector page of a long search session: 100,000 steps make a page within the default
/// limit, whose data the browser's self-test reads (.ci/inspector-browser.sh opens it).
@Suite struct SearchInspectorPageTests {
  /// A long session at the search screen: the user types words and numbers a letter at a time,
  /// the results come, late answers for older queries are dropped, some searches fail and are
  /// retried, and sometimes the field is cleared.
  static func session(steps: Int) throws -> [SearchFeature.Event] {
    let facts = try SearchSource.bundledFacts()
    let words = ["cube", "prime", "perfect", "square", "even", "triangular", "sum", "odd"]
    var events: [SearchFeature.Event] = []
    events.reserveCapacity(steps + 20)
    var round = 0
    while events.count < steps {
      // Every other query is a number, so that most states are new ones.
      let query = round.isMultiple(of: 2) ? words[(round / 2) % words.count] : String(round * 7)
      for length in 1...query.count {
        events.append(.view(.queryChanged(String(query.prefix(length)))))
      }
      events.append(.model(.quietPeriodEnded(String(query.prefix(1)))))  // late: dropped
      events.append(.model(.quietPeriodEnded(query)))
      if round % 9 == 4 {
        events.append(.model(.searchFailed(query: query, reason: "The server answered 503.")))
        events.append(.view(.retry))
      }
      events.append(
        .model(
          .searchFinished(
            SearchResults(query: query, matches: SearchSource.matches(for: query, in: facts)))))
      if round % 3 == 2 { events.append(.view(.queryChanged(""))) }
      round += 1
    }
    return Array(events.prefix(steps))
  }

  /// The session as a flight recording, with the final state its replay reaches.
  static func recording(steps: Int) throws -> FlightRecording<SearchFeature> {
    let events = try session(steps: steps)
    let replay = Replay(SearchFeature.self, from: .init(), events: events)
    return FlightRecording(
      trigger: .requested(note: "a long session"), capacity: steps, checkpointInterval: 1_000,
      initialState: .init(), events: events,
      finalState: try #require(replay.state(atStep: steps)))
  }

  /// Makes the page of 100,000 steps, which fits the default limit of 64 MiB, and writes it to the
  /// file `DECISIONS_INSPECTOR_LONG_PAGE` names, for .ci/inspector-browser.sh.
  @Test func aHundredThousandStepsMakeAPageWithinTheLimit() throws {
    let recording = try Self.recording(steps: 100_000)
    let page = try recording.inspectorPage()
    #expect(page.contains("<body data-steps=\"100000\">"))
    #expect(page.contains("<dt>Final state</dt><dd>matches the replay</dd>"))
    #expect(page.utf8.count <= InspectorPage.Limits().bytes)
    if let path = ProcessInfo.processInfo.environment["DECISIONS_INSPECTOR_LONG_PAGE"] {
      try page.write(toFile: path, atomically: true, encoding: .utf8)
    }
  }
}
