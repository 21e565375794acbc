import Decisions

/// A clock whose time moves only when the test says, for testing features with time in them
/// (debounce, timers, timeouts, retries) without waiting.
///
/// Give it to the feature's deps where the app gives `ContinuousClock()`, then move time with
/// ``advance(by:)``, ``advance(to:)`` or ``run(maximumWakes:fileID:filePath:line:column:)``:
///
/// ```swift
/// let clock = TestClock()
/// let test = StoreTest<Search>(state: .init(), deps: .init(clock: clock, search: searches.record))
/// await test.send(.queryChanged("ab"))          // the debounce is now asleep on the clock
/// await clock.advance(by: .milliseconds(299))   // nothing happens
/// await clock.advance(by: .milliseconds(1))     // the search runs, its result is processed
/// await test.expectState(.init(query: "ab", results: ["ab"]))
/// ```
///
/// **Waking.** Sleepers wake one at a time, in the order of their deadlines, and in the order they
/// fell asleep for equal deadlines. When a sleeper is a store's work, the clock waits until that
/// store has settled again (see ``Decisions/Store/settle()``) before it wakes the next one, so the
/// events the work sends, the work those events start, and any sleep that work begins before the
/// target time all happen inside the same `advance`. After `advance` returns, the store's state and
/// the deps' calls can be asserted with no further waiting. Before moving time, `advance` also
/// settles every store whose work has slept on this clock before.
///
/// **Cancellation.** A sleeper whose task is cancelled wakes at once and throws `CancellationError`,
/// whether or not time moves.
///
/// **Sleepers that are not a store's work** (a task the test started itself) wake in the same
/// order, but the clock cannot know when they are done: it does not wait for them.
public final class TestClock: Clock, Sendable {
  /// A point in a ``TestClock``'s time: the time since the clock was created.
  public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
    /// The time since the clock's start.
    public var offset: Duration

    /// Creates the instant `offset` after the clock's start.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` after this one.
    public func advanced(by duration: Duration) -> Self {
      Self(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    public func duration(to other: Self) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The instant's offset from the clock's start, such as `TestClock.Instant(1.5 seconds)`.
    public var description: String {
      "TestClock.Instant(\(offset))"
    }
  }

  /// What a task that goes to sleep found: an outcome if it need not sleep, and the callers of
  /// `waitForSleepers(_:)` to resume.
  private typealias Registration = (
    outcome: Result<Void, any Error>?, waiters: [CheckedContinuation<Void, Never>]
  )

  /// A task asleep on the clock.
  private struct Sleeper {
    /// Identifies the sleeper, for its cancellation.
    var id: UInt64
    var deadline: Instant
    var continuation: CheckedContinuation<Void, any Error>
    /// The wait of the store's work the sleeper belongs to, if it does.
    var wait: WorkRegistry.TestWaits.Wait?
  }

  private struct State {
    var now = Instant()
    /// The sleepers, by id.
    var sleepers: [UInt64: Sleeper] = [:]
    /// The order the sleepers wake in.
    var queue = WakeQueue()
    var lastSleeperID: UInt64 = 0
    /// The owners of work that slept on this clock: settled before time moves.
    var ownersWaits: [ObjectIdentifier: WorkRegistry.TestWaits] = [:]
    /// Callers of `waitForSleepers(_:)`, with the count each waits for.
    var sleeperWaiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, Never>)] =
      []

