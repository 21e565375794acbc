import Decisions
import DecisionsTesting
import Synchronization
import TestSupport
import Testing

/// A list of rows whose removal can queue the row's return: the same id, a new row.
private enum Rows: Feature {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArray<Row.State> = []
  }

  enum Event: Equatable, Sendable {
    case row(id: Int, Row.Event)
    case add(Int)
    /// Removes the row and queues its return as a new row, with `Effects.send`.
    case replaceLater(Int)
    /// Removes the row and adds a new row with the same id, in one event.
    case replaceNow(Int)
  }

  enum Decision: Equatable, Sendable {
    case row(id: Int, Row.Decision)
    case add(Int)
  }

  typealias Deps = Row.Deps

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .row(let id, let event):
      return Row.makeDecisions(event: event, id: id, in: &state.rows, embed: Decision.row)
    case .add(let id):
      state.rows.append(Row.State(id: id))
      return []
    case .replaceLater(let id):
      _ = state.rows.remove(id: id)
      return [.add(id)]
    case .replaceNow(let id):
      _ = state.rows.remove(id: id)
      state.rows.append(Row.State(id: id))
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .row(let id, let decision):
      Row.execute(decision, deps: deps, effects: effects, scope: id) { .row(id: id, $0) }
    case .add(let id):
      effects.send(.add(id))
    }
  }

  static let childWork: [ChildWork<State>] = [.children(Row.self, in: \.rows)]
}

/// A feature whose first decision stops its store, from inside the send.
private enum Stopper: Feature {
  struct State: Equatable, Sendable {
    var log: [String] = []
  }

  enum Event: Equatable, Sendable {
    case go
    case queued
    case result
  }

  enum Decision: Equatable, Sendable {
    case stop
    case log
    case work
    case queue
  }

  struct Deps: Sendable {
    var stop: @Sendable () -> Void
    var log: @Sendable (String) -> Void
    var workStarted: @Sendable () -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .go:
      return [.queue, .stop, .log, .work]
    case .queued:
      state.log.append("queued")
      return []
    case .result:
      state.log.append("result")
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .stop:
      deps.stop()
    case .log:
      deps.log("after the stop")
    case .work:
      effects.run { send in
        deps.workStarted()
        await send(.result)
      }
    case .queue:
      effects.send(.queued)
    }
  }
}

