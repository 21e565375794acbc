import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Decisions

/// `PostedEvents` keeps events in raw memory: each event must be released exactly once, whether it
/// is processed or still waits when the buffer goes away, through any number of buffer growths.
@Suite(.serialized) struct PostedEventsTests {
  /// Counts the instances alive.
  final class Tracked: Sendable {
    static let alive = Atomic<Int>(0)
    let number: Int
    init(_ number: Int) {
      self.number = number
      Self.alive.add(1, ordering: .relaxed)
    }
    deinit { Self.alive.add(-1, ordering: .relaxed) }
  }

  @Test func processedEventsArriveInOrderAndAreReleasedOnce() {
    let before = Tracked.alive.load(ordering: .relaxed)
    let posted = PostedEvents<Tracked>()
    var seen: [Int] = []
    for round in 0..<3 {
      // 5,000 events grow the buffer from 16 places many times, past the retained room.
      for number in 0..<5_000 { _ = posted.append(Tracked(round * 5_000 + number)) }
      #expect(!posted.isEmpty)
      posted.processAll { seen.append($0.number) }
      #expect(posted.isEmpty)
      #expect(!posted.isOversized)
    }
    #expect(seen == Array(0..<15_000))
    #expect(Tracked.alive.load(ordering: .relaxed) == before)
  }

  @Test func eventsStillWaitingAreReleasedWithTheBuffer() {
    let before = Tracked.alive.load(ordering: .relaxed)
    do {
      let posted = PostedEvents<Tracked>()
      for number in 0..<100 { _ = posted.append(Tracked(number)) }
      posted.processAll { _ in }
      for number in 0..<37 { _ = posted.append(Tracked(number)) }
      #expect(Tracked.alive.load(ordering: .relaxed) == before + 37)
    }
    #expect(Tracked.alive.load(ordering: .relaxed) == before)
  }

  @Test func onlyTheFirstAppendAfterProcessingAsksForATask() {
    let posted = PostedEvents<Int>()
    #expect(posted.append(1) == .queuedFirst)
    #expect(posted.append(2) == .queued)
    var seen: [Int] = []
    posted.processAll { seen.append($0) }
    #expect(posted.append(3) == .queuedFirst)
    posted.processAll { seen.append($0) }
    #expect(seen == [1, 2, 3])
  }

  // NB: with one semaphore for every take, the post whose wait ran out left its signal there, and
  // the next take's waiter took it at once, woke for nothing and counted itself again (2 here).
  /// A post whose wait ran out leaves no wake-up behind for a post that waits at a later limit.
  @Test func aWaitThatRanOutLeavesNoWakeUpForTheNextTake() {
    let posted = PostedEvents<Int>(limit: 1)
    _ = posted.append(0)
    #expect(posted.appendAtLimit(1, canWait: true, until: .now() + .milliseconds(20)) == .refused)
    var seen: [Int] = []
    #expect(posted.processAll { seen.append($0) } == 1)
    _ = posted.append(2)
    let outcome = Mutex<PostedAppend?>(nil)
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let appended = posted.appendAtLimit(3, canWait: true, until: .now() + .seconds(10))
      outcome.withLock { $0 = appended }
      done.signal()
    }
    while posted.atLimit.waitingThreads == 0 { usleep(1_000) }
    usleep(100_000)
    #expect(posted.atLimit.waitingThreads == 1)
    #expect(outcome.withLock { $0 } == nil)
    #expect(posted.processAll { seen.append($0) } == 0)
    done.wait()
    #expect(outcome.withLock { $0 } == .queuedFirst)
    posted.processAll { seen.append($0) }
    #expect(seen == [0, 2, 3])
  }
}
