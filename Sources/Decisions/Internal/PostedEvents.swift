import Synchronization

// NB: a class around a lock, not a `Protected<Inbox>` of a generic struct: the store's code is not
// specialized for its feature, and there each use of a generic struct type looks up its metadata in
// the runtime's cache (hot-path rule 1 in Internal/EventLoop.swift). A class carries its own metadata.
//
// NB: the events are kept in raw, typed memory, with the buffers' fields in this class, rather than
// in `[Event]` or a nested buffer struct: unspecialized, every `Array<Event>.append` and subscript
// looked up the array's metadata, about 280 of the 800 instructions of a post. Pointer operations
// need only `Event`'s own metadata, which this class carries.
/// Events posted from synchronous code with ``Store/post(_:)``, waiting for the store's executor,
/// and whether a task is on its way to process them.
///
/// `append(_:)` is called from any thread; `processAll(_:)` only on the store's executor.
final class PostedEvents<Event>: @unchecked Sendable {
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

  /// How many events a buffer first has room for.
  private static var initialCapacity: Int { 16 }
  /// How many events of room a quiet store keeps for the next batch.
  private static var retainedCapacity: Int { 1_024 }

  deinit {
    waitingStart?.deinitialize(count: waitingCount)
    waitingStart?.deallocate()
    spareStart?.deallocate()
  }

  /// Whether no event waits.
  @inline(__always) var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

  /// Adds an event and returns whether the caller must schedule a task to process the events.
  func append(_ event: Event) -> Bool {
    processingScheduled.withLock { processingScheduled in
      if waitingCount == waitingCapacity { growWaiting() }
      // NB: `growWaiting` leaves room, so the buffer exists here.
      (waitingStart.unsafelyUnwrapped + waitingCount).initialize(to: event)
      waitingCount += 1
      count.add(1, ordering: .releasing)
      guard !processingScheduled else { return false }
      processingScheduled = true
      return true
    }
  }

  /// Doubles the room of the waiting buffer, or makes its first room.
  ///
  /// Called under the lock.
  private func growWaiting() {
    let capacity = max(Self.initialCapacity, waitingCapacity * 2)
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
  func processAll(_ process: (Event) -> Void) {
    var batchStart = spareStart
    var batchCapacity = spareCapacity
    var batchCount = 0
    spareStart = nil
    spareCapacity = 0
    processingScheduled.withLock { processingScheduled in
      swap(&waitingStart, &batchStart)
      swap(&waitingCapacity, &batchCapacity)
      swap(&waitingCount, &batchCount)
      processingScheduled = false
      count.store(0, ordering: .releasing)
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
  }

  /// Whether the kept storage is far larger than a quiet store needs, for tests of memory after a
  /// burst.
  var isOversized: Bool { spareCapacity > Self.retainedCapacity }
}
