// The tests of Docs/Time.md, compiled and run. No test waits for real time to pass: every clock is
// a TestClock or an ImmediateClock.

import DecisionsTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct TimeGuideTests {
  // MARK: - Debounce

  @Suite struct Debounce {
    @Test func aQueryIsSearchedAfterTheQuietPeriodAndAnEmptyOneClearsTheResults() {
      var test = CoreTest<CitySearch>(state: .init())
      test.send(.queryChanged("pa"), decisions: [.search("pa", after: .milliseconds(300))]) {
        $0.query = "pa"
      }
      test.send(.found("pa", results: ["Paris", "Palermo"])) {
        $0.results = ["Paris", "Palermo"]
      }
      test.send(.queryChanged(""), decisions: [.cancelSearch]) {
        $0.query = ""
        $0.results = []
      }
    }

    @Test func onlyTheLastQuerySearchesOnceTypingPauses() async {
      let clock = TestClock()
      let searches = Calls<String>()
      let test = StoreTest<CitySearch>(
        state: .init(),
        deps: .init(clock: clock, search: searches.recording { query in ["\(query) City"] }))

      await test.send(.queryChanged("p"), decisions: [.search("p", after: .milliseconds(300))]) {
        $0.query = "p"
      }
      await clock.advance(by: .milliseconds(200))
      // Inside the quiet period: replaces the search for "p", wait included.
      await test.send(.queryChanged("pa"), decisions: [.search("pa", after: .milliseconds(300))]) {
        $0.query = "pa"
      }
      await clock.advance(by: .milliseconds(299))
      #expect(searches.all == [])  // 1 ms before the deadline: nothing yet
      await clock.advance(by: .milliseconds(1))
      await test.receive(.found("pa", results: ["pa City"])) { $0.results = ["pa City"] }
      #expect(searches.all == ["pa"])
      await test.finish()
    }

    @Test func clearingTheQueryCancelsThePendingSearch() async {
      let clock = TestClock()
      let test = StoreTest<CitySearch>(
        state: .init(), deps: .init(clock: clock, search: unimplemented("search")))

      await test.send(.queryChanged("p"), decisions: [.search("p", after: .milliseconds(300))]) {
        $0.query = "p"
      }
      await test.send(.queryChanged(""), decisions: [.cancelSearch]) { $0.query = "" }
      #expect(clock.sleeperCount == 0)
      await clock.advance(by: .seconds(1))  // no search, and nothing to receive
      await test.finish()
    }
  }

  // MARK: - Throttle

  @Suite struct Throttle {
    @Test func theFirstOffsetGoesAtOnceAndTheLastOneWhenTheIntervalEnds() {
      var test = CoreTest<ScrollReporter>(state: .init())
      test.send(.scrolled(to: 10), decisions: [.report(10), .wait(.seconds(1))]) {
        $0.isThrottling = true
      }
      test.send(.scrolled(to: 20)) { $0.pending = 20 }
      test.send(.scrolled(to: 30)) { $0.pending = 30 }
      test.send(.intervalEnded, decisions: [.report(30), .wait(.seconds(1))]) {
        $0.pending = nil
      }
      test.send(.intervalEnded) { $0.isThrottling = false }
    }

    @Test func reportsAreAtLeastAnIntervalApart() async {
      let clock = TestClock()
      let reports = Calls<Int>()
      let test = StoreTest<ScrollReporter>(
        state: .init(), deps: .init(clock: clock, report: reports.record))

      await test.send(.scrolled(to: 10), decisions: [.report(10), .wait(.seconds(1))]) {
        $0.isThrottling = true
      }
      #expect(reports.all == [10])  // leading: at once
      await test.send(.scrolled(to: 20)) { $0.pending = 20 }
      await clock.advance(by: .milliseconds(500))
      await test.send(.scrolled(to: 30)) { $0.pending = 30 }
      await clock.advance(by: .milliseconds(499))
      #expect(reports.all == [10])  // 1 ms before the interval ends
      await clock.advance(by: .milliseconds(1))
      await test.receive(.intervalEnded, decisions: [.report(30), .wait(.seconds(1))]) {
        $0.pending = nil
      }
      #expect(reports.all == [10, 30])  // trailing: the last offset of the interval

      await clock.advance(by: .seconds(1))
      await test.receive(.intervalEnded) { $0.isThrottling = false }  // nothing pending
      await test.send(.scrolled(to: 40), decisions: [.report(40), .wait(.seconds(1))]) {
        $0.isThrottling = true
      }
      #expect(reports.all == [10, 30, 40])
      await clock.advance(by: .seconds(1))  // the last interval ends before the test does
      await test.receive(.intervalEnded) { $0.isThrottling = false }
      await test.finish()
    }
  }

  // MARK: - A repeating timer

  @Suite struct RepeatingTimer {
    @Test func startTicksAndPauseOrLeavingTheScreenStops() {
      var test = CoreTest<Stopwatch>(state: .init())
      test.send(.startTapped, decisions: [.tick(every: .seconds(1))]) { $0.isRunning = true }
      test.send(.startTapped)  // already running
      test.send(.ticked) { $0.seconds = 1 }
      test.send(.pauseTapped, decisions: [.stopTicking]) { $0.isRunning = false }
      test.send(.pauseTapped)  // already paused
      test.send(.startTapped, decisions: [.tick(every: .seconds(1))]) { $0.isRunning = true }
      test.send(.disappeared, decisions: [.cancelAll]) { $0.isRunning = false }
    }

    @Test func theStopwatchTicksEverySecondUntilPausedOrGone() async {
      let clock = TestClock()
      let test = StoreTest<Stopwatch>(state: .init(), deps: .init(clock: clock))

      await test.send(.startTapped, decisions: [.tick(every: .seconds(1))]) { $0.isRunning = true }
      await clock.advance(by: .milliseconds(999))
      await test.expectNoNewEvents()  // 1 ms before the first tick: nothing yet
      await clock.advance(by: .milliseconds(1))
      await test.receive(.ticked) { $0.seconds = 1 }
      await clock.advance(by: .seconds(1))
      await test.receive(.ticked) { $0.seconds = 2 }

      await test.send(.pauseTapped, decisions: [.stopTicking]) { $0.isRunning = false }
      #expect(clock.sleeperCount == 0)
      await clock.advance(by: .seconds(10))  // no tick: nothing to receive

      await test.send(.startTapped, decisions: [.tick(every: .seconds(1))]) { $0.isRunning = true }
      await clock.advance(by: .milliseconds(999))
      await test.send(.disappeared, decisions: [.cancelAll]) { $0.isRunning = false }
      #expect(clock.sleeperCount == 0)
      await clock.advance(by: .seconds(10))
      await test.finish()
    }
  }

  // MARK: - A timeout

  @Suite struct Timeout {
    @Test func whicheverComesFirstWinsAndCancelsTheOther() {
      var test = CoreTest<ProfileLoader>(state: .idle)
      test.send(.loadTapped, decisions: [.load, .startTimeout(.seconds(10))]) { $0 = .loading }
      test.send(.loadTapped)  // already loading
      test.send(.timedOut, decisions: [.cancelLoad]) { $0 = .timedOut }
      test.send(.loaded("Ada"))  // too late
      test.send(.loadTapped, decisions: [.load, .startTimeout(.seconds(10))]) { $0 = .loading }
      test.send(.loaded("Ada"), decisions: [.cancelTimeout]) { $0 = .loaded("Ada") }
      test.send(.timedOut)  // too late
    }

    @Test func aLoadSlowerThanTheTimeoutTimesOutAndIsCancelled() async {
      let clock = TestClock()
      let test = StoreTest<ProfileLoader>(
        state: .idle,
        deps: .init(
          clock: clock,
          load: {
            try await clock.sleep(for: .seconds(60))  // a server that takes a minute
            return "Ada"
          }))

      await test.send(.loadTapped, decisions: [.load, .startTimeout(.seconds(10))]) {
        $0 = .loading
      }
      await clock.advance(by: .milliseconds(9_999))
      #expect(clock.sleeperCount == 2)  // 1 ms before the timeout: the load and the timeout wait
      await clock.advance(by: .milliseconds(1))
      await test.receive(.timedOut, decisions: [.cancelLoad]) { $0 = .timedOut }
      #expect(clock.sleeperCount == 0)  // the load was cancelled
      await test.finish()
    }

    @Test func aLoadWithinTheTimeoutCancelsTheTimeout() async {
      let clock = TestClock()
      let test = StoreTest<ProfileLoader>(
        state: .idle,
        deps: .init(
          clock: clock,
          load: {
            try await clock.sleep(for: .seconds(3))  // a server that takes 3 seconds
            return "Ada"
          }))

      await test.send(.loadTapped, decisions: [.load, .startTimeout(.seconds(10))]) {
        $0 = .loading
      }
      await clock.advance(by: .milliseconds(2_999))
      #expect(clock.sleeperCount == 2)  // 1 ms before the load ends: both still wait
      await clock.advance(by: .milliseconds(1))
      await test.receive(.loaded("Ada"), decisions: [.cancelTimeout]) { $0 = .loaded("Ada") }
      #expect(clock.sleeperCount == 0)  // the timeout was cancelled
      await clock.advance(by: .seconds(10))  // no .timedOut: nothing to receive
      await test.finish()
    }
  }

  // MARK: - Retry with backoff and jitter

  @Suite struct Retry {
    @Test func theDelayDoublesWithEachAttemptWithinItsJitterAndIsCapped() {
      #expect(QuoteLoader.retryDelay(afterAttempt: 1, jitter: 0) == .milliseconds(500))
      #expect(QuoteLoader.retryDelay(afterAttempt: 1, jitter: 1) == .seconds(1))
      #expect(QuoteLoader.retryDelay(afterAttempt: 2, jitter: 0.5) == .milliseconds(1_500))
      #expect(QuoteLoader.retryDelay(afterAttempt: 3, jitter: 1) == .seconds(4))
      #expect(QuoteLoader.retryDelay(afterAttempt: 6, jitter: 0) == .seconds(15))  // 32 s, capped
      #expect(QuoteLoader.retryDelay(afterAttempt: 6, jitter: 1) == .seconds(30))
    }

    @Test func aFailedLoadIsRetriedAfterABackoffUntilTheLastAttempt() {
      var test = CoreTest<QuoteLoader>(state: .idle)
      test.send(.loadTapped, decisions: [.load]) { $0 = .loading(attempt: 1) }
      test.send(.failed("offline", jitter: 0.5), decisions: [.wait(.milliseconds(750))]) {
        $0 = .waitingToRetry(attempt: 2)
      }
      test.send(.loadTapped)  // a retry is already planned
      test.send(.retryDelayEnded, decisions: [.load]) { $0 = .loading(attempt: 2) }
      test.send(.failed("offline", jitter: 0), decisions: [.wait(.seconds(1))]) {
        $0 = .waitingToRetry(attempt: 3)
      }
      test.send(.retryDelayEnded, decisions: [.load]) { $0 = .loading(attempt: 3) }
      test.send(.failed("offline", jitter: 1), decisions: [.wait(.seconds(4))]) {
        $0 = .waitingToRetry(attempt: 4)
      }
      test.send(.retryDelayEnded, decisions: [.load]) { $0 = .loading(attempt: 4) }
      test.send(.failed("offline", jitter: 1)) { $0 = .failed("offline") }
    }

    @Test func theWaitSendsItsEventAfterTheDelay() async {
      let clock = ImmediateClock()
      let execution = await perform(
        QuoteLoader.Decision.wait(.seconds(2)), of: QuoteLoader.self,
        deps: .init(
          clock: clock, random: unimplemented("random", placeholder: 0),
          load: unimplemented("load")))
      #expect(execution.events == [.retryDelayEnded])
      #expect(clock.now == .init(offset: .seconds(2)))
    }

    @Test func onATestClockTheWaitIsCancelledAndListedAsUnfinished() async {
      let clock = TestClock()
      let execution = await perform(
        QuoteLoader.Decision.wait(.seconds(2)), of: QuoteLoader.self,
        deps: .init(
          clock: clock, random: unimplemented("random", placeholder: 0),
          load: unimplemented("load")))
      #expect(execution.events == [])  // no one advanced the clock
      #expect(execution.unfinishedWork == [WorkID("retry")])
      #expect(clock.sleeperCount == 0)
    }

    @Test func aLoadThatFailsTwiceSucceedsOnTheThirdAttempt() async {
      let clock = TestClock()
      let loads = Calls<Void>()
      let draws = Calls<ClosedRange<Double>>()
      let test = StoreTest<QuoteLoader>(
        state: .idle,
        deps: .init(
          clock: clock,
          random: draws.returning(0.5),
          load: loads.recording {
            if loads.count < 3 { throw Offline() }
            return "Simplicity is prerequisite for reliability."
          }))

      await test.send(.loadTapped, decisions: [.load]) { $0 = .loading(attempt: 1) }
      // The first load fails at once; the retry waits on the clock.
      await test.receive(.failed("offline", jitter: 0.5), decisions: [.wait(.milliseconds(750))]) {
        $0 = .waitingToRetry(attempt: 2)
      }
      await clock.advance(by: .milliseconds(749))  // the first delay: 1 s × 0.75
      #expect(loads.count == 1)
      await clock.advance(by: .milliseconds(1))
      await test.receive(.retryDelayEnded, decisions: [.load]) { $0 = .loading(attempt: 2) }
      await test.receive(
        .failed("offline", jitter: 0.5), decisions: [.wait(.milliseconds(1_500))]
      ) {
        $0 = .waitingToRetry(attempt: 3)
      }
      #expect(loads.count == 2)
      await clock.advance(by: .milliseconds(1_499))  // the second delay: 2 s × 0.75
      #expect(loads.count == 2)
      await clock.advance(by: .milliseconds(1))
      await test.receive(.retryDelayEnded, decisions: [.load]) { $0 = .loading(attempt: 3) }
      await test.receive(.loaded("Simplicity is prerequisite for reliability.")) {
        $0 = .loaded("Simplicity is prerequisite for reliability.")
      }
      #expect(loads.count == 3)
      #expect(draws.all == [0...1, 0...1])
      await test.finish()
    }

    @Test func aLoadThatAlwaysFailsGivesUpAfterFourAttempts() async {
      let clock = TestClock()
      let loads = Calls<Void>()
      let test = StoreTest<QuoteLoader>(
        state: .idle,
        deps: .init(
          clock: clock, random: { _ in 1 }, load: loads.recording { throw Offline() }))

      await test.send(.loadTapped, decisions: [.load]) { $0 = .loading(attempt: 1) }
      await test.receive(.failed("offline", jitter: 1), decisions: [.wait(.seconds(1))]) {
        $0 = .waitingToRetry(attempt: 2)
      }
      await clock.advance(by: .seconds(1))
      await test.receive(.retryDelayEnded, decisions: [.load]) { $0 = .loading(attempt: 2) }
      await test.receive(.failed("offline", jitter: 1), decisions: [.wait(.seconds(2))]) {
        $0 = .waitingToRetry(attempt: 3)
      }
      await clock.advance(by: .seconds(2))
      await test.receive(.retryDelayEnded, decisions: [.load]) { $0 = .loading(attempt: 3) }
      await test.receive(.failed("offline", jitter: 1), decisions: [.wait(.seconds(4))]) {
        $0 = .waitingToRetry(attempt: 4)
      }
      await clock.advance(by: .seconds(4))
      await test.receive(.retryDelayEnded, decisions: [.load]) { $0 = .loading(attempt: 4) }
      await test.receive(.failed("offline", jitter: 1)) { $0 = .failed("offline") }  // no retry
      #expect(loads.count == 4)
      #expect(clock.sleeperCount == 0)
      await test.finish()
    }
  }

  // MARK: - Now, for timestamps

  @Suite struct Now {
    @Test func aSavedDraftKeepsTheTimeItWasSaved() {
      let noon = Date(timeIntervalSince1970: 43_200)
      var test = CoreTest<Draft>(state: .init())
      test.send(.edited("Dear Ann"), decisions: [.save("Dear Ann", after: .seconds(1))]) {
        $0.text = "Dear Ann"
      }
      test.send(.saved("Dear Ann", at: noon)) {
        $0.savedText = "Dear Ann"
        $0.savedAt = noon
      }
    }

    @Test func theSaveIsStampedWithAFixedDate() async {
      let noon = Date(timeIntervalSince1970: 43_200)
      let execution = await perform(
        Draft.Decision.save("Dear Ann", after: .seconds(1)), of: Draft.self,
        deps: .init(clock: ImmediateClock(), now: { noon }, save: { _ in }))
      #expect(execution.events == [.saved("Dear Ann", at: noon)])
    }

    @Test func theSaveIsStampedWithTheTestClocksTime() async {
      let clock = TestClock()
      let start = Date(timeIntervalSinceReferenceDate: 800_000_000)
      let saves = Calls<String>()
      let test = StoreTest<Draft>(
        state: .init(),
        deps: .init(
          clock: clock, now: { clock.date(since: start) }, save: saves.recording { _ in }))

      await test.send(.edited("Dear"), decisions: [.save("Dear", after: .seconds(1))]) {
        $0.text = "Dear"
      }
      await clock.advance(by: .milliseconds(500))
      await test.send(.edited("Dear Ann"), decisions: [.save("Dear Ann", after: .seconds(1))]) {
        $0.text = "Dear Ann"
      }
      await clock.advance(by: .milliseconds(999))
      #expect(saves.all == [])  // 1 ms before the deadline: nothing yet
      await clock.advance(by: .milliseconds(1))
      await test.receive(.saved("Dear Ann", at: start.addingTimeInterval(1.5))) {
        $0.savedText = "Dear Ann"
        $0.savedAt = start.addingTimeInterval(1.5)
      }
      #expect(saves.all == ["Dear Ann"])
      await test.finish()
    }
  }
}

extension TestClock {
  /// The date `start` plus the time the clock has moved: a `now` that agrees with its sleeps.
  func date(since start: Date) -> Date {
    let (seconds, attoseconds) = now.offset.components
    return start.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
  }
}
