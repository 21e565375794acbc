import DecisionsTesting
import TestSupport
import Testing

@testable import Decisions

/// How many states the buffer of `states`, a sequence with a bounded policy, holds, read or not.
private func heldByBuffer(_ states: StateSequence<Counter.State>) -> Int {
  guard case .buffer(let buffer) = states.source.kind else { return -1 }
  return buffer.contents.withLock { $0.pending.heldCount }
}

/// What the readers of `states()` make a store hold, and what their leaving costs, counted rather
/// than timed (issue 24).
@Suite(.timeLimit(.minutes(3))) struct StateMemoryTests {
  /// A reader that fell 20,000 states behind, caught up and then kept up leaves nothing in the
  /// log: reading lets go of what every reader has read.
  @Test func theLogLetsGoOfWhatAReaderThatCaughtUpHasRead() async {
    let store = Store<Counter>(state: .init(), deps: .init())
    var iterator = await store.states().makeAsyncIterator()
    for _ in 0..<20_000 { await store.send(.increment) }
    #expect(await store.stateLogKeptCount == 20_000)  // the reader has read none of them
    for expected in 0...20_000 {
      let count = await iterator.next()?.count
      guard count == expected else {
        Issue.record("read \(String(describing: count)) where \(expected) was due")
        return
      }
    }
    #expect(await store.stateLogKeptCount == 0)
    for expected in 20_001...20_100 {
      await store.send(.increment)
      #expect(await iterator.next()?.count == expected)
    }
    #expect(await store.stateLogKeptCount == 0)
    await store.stop()
  }

  /// With two readers the log keeps what the slower has not read, and lets it go when that reader
  /// reads it or leaves.
  @Test func theLogKeepsOnlyWhatItsSlowestReaderHasNotRead() async {
    let log = StateLog<Int>(id: 1) { _ in }
    guard let fast = log.addReader(first: 0), let slow = log.addReader(first: 0) else {
      Issue.record("the log took no reader")
      return
    }
    var fastBatch = StateBatch<Int>()
    var slowBatch = StateBatch<Int>()
    #expect(await fast.next(batch: &fastBatch) == 0)
    #expect(await slow.next(batch: &slowBatch) == 0)
    for state in 1...1_000 {
      _ = log.receive(state)
      #expect(await fast.next(batch: &fastBatch) == state)
    }
    #expect(log.keptCount == 1_000)  // the slow reader has read none of them
    #expect(await slow.next(batch: &slowBatch) == 1)  // and takes the rest into its batch
    #expect(slowBatch.count == 999)
    #expect(log.keptCount == 0)
    for state in 1_001...1_010 {
      _ = log.receive(state)
      #expect(await fast.next(batch: &fastBatch) == state)
    }
    #expect(log.keptCount == 10)
    slow.terminate()
    #expect(log.keptCount == 0)
    fast.terminate()
  }

  /// The places of a log's readers give the lowest place any reader is at, as a search of every
  /// reader would, through joins, reads and leaves in any order.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func readerPlacesKnowTheLowestPlace(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var places = ReaderPlaces()
    var readers: [(place: Int, cursor: Int)] = []
    var end = 0
    for _ in 0..<20_000 {
      let choice = random.next() % 10
      let index = readers.isEmpty ? nil : Int(random.next() % UInt64(readers.count))
      switch (choice, index) {
      case (0..<2, _):
        readers.append((places.add(at: end), end))
      case (2..<4, _):
        end += Int(random.next() % 3)  // states come
      case (4..<8, let index?):
        readers[index] = (places.move(readers[index].place, to: end), end)  // a reader reads
      case (_, let index?):
        places.remove(readers.remove(at: index).place)  // a reader leaves
      default:
        continue
      }
      let lowest = readers.map(\.cursor).min()
      guard places.lowest == lowest else {
        Issue.record(
          "the places say \(String(describing: places.lowest)), not \(String(describing: lowest))")
        return
      }
    }
  }

  /// A reader with a bounded policy holds at most its limit of states, whether it reads now and
  /// then or not at all.
  @Test(
    arguments: [.bufferingNewest(1), .bufferingNewest(3), .bufferingOldest(3)]
      as [StateSequence<Counter.State>.BufferingPolicy])
  func aBoundedReaderHoldsAtMostItsLimit(policy: StateSequence<Counter.State>.BufferingPolicy)
    async
  {
    let limit =
      switch policy {
      case .bufferingNewest(let limit), .bufferingOldest(let limit): limit
      case .unbounded: 0
      }
    let store = Store<Counter>(state: .init(), deps: .init())
    let states = await store.states(bufferingPolicy: policy)
    var iterator = states.makeAsyncIterator()
    var mostHeld = 0
    for event in 1...4_000 {
      await store.send(.increment)
      // One state in ten events for the first 2,000 events, then none.
      if event <= 2_000, event.isMultiple(of: 10) { _ = await iterator.next() }
      mostHeld = max(mostHeld, heldByBuffer(states))
    }
    #expect(mostHeld <= limit)
    await store.stop()
  }

  /// Readers of every state that wait, then leave, cost the log work in proportion to their
  /// number: a reader's leaving used to search every reader.
  @Test func leavingTheLogCostsWorkInProportionToTheReaders() async {
    let few = await Self.leaveWork(readers: 1_000)
    let many = await Self.leaveWork(readers: 4_000)
    #expect(many <= 5 * few)
    #expect(many <= 4 * 4_000)
  }

  /// The work the log of a store with `readers` waiting readers counts for their leaving.
  private static func leaveWork(readers: Int) async -> Int {
    let store = Store<Counter>(state: .init(), deps: .init())
    var sequences: [StateSequence<Counter.State>] = []
    for _ in 0..<readers { sequences.append(await store.states()) }
    guard case .log(let reader) = sequences[0].source.kind else { return -1 }
    let log = reader.log
    let tasks = sequences.map { states in Task { for await _ in states {} } }
    sequences = []
    while log.contents.withLock({ $0.waiting.count }) < readers { await Task.yield() }
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
    // The next state finds the readers that left.
    await store.send(.increment)
    await store.stop()
    return log.leaveWork
  }

  /// Detaching observers one by one costs work in proportion to their number: each detaching used
  /// to search every observer.
  @Test func detachingObserversCostsWorkInProportionToTheirNumber() {
    func removalWork(observers count: UInt64) -> Int {
      let observers = StateObservers<Int>()
      for id in 1...count {
        let observer = StateObserver(id: id, of: Int.self, receive: { _ in true }, finish: {})
        observers.add(observer, latestOnly: id.isMultiple(of: 10))
      }
      for id in 1...count { observers.remove(id: id) }
      #expect(observers.count == 0)
      return observers.removalWork
    }
    let few = removalWork(observers: 1_000)
    let many = removalWork(observers: 4_000)
    #expect(many <= 5 * few)
    #expect(many <= 4 * 4_000)
  }

  /// A detached observer gets no more states, the others keep their order, and an observer that
  /// the store dropped because it was gone is not counted twice when its detaching comes late.
  @Test func aDetachedObserverGetsNoMoreStates() {
    let observers = StateObservers<Int>()
    let calls = Calls<String>()
    for (id, name) in zip(UInt64(1)..., ["a", "b", "c", "d"]) {
      let observer = StateObserver(
        id: id, of: Int.self,
        receive: { state in
          calls.record("\(name)\(state)")
          return name != "c" || state < 2  // c is gone after the second state
        }, finish: {})
      observers.add(observer, latestOnly: false)
    }
    let latest = StateObserver(
      id: 5, of: Int.self,
      receive: {
        calls.record("e\($0)")
        return true
      }, finish: {})
    observers.add(latest, latestOnly: true)
    observers.remove(id: 2)
    #expect(observers.count == 4)
    observers.publish(1)
    observers.publish(2)
    #expect(observers.count == 3)
    observers.remove(id: 3)  // late: the store already dropped c
    #expect(observers.count == 3)
    observers.publishLatest(3)
    observers.publish(3)
    observers.remove(id: 1)
    observers.remove(id: 4)
    #expect(!observers.wantEveryState && observers.wantLatestState)
    observers.publish(4)
    observers.remove(id: 5)
    #expect(observers.count == 0 && !observers.wantLatestState)
    observers.publishLatest(4)
    #expect(calls.all == ["a1", "c1", "d1", "a2", "c2", "d2", "e3", "a3", "d3"])
  }
}
