import TestSupport
import Testing

@testable import Decisions

/// Which work waits for the test, counted as waits begin and end rather than looked up piece by
/// piece.
@Suite struct TestWaitsTests {
  /// Begins a wait of the work with `token`, as a test double does on the work's task.
  private static func beginWait(_ testWaits: WorkRegistry.TestWaits, _ token: UInt64)
    -> WorkRegistry.TestWaits.Wait?
  {
    WorkRegistry.TestWaits.$current.withValue(.init(testWaits: testWaits, token: token, id: nil)) {
      WorkRegistry.TestWaits.beginWait()
    }
  }

  @Test func allRunningWorkWaitsOnlyWhenEachPieceHasAWait() {
    let testWaits = WorkRegistry.TestWaits(link: WorkLink())
    #expect(testWaits.isAllRunningWorkWaiting)
    testWaits.workStarted(1)
    testWaits.workStarted(2)
    #expect(!testWaits.isAllRunningWorkWaiting)
    let first = Self.beginWait(testWaits, 1)
    let second = Self.beginWait(testWaits, 1)
    #expect(!testWaits.isAllRunningWorkWaiting)
    let third = Self.beginWait(testWaits, 2)
    #expect(testWaits.isAllRunningWorkWaiting)
    first?.end()
    #expect(testWaits.isAllRunningWorkWaiting)  // work 1 still has a wait
    second?.end()
    #expect(!testWaits.isAllRunningWorkWaiting)
    testWaits.workEnded(1)
    #expect(testWaits.isAllRunningWorkWaiting)  // only work 2 runs, and it waits
    // NB: a task that work 1 left running begins a wait after the work ended: it does not count.
    let left = Self.beginWait(testWaits, 1)
    testWaits.workStarted(3)
    #expect(!testWaits.isAllRunningWorkWaiting)
    left?.end()
    third?.end()
    testWaits.workEnded(2)
    testWaits.workEnded(3)
    #expect(testWaits.isAllRunningWorkWaiting)
    #expect(!testWaits.hasWaits)
  }

  @Test func theCountAgreesWithLookingAtEachPiece() {
    var random = SeededRandom(seed: 24)
    let testWaits = WorkRegistry.TestWaits(link: WorkLink())
    var running: [UInt64] = []
    var waits: [WorkRegistry.TestWaits.Wait] = []
    var lastToken: UInt64 = 0
    for step in 0..<20_000 {
      switch random.next(below: 4) {
      case 0:
        lastToken += 1
        testWaits.workStarted(lastToken)
        running.append(lastToken)
      case 1 where !running.isEmpty:
        testWaits.workEnded(running.remove(at: random.next(below: running.count)))
      case 2 where lastToken > 0:
        // NB: mostly running work, sometimes work that has ended.
        let token = UInt64(random.next(below: Int(lastToken))) + 1
        if let wait = Self.beginWait(testWaits, token) { waits.append(wait) }
      case 3 where !waits.isEmpty:
        waits.remove(at: random.next(below: waits.count)).end()
      default:
        break
      }
      guard testWaits.isAllRunningWorkWaiting == testWaits.areAllWaiting(running) else {
        Issue.record("step \(step): the count disagrees with the \(running.count) pieces")
        return
      }
    }
  }
}
