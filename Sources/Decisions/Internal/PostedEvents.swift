import Synchronization

// NB: a class around a lock, not a `Protected<Inbox>` of a generic struct: the store's code is not
// specialized for its feature, and there each use of a generic struct type looks up its metadata in
// the runtime's cache (hot-path rule 1 in Store.swift). A class carries its own metadata.
/// Events posted from synchronous code with ``Store/post(_:)``, waiting for the store's executor,
/// and whether a task is on its way to process them.
///
/// `append(_:)` is called from any thread; `processAll(_:)` only on the store's executor.
final class PostedEvents<Event>: @unchecked Sendable {
  /// Whether a task is on its way to process the events; its lock also guards `events`.
  private let processingScheduled = Protected(false)
  // NB: guarded by the lock of `processingScheduled`.
  /// The events, oldest first.
  @exclusivity(unchecked) private var events: [Event] = []
  /// How many events wait: lets the store skip the lock when there are none.
  private let count = Atomic<Int>(0)
  // NB: only the store's executor touches it.
  /// Storage kept from the last batch, so that a steady stream of posts does not allocate.
  @exclusivity(unchecked) private var spare: [Event] = []

  /// How many events of storage a quiet store keeps for the next batch.
  private static var retainedCapacity: Int { 1_024 }

  /// Whether no event waits.
  @inline(__always) var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

  /// Adds an event and returns whether the caller must schedule a task to process the events.
  func append(_ event: Event) -> Bool {
    processingScheduled.withLock { processingScheduled in
      events.append(event)
      count.add(1, ordering: .releasing)
      guard !processingScheduled else { return false }
      processingScheduled = true
      return true
    }
  }

  /// Takes the waiting events and passes each to `process`, oldest first.
  ///
  /// Events posted meanwhile wait for the next call.
  func processAll(_ process: (Event) -> Void) {
    var batch = spare
    spare = []
    processingScheduled.withLock { processingScheduled in
      swap(&events, &batch)
      processingScheduled = false
      count.store(0, ordering: .releasing)
    }
    var index = 0  // hot-path rule 3
    while index < batch.count {
      process(batch[index])
      index += 1
    }
    // NB: after a flood of posts, give the room back rather than keep it for the store's life.
    batch.removeAll(keepingCapacity: batch.capacity <= Self.retainedCapacity)
    spare = batch
  }

  /// Whether the kept storage is far larger than a quiet store needs, for tests of memory after a
  /// burst.
  var isOversized: Bool { spare.capacity > Self.retainedCapacity }
}
