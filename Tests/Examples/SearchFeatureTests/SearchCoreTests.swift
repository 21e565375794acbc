import DecisionsTesting
import SearchFeature
import Testing

/// Every event in every phase, exhaustively: the whole behaviour of the search screen.
///
/// The screen below shows "ab" in every phase but idle; "ab" is also the text it waits for.
@Suite struct SearchCoreTests {
  typealias State = SearchFeature.State

  private static let idle = State(query: "", phase: .idle)
  private static let debouncing = State(query: "ab", phase: .debouncing)
  private static let searching = State(query: "ab", phase: .searching)
  private static let loaded = State(query: "ab", phase: .loaded(["ab result"]))
  private static let failed = State(query: "ab", phase: .failed("offline"))
  private static let everyPhase = [idle, debouncing, searching, loaded, failed]

  private static func typed(_ query: String) -> SearchFeature.Event { .view(.queryChanged(query)) }
  private static let retry = SearchFeature.Event.view(.retry)
  private static func quiet(_ text: String) -> SearchFeature.Event {
    .model(.quietPeriodEnded(text))
  }
  private static func finished(_ text: String) -> SearchFeature.Event {
    .model(.searchFinished(SearchResults(query: text, matches: ["\(text) result"])))
  }
  private static func failure(_ text: String) -> SearchFeature.Event {
    .model(.searchFailed(query: text, reason: "HTTP status 500"))
  }

  // MARK: - Typing

  @Test(arguments: everyPhase)
  func typingInAnyPhaseWaitsForTheQuietPeriodWithTheNewText(state: State) {
    expectStep(
      SearchFeature.self, from: state, on: Self.typed("abc"), decisions: [.debounce("abc")]
    ) {
      $0 = State(query: "abc", phase: .debouncing)
    }
  }

  @Test(arguments: everyPhase)
  func theSameTextAgainIsNoKeystrokeAndChangesNothing(state: State) {
    expectStep(SearchFeature.self, from: state, on: Self.typed(state.query))
  }

  @Test func theTextSearchedForIsTheQueryWithoutTheWhiteSpaceAroundIt() {
    expectStep(
      SearchFeature.self, from: Self.idle, on: Self.typed(" \tab c \n"),
      decisions: [.debounce("ab c")]
    ) {
      $0 = State(query: " \tab c \n", phase: .debouncing)
    }
    // A change of white space alone is still a keystroke: the wait starts again.
    expectStep(
      SearchFeature.self, from: Self.loaded, on: Self.typed("ab "), decisions: [.debounce("ab")]
    ) {
      $0 = State(query: "ab ", phase: .debouncing)
    }
  }

  @Test(arguments: [debouncing, searching], ["", "   "])
  func clearingTheQueryCancelsWhatIsPendingWithoutSearching(state: State, query: String) {
    expectStep(SearchFeature.self, from: state, on: Self.typed(query), decisions: [.cancelSearch]) {
      $0 = State(query: query, phase: .idle)
    }
  }

  @Test(arguments: [loaded, failed])
  func clearingTheQueryClearsTheResultsOrTheFailure(state: State) {
    expectStep(SearchFeature.self, from: state, on: Self.typed("")) {
      $0 = State(query: "", phase: .idle)
    }
  }

  @Test func whiteSpaceOnAnEmptyScreenSearchesNothing() {
    expectStep(SearchFeature.self, from: Self.idle, on: Self.typed("  ")) {
      $0.query = "  "
    }
  }

  // MARK: - Retry

  @Test func retryAfterAFailureSearchesTheSameTextAtOnce() {
    expectStep(SearchFeature.self, from: Self.failed, on: Self.retry, decisions: [.search("ab")]) {
      $0.phase = .searching
    }
  }

  @Test(arguments: [idle, debouncing, searching, loaded])
  func retryWithoutAFailureChangesNothing(state: State) {
    expectStep(SearchFeature.self, from: state, on: Self.retry)
  }

  // MARK: - The quiet period

  @Test func theEndOfTheQuietPeriodStartsTheSearch() {
    expectStep(SearchFeature.self, from: Self.debouncing, on: Self.quiet("ab")) {
      $0.phase = .searching
    }
  }

  @Test(arguments: everyPhase)
  func theEndOfAQuietPeriodForAnotherTextChangesNothing(state: State) {
    expectStep(SearchFeature.self, from: state, on: Self.quiet("a"))
  }

