import Dispatch
import Synchronization

// NB: not nested in the generic class: a nested type is generic too, and its metadata would be
// looked up on each post (hot-path rule 1 in Store/EventLoop.swift).
/// What a post that found no room does next, in ``PostedEvents/appendAtLimit(_:canWait:until:)``.
enum PostedAtLimit {
  /// The post ended so.
  case ended(PostedAppend)
  /// The post waits on this semaphore, then tries again.
  case waits(DispatchSemaphore)
}

/// What became of an event handed to ``PostedEvents/append(_:)``.
enum PostedAppend {
  /// The event waits; a task is already on its way to process it.
  case queued
  /// The event waits, and the caller must schedule a task to process the events.
  case queuedFirst
  /// The event was not taken: the limit's number of events wait already.
  case full
  /// The event was refused by ``PostedEvents/appendAtLimit(_:canWait:until:)`` and counted.
  case refused
}

// NB: a class around a lock, not a `Protected<Inbox>` of a generic struct: the store's code is not
// specialized for its feature, and there each use of a generic struct type looks up its metadata in
// the runtime's cache (hot-path rule 1 in Store/EventLoop.swift). A class carries its own metadata.
//
// NB: the events are kept in raw, typed memory, with the buffers' fields in this class, rather than
// in `[Event]` or a nested buffer struct: unspecialized, every `Array<Event>.append` and subscript
// looked up the array's metadata, about 280 of the 800 instructions of a post. Pointer operations
// need only `Event`'s own metadata, which this class carries.
/// Events posted from synchronous code with ``Store/post(_:isolation:)``, waiting for the store's executor,
/// and whether a task is on its way to process them.
///
/// At most `limit` events wait (see ``Store/init(state:deps:diagnostics:recorder:postLimit:)``): a
/// post that finds them full either waits for the store to take them, when its thread may block, or
/// is refused and counted; the store reports both after the events that filled the limit.
///
/// `append(_:)` and `appendAtLimit(_:canWait:until:)` are called from any thread; `processAll(_:)`
/// only on the store's executor.
final class PostedEvents<Event>: @unchecked Sendable {
  /// The most events that wait at once.
  let limit: Int
  /// Whether a task is on its way to process the events; its lock also guards the waiting buffer.
  private let processingScheduled = Protected(false)
  // NB: the waiting buffer, guarded by the lock of `processingScheduled`: `waitingCount`
  // initialized events from `waitingStart`, room for `waitingCapacity` (no memory while 0).
  @exclusivity(unchecked) private var waitingStart: UnsafeMutablePointer<Event>?
  @exclusivity(unchecked) private var waitingCapacity = 0
  @exclusivity(unchecked) private var waitingCount = 0
  // NB: the spare buffer, empty, kept from the last batch so that a steady stream of posts does not
  // allocate; only the store's executor touches it.
  @exclusivity(unchecked) private var spareStart: UnsafeMutablePointer<Event>?
  @exclusivity(unchecked) private var spareCapacity = 0
  /// How many events wait: lets the store skip the lock when there are none.
  private let count = Atomic<Int>(0)
  // NB: guarded by the lock, as the waiting buffer. Touched only when the limit was reached.
  /// Whether the waiting events reached `limit` since the store last took them.
  @exclusivity(unchecked) private var reachedLimit = false
  /// How many posts were refused since the store last took the waiting events.
  @exclusivity(unchecked) private var refused = 0
  /// How many threads wait for room.
  @exclusivity(unchecked) private var roomWaiters = 0
  /// The most room the waiting buffer ever had, for tests of the bound.
  @exclusivity(unchecked) private var largestCapacity = 0
  // NB: one semaphore for each time the store takes the events, made by the first thread that
  // waits: a thread that stopped waiting (its time ran out) leaves its signal on that take's
  // semaphore, which no later waiter uses, so no waiter's wake-up is taken by another.
  /// Signalled once for each thread that waits for room, when the store next takes the waiting
  /// events; nil while no thread waits.
  @exclusivity(unchecked) private var room: DispatchSemaphore?

  /// How many events a buffer first has room for.
  private static var initialCapacity: Int { 16 }
  /// How many events of room a quiet store keeps for the next batch.
  private static var retainedCapacity: Int { 1_024 }

  /// Creates an empty inbox where at most `limit` events wait; `limit` is at least 1.
  init(limit: Int = Int.max) {
    self.limit = max(1, limit)
  }

  deinit {
    waitingStart?.deinitialize(count: waitingCount)
    waitingStart?.deallocate()
    spareStart?.deallocate()
  }

  /// Whether no event waits.
  @inline(__always) var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