/// The event loop that both stores share: what each promises, on each store.
@Suite(.timeLimit(.minutes(3))) struct EventLoopTests {
  // MARK: - Children keep their identity

  @Test func aRowRemovedAndAddedBackByAQueuedEventIsANewRowOnAStore() async throws {
    let loads = ControlledDependency<Void, Int>()
    let store = Store<Rows>(state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }))
    await store.send(.add(1))
    await store.send(.row(id: 1, .load))
    let call = try await loads.nextCall()
    await store.send(.replaceLater(1))
    // The old row's load ended with it: its answer cannot reach the new row 1.
    #expect(!call.isWaiting)
    call.answer(7)
    await store.settle()
    #expect(await store.state.rows[id: 1]?.value == 0)
  }

  @MainActor
  @Test func aRowRemovedAndAddedBackByAQueuedEventIsANewRowOnAMainStore() async throws {
    let loads = ControlledDependency<Void, Int>()
    let store = MainStore<Rows>(state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }))
    store.send(.add(1))
    store.send(.row(id: 1, .load))
    let call = try await loads.nextCall()
    store.send(.replaceLater(1))
    #expect(!call.isWaiting)
    call.answer(7)
    await store.settle()
    #expect(store.state.rows[id: 1]?.value == 0)
  }

  @Test func aRowRemovedAndAddedBackInOneEventIsANewRowOnAStore() async throws {
    let loads = ControlledDependency<Void, Int>()
    let store = Store<Rows>(state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }))
    await store.send(.add(1))
    await store.send(.add(2))
    // NB: one load at a time: two loads started together may call the dep in either order.
    await store.send(.row(id: 1, .load))
    let first = try await loads.nextCall()
    await store.send(.row(id: 2, .load))
    let second = try await loads.nextCall()
    await store.send(.replaceNow(1))
    // Row 1's load ended with the old row 1; row 2 is the same row, and keeps its own.
    #expect(!first.isWaiting)
    #expect(second.isWaiting)
    first.answer(7)
    second.answer(8)
    await store.settle()
    #expect(await store.state.rows[id: 1]?.value == 0)
    #expect(await store.state.rows[id: 2]?.value == 8)
  }

  @MainActor
  @Test func aRowRemovedAndAddedBackInOneEventIsANewRowOnAMainStore() async throws {
    let loads = ControlledDependency<Void, Int>()
    let store = MainStore<Rows>(state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }))
    store.send(.add(1))
    store.send(.add(2))
    // NB: one load at a time: two loads started together may call the dep in either order.
    store.send(.row(id: 1, .load))
    let first = try await loads.nextCall()
    store.send(.row(id: 2, .load))
    let second = try await loads.nextCall()
    store.send(.replaceNow(1))
    #expect(!first.isWaiting)
    #expect(second.isWaiting)
    first.answer(7)
    second.answer(8)
    await store.settle()
    #expect(store.state.rows[id: 1]?.value == 0)
    #expect(store.state.rows[id: 2]?.value == 8)
  }

  // MARK: - Stopping from inside a send

  @MainActor
  @Test func aDecisionThatStopsAMainStoreEndsItsEvent() async {
    final class Box: @unchecked Sendable {
      weak var store: MainStore<Stopper>?
    }
    let box = Box()
    let logged = Mutex<[String]>([])
    let started = Mutex(0)
    let ignored = Mutex<[Stopper.Event]>([])
    let store = MainStore<Stopper>(
      state: .init(),
      deps: .init(
        stop: { MainActor.assumeIsolated { box.store?.stop() } },
        log: { text in logged.withLock { $0.append(text) } },
        workStarted: { started.withLock { $0 += 1 } }),
      diagnostics: { diagnostic in
        if case .ignored(let event, .stopped) = diagnostic {
          ignored.withLock { $0.append(event) }
        }
      })
    box.store = store
    store.send(.go)
    #expect(store.isStopped)
    // The decisions after the stop are not performed, and the event queued before it is ignored.
    #expect(logged.withLock { $0 } == [])
    #expect(ignored.withLock { $0 } == [.queued])
    await store.settle()
    #expect(started.withLock { $0 } == 0)
    #expect(store.state.log == [])
    store.send(.go)
    #expect(ignored.withLock { $0 } == [.queued, .go])
  }
}

/// Settling on either store: a lost wake-up keeps `settle()` waiting forever, so the suite's time
/// limit is what ends a failing run.
@Suite(.timeLimit(.minutes(3))) struct EventLoopSettleTests {
  @Test func settleHearsWorkThatEndsWhileItBeginsToWaitOnAStore() async {
    // NB: the work ends on another thread at about the moment `settle()` checks and begins to
    // wait; a waiter added after that end was never resumed. At most a minute of tries: on a
    // machine busy with other builds, 2,000 took more than the suite's three minutes.
    let deadline = ContinuousClock.now + .seconds(60)
    for _ in 0..<2_000 where ContinuousClock.now < deadline {
      let store = Store<Counter>(state: .init(), deps: .init(work: { _, value in value }))
      await store.send(.startUnkeyed(value: 1))
      await store.settle()
      #expect(await store.state.count == 1)
    }
  }

  @MainActor
  @Test func settleHearsWorkThatEndsWhileItBeginsToWaitOnAMainStore() async {
    let deadline = ContinuousClock.now + .seconds(60)
    for _ in 0..<2_000 where ContinuousClock.now < deadline {
      let store = MainStore<Counter>(state: .init(), deps: .init(work: { _, value in value }))
      store.send(.startUnkeyed(value: 1))
      await store.settle()
      #expect(store.state.count == 1)
    }
  }
}

