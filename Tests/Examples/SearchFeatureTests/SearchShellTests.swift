import Decisions
import DecisionsTesting
import SearchFeature
import Testing

/// The executor alone: each decision performed once, on a clock whose sleeps return at once.
@Suite(.timeLimit(.minutes(3))) struct SearchExecutorTests {
  @Test func theDebounceSearchesAfterSleepingTheQuietPeriod() async {
    let clock = ImmediateClock()
    let searched = Calls<(text: String, at: TestClock.Instant)>()
    let execution = await perform(
      SearchFeature.Decision.debounce("ab"), of: SearchFeature.self,
      deps: .init(
        clock: clock,
        search: { text in
          searched.record((text, clock.now))
          return ["ab result"]
        }))
    #expect(searched.all.map(\.text) == ["ab"])
    #expect(searched.all.map(\.at) == [.init(offset: .milliseconds(300))])
    #expect(
      execution.events == [
        .model(.quietPeriodEnded("ab")),
        .model(.searchFinished(SearchResults(query: "ab", matches: ["ab result"]))),
      ])
    #expect(execution.startedWork == [WorkID("search")])
    #expect(execution.unhandledErrors.isEmpty)
  }

  @Test func aSearchRunsAtOnceWithoutTheQuietPeriod() async {
    let clock = ImmediateClock()
    let execution = await perform(
      SearchFeature.Decision.search("ab"), of: SearchFeature.self,
      deps: .init(clock: clock, search: { _ in [] }))
    #expect(clock.now == .init())
    #expect(execution.events == [.model(.searchFinished(SearchResults(query: "ab", matches: [])))])
    // The same key as the debounce: either replaces the other.
    #expect(execution.startedWork == [WorkID("search")])
  }

  @Test func aFailedSearchSendsItsReasonWithItsText() async {
    let deps = SearchFeature.Deps(
      clock: ImmediateClock(), search: { _ in throw SearchSourceError.httpStatus(503) })
    let now = await perform(SearchFeature.Decision.search("ab"), of: SearchFeature.self, deps: deps)
    #expect(now.events == [.model(.searchFailed(query: "ab", reason: "HTTP status 503"))])
    let later = await perform(
      SearchFeature.Decision.debounce("ab"), of: SearchFeature.self, deps: deps)
    #expect(
      later.events == [
        .model(.quietPeriodEnded("ab")),
        .model(.searchFailed(query: "ab", reason: "HTTP status 503")),
      ])
    #expect(later.unhandledErrors.isEmpty)
  }

  @Test func anErrorFromElsewhereIsDescribedAsItIs() async {
    struct Offline: Error, CustomStringConvertible {
      var description: String { "the network is offline" }
    }
    let execution = await perform(
      SearchFeature.Decision.search("ab"), of: SearchFeature.self,
      deps: .init(clock: ImmediateClock(), search: { _ in throw Offline() }))
    #expect(
      execution.events == [.model(.searchFailed(query: "ab", reason: "the network is offline"))])
  }

  @Test func cancelSearchCancelsTheWorkInFlightAndCallsNothing() async {
    let execution = await perform(
      SearchFeature.Decision.cancelSearch, of: SearchFeature.self,
      deps: .init(clock: ImmediateClock(), search: unimplemented("search")))
    #expect(execution.cancellations == [.work(id: WorkID("search"), scope: [])])
    #expect(execution.events.isEmpty)
    #expect(execution.startedWork.isEmpty)
  }
}