  @Test(arguments: [idle, searching, loaded, failed])
  func theEndOfAQuietPeriodThatIsNotAwaitedChangesNothing(state: State) {
    expectStep(SearchFeature.self, from: state, on: Self.quiet("ab"))
  }

  // MARK: - Results

  @Test func resultsForTheTextSearchedForAreShown() {
    expectStep(SearchFeature.self, from: Self.searching, on: Self.finished("ab")) {
      $0.phase = .loaded(["ab result"])
    }
    expectStep(
      SearchFeature.self, from: Self.searching,
      on: .model(.searchFinished(SearchResults(query: "ab", matches: [])))
    ) {
      $0.phase = .loaded([])
    }
  }

  @Test(arguments: everyPhase)
  func resultsForAnotherTextAreALateAnswerAndChangeNothing(state: State) {
    expectStep(SearchFeature.self, from: state, on: Self.finished("a"))
  }

  @Test(arguments: [idle, debouncing, loaded, failed])
  func resultsThatAreNotAwaitedChangeNothing(state: State) {
    expectStep(SearchFeature.self, from: state, on: Self.finished("ab"))
  }

  // MARK: - Failures

  @Test func aFailureForTheTextSearchedForShowsItsReason() {
    expectStep(SearchFeature.self, from: Self.searching, on: Self.failure("ab")) {
      $0.phase = .failed("HTTP status 500")
    }
  }

  @Test(arguments: everyPhase)
  func aFailureForAnotherTextIsALateAnswerAndChangesNothing(state: State) {
    expectStep(SearchFeature.self, from: state, on: Self.failure("a"))
  }

  @Test(arguments: [idle, debouncing, loaded, failed])
  func aFailureThatIsNotAwaitedChangesNothing(state: State) {
    expectStep(SearchFeature.self, from: state, on: Self.failure("ab"))
  }

  // MARK: - Whole stories

  @Test func quickTypingSearchesOnceForTheLastTextAndIgnoresLateAnswers() {
    var test = CoreTest<SearchFeature>(state: Self.idle)
    test.send(Self.typed("a"), decisions: [.debounce("a")]) {
      $0 = State(query: "a", phase: .debouncing)
    }
    test.send(Self.typed("ab"), decisions: [.debounce("ab")]) { $0.query = "ab" }
    test.send(Self.quiet("a"))
    test.send(Self.quiet("ab")) { $0.phase = .searching }
    test.send(Self.typed("abc"), decisions: [.debounce("abc")]) {
      $0 = State(query: "abc", phase: .debouncing)
    }
    test.send(Self.finished("ab"))
    test.send(Self.quiet("abc")) { $0.phase = .searching }
    test.send(Self.failure("ab"))
    test.send(Self.finished("abc")) { $0.phase = .loaded(["abc result"]) }
  }

  @Test func failThenRetryThenClear() {
    var test = CoreTest<SearchFeature>(state: Self.idle)
    test.send(Self.typed("ab"), decisions: [.debounce("ab")]) {
      $0 = State(query: "ab", phase: .debouncing)
    }
    test.send(Self.quiet("ab")) { $0.phase = .searching }
    test.send(Self.failure("ab")) { $0.phase = .failed("HTTP status 500") }
    test.send(Self.retry, decisions: [.search("ab")]) { $0.phase = .searching }
    test.send(Self.retry)
    test.send(Self.finished("ab")) { $0.phase = .loaded(["ab result"]) }
    test.send(Self.typed(" "), decisions: []) { $0 = State(query: " ", phase: .idle) }
  }

  @Test func theSessionMatchesItsCheckedInTrace() {
    expectTrace(
      SearchFeature.self, from: Self.idle,
      events: [
        Self.typed("p"), Self.typed("pr"), Self.quiet("p"), Self.quiet("pr"), Self.typed("pri"),
        Self.finished("pr"), Self.quiet("pri"), Self.failure("pri"), Self.retry,
        Self.finished("pri"), Self.typed(""),
      ],
      named: "type-debounce-fail-retry-clear")
  }

  // MARK: - What the view reads

  @Test func theStateTellsTheViewWhatToShow() {
    #expect(Self.loaded.results == ["ab result"])
    #expect(Self.searching.results == [])
    #expect(Self.failed.failureReason == "offline")
    #expect(Self.loaded.failureReason == nil)
    #expect(Self.everyPhase.map(\.isPending) == [false, true, true, false, false])
    #expect(State(query: " \n ").searchText == "")
    #expect(State(query: "  a b  ").searchText == "a b")
  }
}