/// A row whose id counts how often it is hashed: once per piece of the rows' work when a store
/// looks at every piece after an event, a few times per event when it looks only at what changed.
private enum CountedRow: Feature {
  static let hashed = Atomic<Int>(0)

  struct ID: Hashable, Sendable {
    var value: Int

    func hash(into hasher: inout Hasher) {
      CountedRow.hashed.add(1, ordering: .relaxed)
      hasher.combine(value)
    }
  }

  struct State: Equatable, Identifiable, Sendable {
    var id: ID
    var ticks = 0
  }

  enum Event: Equatable, Sendable {
    case load
    case tick
  }

  enum Decision: Equatable, Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable () async -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .load: return [.load]
    case .tick:
      state.ticks += 1
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "load") { _ in await deps.load() }
  }
}

private enum CountedRows: Feature {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArray<CountedRow.State> = []
  }

  enum Event: Equatable, Sendable {
    case row(id: CountedRow.ID, CountedRow.Event)
    case add(CountedRow.ID)
    case remove(CountedRow.ID)
  }

  enum Decision: Equatable, Sendable {
    case row(id: CountedRow.ID, CountedRow.Decision)
  }

  typealias Deps = CountedRow.Deps

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .row(let id, let event):
      return CountedRow.makeDecisions(event: event, id: id, in: &state.rows, embed: Decision.row)
    case .add(let id):
      state.rows.append(CountedRow.State(id: id))
      return [.row(id: id, .load)]
    case .remove(let id):
      state.rows.remove(id: id)
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .row(let id, let decision):
      CountedRow.execute(decision, deps: deps, effects: effects, scope: id) { .row(id: id, $0) }
    }
  }

  static let childWork: [ChildWork<State>] = [.children(CountedRow.self, in: \.rows)]
}

/// What the check of children's work costs: what an event changed, not what exists.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ChildWorkCostTests {
  @MainActor
  @Test func anEventThatUpdatesARowDoesNotLookAtEveryRowsWork() async {
    let gate = Gate()
    let ids = (0..<1_000).map { CountedRow.ID(value: $0) }
    let store = MainStore<CountedRows>(
      state: .init(rows: IdentifiedArray(uniqueElements: ids.map { .init(id: $0) })),
      deps: .init(load: { _ = await gate.waitUnlessCancelled() }))
    for id in ids { store.send(.row(id: id, .load)) }
    let before = CountedRow.hashed.load(ordering: .relaxed)
    for id in ids.prefix(100) { store.send(.row(id: id, .tick)) }
    // A few hashes per event, to find the row; looking at each row's work would be 1,000 more.
    #expect(CountedRow.hashed.load(ordering: .relaxed) - before <= 100 * 10)
    store.stop()
    gate.open()
  }

  @MainActor
  @Test func anEventThatAddsOrRemovesARowLooksOnlyAtThatRowsWork() async {
    let gate = Gate()
    let ids = (0..<1_000).map { CountedRow.ID(value: $0) }
    let store = MainStore<CountedRows>(
      state: .init(), deps: .init(load: { _ = await gate.waitUnlessCancelled() }))
    for id in ids { store.send(.add(id)) }
    let before = CountedRow.hashed.load(ordering: .relaxed)
    // NB: the last row, which the collection removes in O(1): removing another moves the rows
    // after it, and hashes their ids.
    for _ in 0..<50 {
      store.send(.remove(ids[999]))
      store.send(.add(ids[999]))
    }
    // A few hashes per event, to find the row and its work; looking at each row's work would be
    // 1,000 more.
    #expect(CountedRow.hashed.load(ordering: .relaxed) - before <= 100 * 20)
    store.stop()
    gate.open()
  }
}