    /// Takes the callers of `waitForSleepers(_:)` whose count is reached.
    mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
      let count = sleepers.count
      let satisfied = sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
      sleeperWaiters.removeAll { $0.count <= count }
      return satisfied
    }

    /// Takes the sleeper that wakes next, if its deadline is not after `limit`.
    mutating func takeNext(until limit: Instant?) -> Sleeper? {
      while let first = queue.first {
        guard sleepers[first.id] != nil else {
          // NB: a sleeper cancelled since it fell asleep.
          queue.removeFirst()
          continue
        }
        if let limit, first.deadline > limit { return nil }
        queue.removeFirst()
        return sleepers.removeValue(forKey: first.id)
      }
      return nil
    }

    /// The earliest deadline of a sleeper.
    mutating func nextDeadline() -> Instant? {
      while let first = queue.first, sleepers[first.id] == nil { queue.removeFirst() }
      return queue.first?.deadline
    }

    /// Forgets a cancelled sleeper, and returns it.
    mutating func remove(_ id: UInt64) -> Sleeper? {
      guard let sleeper = sleepers.removeValue(forKey: id) else { return nil }
      // NB: its place in the queue is dropped when it comes first; once the queue holds more
      // cancelled sleepers than live ones, it is rebuilt, so that its memory stays bounded.
      if queue.count > 2 * sleepers.count + 16 {
        let live = sleepers
        queue.removeAll { live[$0] == nil }
      }
      return sleeper
    }
  }

  private let state: Protected<State>

  /// Creates a clock at `now`, with no sleepers.
  public init(now: Instant = .init()) {
    state = Protected(State(now: now))
    WorkRegistry.TestWaits.startTracking()
  }

  /// The clock's current time.
  public var now: Instant {
    state.withLock { $0.now }
  }

  /// The smallest step the clock measures: any.
  public var minimumResolution: Duration { .zero }

  /// How many tasks are asleep on the clock.
  public var sleeperCount: Int {
    state.withLock { $0.sleepers.count }
  }

  /// The earliest deadline of a task asleep on the clock, if any.
  public var nextDeadline: Instant? {
    state.withLock { $0.nextDeadline() }
  }

  /// How many sleepers the clock's queue looked at to keep them in order: for tests of its cost.
  var queueVisits: Int {
    state.withLock { $0.queue.visits }
  }

  /// How many places the clock's queue holds, those of cancelled sleepers included: for tests of
  /// its memory.
  var queueLength: Int {
    state.withLock { $0.queue.count }
  }

  /// Suspends until the test moves the clock to `deadline`, or the task is cancelled.
  ///
  /// A deadline that has passed returns at once.
  /// - Throws: `CancellationError` if the task is cancelled before or while it sleeps.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state -> UInt64 in
      state.lastSleeperID += 1
      return state.lastSleeperID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // NB: decided under the lock, so that this and the cancellation handler never both resume.
        // The wait begins under the lock too, last: once the store sees its work waiting, `advance`
        // sees the sleeper and the clock knows the store (a clock its test did not know is
        // reported first); and whoever takes the sleeper out ends the wait after it began.
        let (outcome, waiters) = state.withLock { state -> Registration in
          if Task.isCancelled { return (.failure(CancellationError()), []) }
          if deadline <= state.now { return (.success(()), []) }
          if let testWaits = WorkRegistry.TestWaits.current?.testWaits {
            state.ownersWaits[ObjectIdentifier(testWaits)] = testWaits
            testWaits.attachIfNew(clock: ObjectIdentifier(self))?()
          }
          let wait = WorkRegistry.TestWaits.beginWait()
          state.sleepers[id] = Sleeper(
            id: id, deadline: deadline, continuation: continuation, wait: wait)
          state.queue.insert(deadline: deadline, id: id)
          return (nil, state.takeSatisfiedWaiters())
        }
        for waiter in waiters { waiter.resume() }
        if let outcome { continuation.resume(with: outcome) }
      }
    } onCancel: {
      let sleeper = state.withLock { $0.remove(id) }
      sleeper?.wait?.end()
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline it reaches.
  ///
  /// See the type's documentation for the order of waking and what `advance` waits for.
  /// A negative duration does not move time back.
  public func advance(by duration: Duration) async {
    let target = state.withLock { $0.now.advanced(by: duration) }
    await advance(to: target)
  }

  /// Moves time forward to `deadline`, waking every sleeper whose deadline it reaches, including
  /// those that fall asleep while it advances.
  ///
  /// A deadline that has passed does not move time back; sleepers already due still wake.
  public func advance(to deadline: Instant) async {
    await settleKnownOwners()
    while let sleeper = wakeNext(until: deadline) {
      sleeper.wait?.end()
      sleeper.continuation.resume()
      if let testWaits = sleeper.wait?.testWaits {
        await testWaits.settleOwner()
      }
    }
  }

  /// Moves time forward until no task sleeps on the clock, waking every sleeper in order.
  ///
  /// Work that always sleeps again (a repeating timer) would keep the clock running for ever, so
  /// `run` stops after waking `maximumWakes` sleepers and records a test failure if any are left.
  /// - Parameters:
  ///   - maximumWakes: How many sleepers to wake at most.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func run(
    maximumWakes: Int = 10_000,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await settleKnownOwners()
    var wakes = 0
    while wakes < maximumWakes, let sleeper = wakeNext(until: nil) {
      wakes += 1
      sleeper.wait?.end()
      sleeper.continuation.resume()
      if let testWaits = sleeper.wait?.testWaits {
        await testWaits.settleOwner()
      }
    }
    let left = sleeperCount
    guard left > 0 else { return }
    reportFailure(
      """
      TestClock.run() woke \(maximumWakes) sleepers and \(left) still \(left == 1 ? "sleeps" : "sleep"). \
      Work that sleeps again every time (a repeating timer) never lets the clock run out: advance \
      it by a duration instead, or stop the work first.
      """,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Takes the sleeper with the earliest deadline up to `limit` (or any, without one), moving the
  /// clock to its deadline; without one, moves the clock to `limit`.
  private func wakeNext(until limit: Instant?) -> Sleeper? {
    state.withLock { state in
      guard let sleeper = state.takeNext(until: limit) else {
        if let limit, limit > state.now { state.now = limit }
        return nil
      }
      if sleeper.deadline > state.now { state.now = sleeper.deadline }
      return sleeper
    }
  }

  /// Returns once at least `count` tasks are asleep on the clock.
  ///
  /// A store's work needs no such wait: ``Decisions/Store/settle()`` and `advance` know when it
  /// sleeps. Use it for code that sleeps outside a store, such as a task the test started, before
  /// advancing past its deadline:
  ///
  /// ```swift
  /// let poller = Task { try await poll(clock: clock) }
  /// await clock.waitForSleepers(1)
  /// await clock.advance(by: .seconds(5))
  /// ```
  ///
  /// If the waiting task is cancelled, it returns at once, whether or not the sleepers came.
  public func waitForSleepers(_ count: Int) async {
    let id = state.withLock { state -> UInt64 in
      state.lastSleeperID += 1
      return state.lastSleeperID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        // NB: decided under the lock, so that this and the cancellation handler never both resume.
        let ready = state.withLock { state in
          if state.sleepers.count >= count || Task.isCancelled { return true }
          state.sleeperWaiters.append((id, count, continuation))
          return false
        }
        if ready { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        state.sleeperWaiters.firstIndex { $0.id == id }.map { state.sleeperWaiters.remove(at: $0) }
      }
      waiter?.continuation.resume()
    }
  }

  /// Makes the clock settle the store with `testWaits` before it moves time.
  ///
  /// Returns what to call to report that the store's harness did not know the clock, when it wants
  /// to hear that.
  @discardableResult
  func attach(_ testWaits: WorkRegistry.TestWaits) -> (@Sendable () -> Void)? {
    state.withLock { $0.ownersWaits[ObjectIdentifier(testWaits)] = testWaits }
    return testWaits.attachIfNew(clock: ObjectIdentifier(self))
  }

  /// Settles every store attached to the clock, so that work a test just started reaches its sleep
  /// before time moves.
  private func settleKnownOwners() async {
    // NB: the owners that are gone are forgotten here, so a clock that outlives many stores does
    // not keep their ownersWaits.
    let ownersWaits = state.withLock { state in
      state.ownersWaits = state.ownersWaits.filter { $0.value.isOwnerAlive }
      return Array(state.ownersWaits.values)
    }
    for testWaits in ownersWaits {
      await testWaits.settleOwner()
    }
  }

  /// The test clocks kept in `value`'s stored properties, also in nested values, for a harness to
  /// attach: looks at most `limit` values deep.
  static func clocks(in value: Any, limit: Int = 4) -> [TestClock] {
    if let clock = value as? TestClock { return [clock] }
    guard limit > 0 else { return [] }
    var found: [TestClock] = []
    for child in Mirror(reflecting: value).children {
      for clock in clocks(in: child.value, limit: limit - 1)
      where !found.contains(where: { $0 === clock }) {
        found.append(clock)
      }
    }
    return found
  }
}

/// The sleepers of a ``TestClock`` in the order they wake: by deadline, and in the order they
/// fell asleep for equal deadlines. A binary heap: adding a sleeper and taking the first each look
/// at O(log *n*) sleepers.
// NB: the sleepers were an array that waking scanned and removed from: waking n sleepers took
// O(n²) time (2,000 sleepers, 0.78 s).
struct WakeQueue {
  private var heap: [(deadline: TestClock.Instant, order: UInt64, id: UInt64)] = []
  private var lastOrder: UInt64 = 0
  /// How many sleepers the queue looked at, in all: for tests of its cost.
  private(set) var visits = 0

  /// How many sleepers the queue holds.
  var count: Int { heap.count }

  /// The sleeper that wakes first.
  var first: (deadline: TestClock.Instant, id: UInt64)? {
    heap.first.map { ($0.deadline, $0.id) }
  }

  /// Adds a sleeper, after those with the same deadline.
  mutating func insert(deadline: TestClock.Instant, id: UInt64) {
    lastOrder += 1
    heap.append((deadline, lastOrder, id))
    siftUp(heap.count - 1)
  }

  /// Removes the sleeper that wakes first.
  mutating func removeFirst() {
    let last = heap.removeLast()
    guard !heap.isEmpty else { return }
    heap[0] = last
    siftDown(0)
  }

  /// Removes the sleepers whose ids `isGone` picks, keeping the order of the others.
  mutating func removeAll(where isGone: (UInt64) -> Bool) {
    let kept = heap.filter { !isGone($0.id) }
    heap = []
    for sleeper in kept {
      heap.append(sleeper)
      siftUp(heap.count - 1)
    }
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      visits += 1
      let parent = (child - 1) / 2
      guard wakesBefore(child, parent) else { return }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    while true {
      visits += 1
      let left = 2 * parent + 1
      let right = left + 1
      var first = parent
      if left < heap.count, wakesBefore(left, first) { first = left }
      if right < heap.count, wakesBefore(right, first) { first = right }
      guard first != parent else { return }
      heap.swapAt(parent, first)
      parent = first
    }
  }

  private func wakesBefore(_ one: Int, _ other: Int) -> Bool {
    (heap[one].deadline, heap[one].order) < (heap[other].deadline, heap[other].order)
  }
}
