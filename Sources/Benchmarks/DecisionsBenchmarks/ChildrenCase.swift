import Decisions
import Dispatch
import Synchronization

// MARK: - 15. Children's work

/// Case 15: one event on a `Store` whose list of 10, 1,000 or 100,000 rows has every row's load in
/// flight, each in the scope of its row.
///
/// An event that updates one row (a–c) adds or removes no row, so the store skips the check of the
/// children's work. An event that removes a row (d–f) makes the store look at that row's work
/// only, found by its scope; each removal is timed on its own, and an untimed event then adds a
/// row with its load, so that every removal finds the same number of rows loading. Both costs must
/// stay flat across sizes. One store per size serves both rows.
func childrenWorkCase(_ plan: Plan) async -> [Row] {
  var updates: [(size: Int, row: Row)] = []
  var removals: [(size: Int, row: Row)] = []
  for (size, updateID, removalID, removalEvents) in [
    (10, "15a", "15d", 1_000), (1_000, "15b", "15e", 1_000), (100_000, "15c", "15f", 1_000),
  ] {
    guard plan.selects(updateID) || plan.selects(removalID) else { continue }
    let loads = PendingLoads()
    let store = Store<LoadingRows>(
      state: .init(count: size), deps: .init(row: .init(load: { await loads.load() })))
    await store.send(.loadAll)
    await loads.wait(started: size, ended: 0)

    let updated = size - 1
    var counted = 0
    let update = await measure(
      updateID, "update 1 of \(grouped(size)) rows, every row loading",
      events: plan.events(300_000), plan: plan
    ) { events in
      let elapsed = await timedInBackground {
        for _ in 0..<events { await store.send(.row(id: updated, .increment)) }
      }
      counted += events
      let count = await store.state.rows[id: updated]?.count ?? -1
      check(count == counted, "the row counted \(count) of \(counted) events")
      check(loads.inFlight == size, "\(loads.inFlight) of \(size) loads are in flight")
      return elapsed
    }
    updates.append((size, update))

    // NB: the removed row is always the last, so the list's own removal is O(1) (removing
    // anywhere else moves the positions after it): what is measured is the store's check.
    var last = size - 1
    var started = size
    var ended = 0
    let removal = await measure(
      removalID, "remove 1 of \(grouped(size)) rows, every row loading",
      events: plan.events(removalEvents), plan: plan
    ) { events in
      var elapsed = Duration.zero
      for _ in 0..<events {
        let start = ContinuousClock.now
        await store.send(.remove(id: last))
        elapsed += ContinuousClock.now - start
        ended += 1
        await loads.wait(started: started, ended: ended)
        await store.send(.addLoading)
        started += 1
        last = started - 1  // the row just added
        await loads.wait(started: started, ended: ended)
      }
      let rows = await store.state.rows.count
      check(rows == size, "the list has \(rows) rows, not \(size)")
      check(loads.inFlight == size, "\(loads.inFlight) of \(size) loads are in flight")
      return elapsed
    }
    removals.append((size, removal))

    await store.stop()
    await loads.wait(started: started, ended: started)
    await store.settle()
  }
  return flatness(updates) + flatness(removals)
}

// MARK: - 16. Child models

/// Case 16: case 15's update on a `MainStore`, sent by the row's child model, with a model made and
/// held for each row, up to 10,000, and every row's load in flight.
///
/// The store updates only the models whose row changed, found from the list's log of changes, and
/// skips the check of the children's work: the cost must stay flat. The case is synchronous on the
/// main thread, without the main queue, so that valgrind can count it (see ``MainThread``).
func childModelsCase(_ plan: Plan) async -> [Row] {
  #if canImport(Observation)
    await MainThread.run { childModelRows(plan) }
  #else
    []
  #endif
}