  /// Adds an event unless `limit` events wait, and says whether the caller must schedule a task to
  /// process the events.
  ///
  /// Never waits; a `.full` result leaves the event to ``appendAtLimit(_:canWait:until:)``.
  func append(_ event: Event) -> PostedAppend {
    processingScheduled.withLock { processingScheduled in
      guard waitingCount < limit else { return .full }
      return insert(event, processingScheduled: &processingScheduled)
    }
  }

  /// Adds an event that found `limit` events waiting: waits until the store takes them, while
  /// `canWait` and until `deadline`, else refuses the event and counts it.
  ///
  /// Marks that the limit was reached, for the store's report.
  @inline(never)
  func appendAtLimit(_ event: Event, canWait: Bool, until deadline: DispatchTime) -> PostedAppend {
    while true {
      let next = processingScheduled.withLock { processingScheduled -> PostedAtLimit in
        if waitingCount < limit {
          return .ended(insert(event, processingScheduled: &processingScheduled))
        }
        reachedLimit = true
        guard canWait, DispatchTime.now() < deadline else {
          refused += 1
          return .ended(.refused)
        }
        roomWaiters += 1
        let room = self.room ?? DispatchSemaphore(value: 0)
        self.room = room
        return .waits(room)
      }
      switch next {
      case .ended(let appended): return appended
      case .waits(let room): _ = room.wait(timeout: deadline)
      }
    }
  }

  /// Adds an event, under the lock, with room below `limit`.
  private func insert(_ event: Event, processingScheduled: inout Bool) -> PostedAppend {
    if waitingCount == waitingCapacity { growWaiting() }
    // NB: `growWaiting` leaves room, so the buffer exists here.
    (waitingStart.unsafelyUnwrapped + waitingCount).initialize(to: event)
    waitingCount += 1
    count.add(1, ordering: .releasing)
    guard !processingScheduled else { return .queued }
    processingScheduled = true
    return .queuedFirst
  }

  /// Doubles the room of the waiting buffer, or makes its first room.
  ///
  /// Called under the lock.
  private func growWaiting() {
    // NB: never more room than `limit`: the waiting events' memory is bounded by it.
    let capacity = min(limit, max(Self.initialCapacity, waitingCapacity * 2))
    largestCapacity = max(largestCapacity, capacity)
    let larger = UnsafeMutablePointer<Event>.allocate(capacity: capacity)
    if let start = waitingStart {
      larger.moveInitialize(from: start, count: waitingCount)
      start.deallocate()
    }
    waitingStart = larger
    waitingCapacity = capacity
  }

  /// Takes the waiting events and passes each to `process`, oldest first.
  ///
  /// Events posted meanwhile wait for the next call.
  /// - Returns: How many posts were refused while these events waited, when they reached the
  ///   limit; nil when they did not.
  @discardableResult
  func processAll(_ process: (Event) -> Void) -> Int? {
    var batchStart = spareStart
    var batchCapacity = spareCapacity
    var batchCount = 0
    spareStart = nil
    spareCapacity = 0
    // NB: one flag read on the common path: the limit's fields are touched only once reached.
    let limitReport = processingScheduled.withLock {
      processingScheduled -> (refused: Int, waiters: Int, room: DispatchSemaphore?)? in
      swap(&waitingStart, &batchStart)
      swap(&waitingCapacity, &batchCapacity)
      swap(&waitingCount, &batchCount)
      processingScheduled = false
      count.store(0, ordering: .releasing)
      guard reachedLimit else { return nil }
      defer {
        reachedLimit = false
        refused = 0
        roomWaiters = 0
        room = nil
      }
      return (refused, roomWaiters, room)
    }
    if let limitReport, let room = limitReport.room {
      // NB: before the batch is processed: the waiting threads may fill the room meanwhile.
      for _ in 0..<limitReport.waiters { room.signal() }
    }
    if let start = batchStart {
      // NB: each event is moved out before it is processed, so the buffer is empty (its memory
      // uninitialized) when the loop ends.
      var index = 0  // hot-path rule 3
      while index < batchCount {
        process((start + index).move())
        index += 1
      }
    }
    // NB: after a flood of posts, give the room back rather than keep it for the store's life.
    if batchCapacity > Self.retainedCapacity {
      batchStart?.deallocate()
      batchStart = nil
      batchCapacity = 0
    }
    spareStart = batchStart
    spareCapacity = batchCapacity
    return limitReport?.refused
  }

  /// How many threads wait for room, and how many posts were refused, since the store last took
  /// the waiting events: for tests.
  var atLimit: (waitingThreads: Int, refused: Int) {
    processingScheduled.withLock { _ in (roomWaiters, refused) }
  }

  /// The most room the waiting buffer ever had, for tests of the bound.
  var largestRoom: Int {
    processingScheduled.withLock { _ in largestCapacity }
  }

  /// Whether the kept storage is far larger than a quiet store needs, for tests of memory after a
  /// burst.
  var isOversized: Bool { spareCapacity > Self.retainedCapacity }
}