/// A real store on a test clock: time moves only when the test says.
@Suite(.timeLimit(.minutes(3))) struct SearchStoreTests {
  private let facts = ["abc is first", "ab is second", "xyz is last"]

  /// Deps that search `facts` at once, recording each search text.
  private func deps(clock: TestClock, searches: Calls<String>) -> SearchFeature.Deps {
    let facts = self.facts
    return .init(
      clock: clock,
      search: searches.recording { text in SearchSource.matches(for: text, in: facts) })
  }

  @Test func keystrokesAt0And100And250MsSearchOnceAt550Ms() async {
    let clock = TestClock()
    let searches = Calls<String>()
    let test = StoreTest<SearchFeature>(
      state: .init(), deps: deps(clock: clock, searches: searches))
    await test.send(.view(.queryChanged("a")), decisions: [.debounce("a")]) {
      $0.query = "a"
      $0.phase = .debouncing
    }
    await clock.advance(by: .milliseconds(100))
    await test.send(.view(.queryChanged("ab")), decisions: [.debounce("ab")]) { $0.query = "ab" }
    await clock.advance(by: .milliseconds(150))
    await test.send(.view(.queryChanged("abc")), decisions: [.debounce("abc")]) {
      $0.query = "abc"
    }
    await clock.advance(by: .milliseconds(299))
    #expect(clock.now == .init(offset: .milliseconds(549)))
    #expect(searches.all == [])
    #expect(clock.sleeperCount == 1)  // the two earlier waits were cancelled, not left asleep

    await clock.advance(by: .milliseconds(1))
    await test.receive(.model(.quietPeriodEnded("abc"))) { $0.phase = .searching }
    await test.receive(.model(.searchFinished(Self.results("abc", ["abc is first"])))) {
      $0.phase = .loaded(["abc is first"])
    }
    #expect(searches.all == ["abc"])
    await clock.advance(by: .seconds(5))
    await test.finish()
    #expect(searches.count == 1)
  }

  @Test func aLateAnswerForAnOldQueryIsIgnored() async throws {
    let clock = TestClock()
    let search = ControlledDependency<String, [String]>()
    let test = StoreTest<SearchFeature>(
      state: .init(), deps: .init(clock: clock, search: { try await search($0) }))
    await test.send(.view(.queryChanged("ab")), decisions: [.debounce("ab")]) {
      $0.query = "ab"
      $0.phase = .debouncing
    }
    await clock.advance(by: .milliseconds(300))
    await test.receive(.model(.quietPeriodEnded("ab"))) { $0.phase = .searching }
    let old = try await search.nextCall()
    #expect(old.arguments == "ab")

    await test.send(.view(.queryChanged("abc")), decisions: [.debounce("abc")]) {
      $0.query = "abc"
      $0.phase = .debouncing
    }
    old.answer(["ab is second"])  // too late: its work was replaced, the screen waits for "abc"
    await clock.advance(by: .milliseconds(300))
    await test.receive(.model(.quietPeriodEnded("abc"))) { $0.phase = .searching }
    let new = try await search.nextCall()
    #expect(new.arguments == "abc")
    new.answer(["abc is first"])
    await test.receive(.model(.searchFinished(Self.results("abc", ["abc is first"])))) {
      $0.phase = .loaded(["abc is first"])
    }
    await test.finish()
    #expect(search.callCount == 2)
  }

  @Test func aNewKeystrokeCancelsTheSearchInFlight() async throws {
    let clock = TestClock()
    let search = ControlledDependency<String, [String]>()
    let cancelled = Calls<String>()
    let test = StoreTest<SearchFeature>(
      state: .init(),
      deps: .init(
        clock: clock,
        search: { text in
          do {
            return try await search(text)
          } catch is CancellationError {
            cancelled.record(text)
            throw CancellationError()
          }
        }))
    await test.send(.view(.queryChanged("ab")), decisions: [.debounce("ab")]) {
      $0.query = "ab"
      $0.phase = .debouncing
    }
    await clock.advance(by: .milliseconds(300))
    await test.receive(.model(.quietPeriodEnded("ab"))) { $0.phase = .searching }
    let call = try await search.nextCall()
    #expect(call.isWaiting)

    await test.send(.view(.queryChanged("abc")), decisions: [.debounce("abc")]) {
      $0.query = "abc"
      $0.phase = .debouncing
    }
    await test.settle()
    #expect(!call.isWaiting)
    #expect(cancelled.all == ["ab"])
    #expect(search.callCount == 1)  // "abc" waits for its own quiet period

    await clock.advance(by: .milliseconds(300))
    await test.receive(.model(.quietPeriodEnded("abc"))) { $0.phase = .searching }
    try await search.nextCall().answer([])
    await test.receive(.model(.searchFinished(Self.results("abc", [])))) { $0.phase = .loaded([]) }
    await test.finish()
  }

  @Test func anEmptyQueryClearsTheResultsWithoutSearching() async {
    let clock = TestClock()
    let searches = Calls<String>()
    let test = StoreTest<SearchFeature>(
      state: .init(), deps: deps(clock: clock, searches: searches))
    await test.send(.view(.queryChanged("xyz")), decisions: [.debounce("xyz")]) {
      $0.query = "xyz"
      $0.phase = .debouncing
    }
    await clock.advance(by: .milliseconds(300))
    await test.receive(.model(.quietPeriodEnded("xyz"))) { $0.phase = .searching }
    await test.receive(.model(.searchFinished(Self.results("xyz", ["xyz is last"])))) {
      $0.phase = .loaded(["xyz is last"])
    }

    await test.send(.view(.queryChanged(""))) {
      $0.query = ""
      $0.phase = .idle
    }
    await test.send(.view(.queryChanged("   "))) { $0.query = "   " }
    await clock.advance(by: .seconds(1))
    #expect(searches.all == ["xyz"])
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }

  @Test func clearingTheQueryWhileWaitingCancelsTheWait() async {
    let clock = TestClock()
    let searches = Calls<String>()
    let test = StoreTest<SearchFeature>(
      state: .init(), deps: deps(clock: clock, searches: searches))
    await test.send(.view(.queryChanged("ab")), decisions: [.debounce("ab")]) {
      $0.query = "ab"
      $0.phase = .debouncing
    }
    await clock.advance(by: .milliseconds(200))
    await test.send(.view(.queryChanged("")), decisions: [.cancelSearch]) {
      $0.query = ""
      $0.phase = .idle
    }
    await test.settle()
    #expect(clock.sleeperCount == 0)
    await clock.advance(by: .seconds(1))
    #expect(searches.all == [])
    await test.finish()
  }

  @Test func aFailureShowsItsReasonAndRetrySearchesAgainAtOnce() async throws {
    let clock = TestClock()
    let search = ControlledDependency<String, [String]>()
    let test = StoreTest<SearchFeature>(
      state: .init(), deps: .init(clock: clock, search: { try await search($0) }))
    await test.send(.view(.queryChanged("ab")), decisions: [.debounce("ab")]) {
      $0.query = "ab"
      $0.phase = .debouncing
    }
    await clock.advance(by: .milliseconds(300))
    await test.receive(.model(.quietPeriodEnded("ab"))) { $0.phase = .searching }
    try await search.nextCall().fail(SearchSourceError.unreachable("connection refused"))
    let reason = "server unreachable: connection refused"
    await test.receive(.model(.searchFailed(query: "ab", reason: reason))) {
      $0.phase = .failed(reason)
    }

    await test.send(.view(.retry), decisions: [.search("ab")]) { $0.phase = .searching }
    #expect(clock.sleeperCount == 0)  // no quiet period before a retry
    let retried = try await search.nextCall()
    #expect(retried.arguments == "ab")
    retried.answer(["ab is second"])
    await test.receive(.model(.searchFinished(Self.results("ab", ["ab is second"])))) {
      $0.phase = .loaded(["ab is second"])
    }
    #expect(clock.now == .init(offset: .milliseconds(300)))
    await test.finish()
  }

  /// The results of a search for `query`.
  private static func results(_ query: String, _ matches: [String]) -> SearchResults {
    SearchResults(query: query, matches: matches)
  }

  @MainActor
  @Test func theViewModelShowsTheResultsOfTheQuery() async {
    let model = SearchViewModel(
      state: .init(),
      deps: .init(clock: ImmediateClock(), search: { text in ["\(text) result"] }))
    model.queryChanged("ab")
    // In the same main-actor turn: a text field bound to the query never lags behind the typing.
    #expect(model.query == "ab")
    #expect(model.isSearching)
    await model.settle()
    #expect(model.results == ["ab result"])
    #expect(!model.isSearching)
    #expect(model.failureReason == nil)
    model.retry()  // nothing failed: nothing to retry
    await model.settle()
    #expect(model.results == ["ab result"])
  }
}