#if canImport(Observation)
  @MainActor
  private func childModelRows(_ plan: Plan) -> [Row] {
    var rows: [(size: Int, row: Row)] = []
    for (size, id) in [(10, "16a"), (1_000, "16b"), (100_000, "16c")] {
      guard plan.selects(id) else { continue }
      let loads = PendingLoads()
      let store = MainStore<LoadingRows>(
        state: .init(count: size), deps: .init(row: .init(load: { await loads.load() })))
      store.send(.loadAll)
      loads.waitOnThisThread(started: size, ended: 0)
      let models = (0..<Swift.min(size, 10_000)).compactMap { id in
        store.child(LoadingRow.self, id: id, in: \.rows) { id, event in .row(id: id, event) }
      }
      check(models.count == Swift.min(size, 10_000), "\(models.count) child models were made")

      let model = models[models.count - 1]
      var counted = 0
      let row = measureOnThisThread(
        id, "MainStore: 1 of \(grouped(size)) rows, \(grouped(models.count)) models",
        events: plan.events(100_000), plan: plan
      ) { events in
        let start = ContinuousClock.now
        for _ in 0..<events { model.send(.increment) }
        let elapsed = ContinuousClock.now - start
        counted += events
        check(model.state.count == counted, "the row's model shows \(model.state.count)")
        check(models[0].state.count == 0, "the first row's model changed")
        check(loads.inFlight == size, "\(loads.inFlight) of \(size) loads are in flight")
        return elapsed
      }
      rows.append((size, row))

      // NB: the cancelled loads end off the main thread; their work reports its end to the main
      // actor later, if the main queue runs at all.
      store.stop()
      loads.waitOnThisThread(started: size, ended: size)
    }
    return flatness(rows)
  }
#endif

/// Returns the rows, noting on each how its median compares with the smallest list's, when that
/// ran.
///
/// Every row's cost should stay flat: the target is at most 2×.
private func flatness(_ rows: [(size: Int, row: Row)]) -> [Row] {
  let measured = rows.filter { !$0.row.nanos.isEmpty }
  guard let first = measured.first, first.size == 10 else { return rows.map(\.row) }
  return rows.map { size, row in
    guard size > first.size, !row.nanos.isEmpty else { return row }
    var row = row
    row.note =
      "\(readable(row.median / first.row.median))× \(first.row.id) (10 rows); the target is at most 2×"
    return row
  }
}

// MARK: - Loads that wait

/// The loads of cases 15 and 16: each waits until its work is cancelled.
///
/// Each load is like a request to a server that never answers. The counts let a case wait until
/// every row's load is in flight.
final class PendingLoads: Sendable {
  private struct Counts {
    var started = 0
    var ended = 0
    var waiter: (started: Int, ended: Int, wake: @Sendable () -> Void)?
  }

  private let counts = Mutex(Counts())

  /// How many loads started and have not ended.
  var inFlight: Int {
    counts.withLock { $0.started - $0.ended }
  }

  /// Waits until its task is cancelled.
  func load() async {
    change { $0.started += 1 }
    let gate = Gate()
    await withTaskCancellationHandler {
      await gate.wait()
    } onCancel: {
      gate.open()
    }
    change { $0.ended += 1 }
  }

  /// Returns once exactly `started` loads have started and `ended` have ended.
  func wait(started: Int, ended: Int) async {
    await withCheckedContinuation { continuation in
      whenCounts(started: started, ended: ended) { continuation.resume() }
    }
  }

  /// Blocks the calling thread until exactly `started` loads have started and `ended` have ended.
  func waitOnThisThread(started: Int, ended: Int) {
    let done = DispatchSemaphore(value: 0)
    whenCounts(started: started, ended: ended) { done.signal() }
    done.wait()
  }

  private func whenCounts(started: Int, ended: Int, _ wake: @escaping @Sendable () -> Void) {
    let isDone = counts.withLock { counts in
      if counts.started == started && counts.ended == ended { return true }
      counts.waiter = (started, ended, wake)
      return false
    }
    if isDone { wake() }
  }

  private func change(_ body: (inout Counts) -> Void) {
    let wake = counts.withLock { counts -> (@Sendable () -> Void)? in
      body(&counts)
      guard let waiter = counts.waiter, waiter.started == counts.started,
        waiter.ended == counts.ended
      else { return nil }
      counts.waiter = nil
      return waiter.wake
    }
    wake?()
  }
}

/// A gate that opens only when told: ``wait()`` returns once ``open()`` was called, before or after.
final class Gate: Sendable {
  private enum State {
    case closed
    case waiting(UnsafeContinuation<Void, Never>)
    case open
  }

  private let state = Mutex(State.closed)

  /// Returns once the gate is open.
  func wait() async {
    await withUnsafeContinuation { continuation in
      let isOpen = state.withLock { state in
        if case .open = state { return true }
        state = .waiting(continuation)
        return false
      }
      if isOpen { continuation.resume() }
    }
  }

  /// Opens the gate, and lets its waiter go on.
  func open() {
    let waiting = state.withLock { state -> UnsafeContinuation<Void, Never>? in
      defer { state = .open }
      if case .waiting(let continuation) = state { return continuation }
      return nil
    }
    waiting?.resume()
  }
}
