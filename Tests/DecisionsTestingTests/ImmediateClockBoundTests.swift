import Decisions
import Testing

@testable import DecisionsTesting

/// Work that never stops sleeping on an `ImmediateClock` ends the test with a failure, within a
/// bound the test sets (issue 24, finding 7).
@Suite(.timeLimit(.minutes(3))) struct ImmediateClockBoundTests {
  /// A repeating timer under `perform` ends after the clock's default bound of 10,000 sleeps: the
  /// test fails, and the timer is cancelled and listed as unfinished.
  @Test func aRepeatingTimerUnderPerformEndsWithAFailure() async {
    let clock = ImmediateClock()
    var execution: Execution<Ticker.Event>?
    await withKnownIssue {
      execution = await perform(
        Ticker.Decision.startTicking, of: Ticker.self, deps: .init(clock: clock))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("ImmediateClock let 10000 sleeps pass") }
    }
    #expect(execution?.events.count == 10_000)
    #expect(execution?.unfinishedWork == [WorkID("ticker")])
  }

  /// The test sets the bound; the failure says what happened and how to raise it, at the line that
  /// created the clock, once however many sleeps come after it.
  @Test func theBoundIsTheTestsAndTheFailureSaysHowToRaiseIt() async {
    var execution: Execution<Ticker.Event>?
    var line: UInt = 0
    let failures = await withCapturedFailures {
      line = #line + 1
      let clock = ImmediateClock(maximumSleeps: 5)
      execution = await perform(
        Ticker.Decision.startTicking, of: Ticker.self, deps: .init(clock: clock))
      #expect(clock.now == .init(offset: .seconds(5)))
    }
    #expect(
      failures.map(\.message) == [
        """
        ImmediateClock let 5 sleeps pass, its maximumSleeps, and stopped: its sleeps now wait \
        until their task is cancelled. Work that sleeps again every time (a repeating timer) \
        never ends on a clock whose sleeps return at once: test it with a TestClock, or stop it \
        first. Work that really sleeps more often can have more: \
        ImmediateClock(maximumSleeps: 10).
        """
      ])
    #expect(failures.map(\.line) == [line])
    #expect(execution?.events == Array(repeating: .tick, count: 5))
    #expect(execution?.unfinishedWork == [WorkID("ticker")])
  }

  /// Finite work within the bound runs as before: no failure, nothing left over.
  @Test func finiteWorkWithinTheBoundIsUnaffected() async {
    let clock = ImmediateClock(maximumSleeps: 1)
    var execution: Execution<Ticker.Event>?
    let failures = await withCapturedFailures {
      execution = await perform(
        Ticker.Decision.step(1), of: Ticker.self, deps: .init(clock: clock))
    }
    #expect(failures.isEmpty)
    #expect(execution?.events == [.stepped(1)])
    #expect(execution?.unfinishedWork == [])
    #expect(clock.now == .init(offset: .seconds(1)))
  }

  /// In a store test, a stopped clock's sleep counts as waiting for the test, so the store settles
  /// with the timer running, and the test goes on to stop it.
  @Test func aStoreTestWithARepeatingTimerSettlesAndCanStopIt() async {
    let clock = ImmediateClock(maximumSleeps: 100)
    let test = StoreTest<Ticker>(state: .init(), deps: .init(clock: clock), exhaustivity: .off)
    await withKnownIssue {
      await test.send(.start)
      await test.settle()
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("ImmediateClock let 100 sleeps pass") }
    }
    #expect(await test.state.ticks == 100)
    await test.send(.stop)
    await test.finish()
  }
}
