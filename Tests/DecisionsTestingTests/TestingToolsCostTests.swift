import Decisions
import TestSupport
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

  // NB: waking used to scan every sleeper for the earliest deadline, and remove it from the middle
  // of an array: 1,000 sleepers looked at about 750,000.
  @Test func wakingASleeperLooksAtLogarithmicallyManyOthers() async throws {
    let count = 1_000
    var random = SeededRandom(seed: 24)
    let deadlines = (1...count).map { _ in random.next(below: 100) + 1 }
    let clock = TestClock()
    let woken = Calls<Int>()
    try await withThrowingTaskGroup(of: Void.self) { group in
      for deadline in deadlines {
        group.addTask {
          try await clock.sleep(for: .seconds(deadline))
          woken.record(deadline)
        }
      }
      await clock.waitForSleepers(count)
      await clock.advance(by: .seconds(100))
      try await group.waitForAll()
    }
    #expect(woken.count == count)
    // NB: about log2(1,000) = 10 for each sleeper added, and twice that for each one taken.
    #expect(clock.queueVisits <= 3 * 10 * count)
  }

  @Test func cancelledSleepersDoNotStayInTheQueue() async {
    let clock = TestClock()
    let sleepers = (0..<1_000).map { index in
      Task { try await clock.sleep(for: .seconds(index + 1)) }
    }
    await clock.waitForSleepers(sleepers.count)
    for sleeper in sleepers { sleeper.cancel() }
    for sleeper in sleepers { _ = await sleeper.result }
    #expect(clock.sleeperCount == 0)
    #expect(clock.queueLength <= 16)
  }
}
