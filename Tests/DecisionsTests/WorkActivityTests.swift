import TestSupport
import Testing

@testable import Decisions

/// Which work waits for the test, counted as waits begin and end rather than looked up piece by
/// piece.
@Suite struct WorkActivityTests {
  /// Begins a wait of the work with `token`, as a test double does on the work's task.
  private static func beginWait(_ activity: WorkActivity, _ token: UInt64) -> WorkActivity.Wait? {
    WorkActivity.$current.withValue(.init(activity: activity, token: token)) {
      WorkActivity.beginWait()
    }
  }

  @Test func allRunningWorkWaitsOnlyWhenEachPieceHasAWait() {
    let activity = WorkActivity(link: WorkLink())
    #expect(activity.isAllRunningWorkWaiting)
    activity.workStarted(1)
    activity.workStarted(2)
    #expect(!activity.isAllRunningWorkWaiting)
    let first = Self.beginWait(activity, 1)
    let second = Self.beginWait(activity, 1)
    #expect(!activity.isAllRunningWorkWaiting)
    let third = Self.beginWait(activity, 2)
    #expect(activity.isAllRunningWorkWaiting)
    first?.end()
    #expect(activity.isAllRunningWorkWaiting)  // work 1 still has a wait
    second?.end()
    #expect(!activity.isAllRunningWorkWaiting)
    activity.workEnded(1)
    #expect(activity.isAllRunningWorkWaiting)  // only work 2 runs, and it waits
    // NB: a task that work 1 left running begins a wait after the work ended: it does not count.
    let left = Self.beginWait(activity, 1)
    activity.workStarted(3)
    #expect(!activity.isAllRunningWorkWaiting)
    left?.end()
    third?.end()
    activity.workEnded(2)
    activity.workEnded(3)
    #expect(activity.isAllRunningWorkWaiting)
    #expect(!activity.hasWaits)
  }

  @Test func theCountAgreesWithLookingAtEachPiece() {
    var random = SeededRandom(seed: 24)
    let activity = WorkActivity(link: WorkLink())
    var running: [UInt64] = []
    var waits: [WorkActivity.Wait] = []
    var lastToken: UInt64 = 0
    for step in 0..<20_000 {
      switch random.next(below: 4) {
      case 0:
        lastToken += 1
        activity.workStarted(lastToken)
        running.append(lastToken)
      case 1 where !running.isEmpty:
        activity.workEnded(running.remove(at: random.next(below: running.count)))
      case 2 where lastToken > 0:
        // NB: mostly running work, sometimes work that has ended.
        let token = UInt64(random.next(below: Int(lastToken))) + 1
        if let wait = Self.beginWait(activity, token) { waits.append(wait) }
      case 3 where !waits.isEmpty:
        waits.remove(at: random.next(below: waits.count)).end()
      default:
        break
      }
      guard activity.isAllRunningWorkWaiting == activity.areAllWaiting(running) else {
        Issue.record("step \(step): the count disagrees with the \(running.count) pieces")
        return
      }
    }
  }
}
