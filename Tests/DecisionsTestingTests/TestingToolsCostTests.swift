import Decisions
import Testing

@testable import DecisionsTesting

/// What the testing tools' steps cost, counted rather than timed: each step must cost about the
/// same however long the test has run, or a long test takes quadratic time.
@Suite(.timeLimit(.minutes(3))) struct TestingToolsCostTests {
  // NB: each send used to read the whole journal again, to find the events not yet asserted: 1,000
  // sends looked at about 1,500,000 entries.
  @Test func aSendLooksAtTheEntriesRecordedSinceTheLastStep() async {
    let count = 1_000
    let test = StoreTest<Ticker>(state: .init(), deps: .init(clock: TestClock()))
    for _ in 0..<count {
      await test.send(.tick) { $0.ticks += 1 }
    }
    await test.finish()
    // NB: a step records two entries (the event and the state after it), each looked at once.
    #expect(test.visitedEntries <= 3 * count)
  }
}
