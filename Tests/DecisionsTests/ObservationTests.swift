import DecisionsTesting
import Observation
import TestSupport
import Testing

@testable import Decisions

/// Whether the reader of `states` waits for a state.
private func readerIsWaiting(_ states: StateSequence<Counter.State>) async -> Bool {
  states.buffer.contents.withLock { $0.waiter != nil }
}

@Suite(.timeLimit(.minutes(1))) struct StateSequenceTests {
  @Test func statesStartWithTheCurrentStateAndFollowEachEvent() async {
    let store = Store<Counter>(state: .init(count: 10), deps: .init())
    let states = await store.states()
    await store.send(.increment)
    await store.send(.add(5))
    await store.stop()
    var counts: [Int] = []
    for await state in states { counts.append(state.count) }
    #expect(counts == [10, 11, 16])
  }

  @Test func everyObserverSeesEveryState() async {
    let store = Store<Counter>(state: .init(), deps: .init())
    let first = await store.states()
    let second = await store.states()
    for _ in 0..<3 { await store.send(.increment) }
    await store.stop()
    var firstCounts: [Int] = []
    for await state in first { firstCounts.append(state.count) }
    var secondCounts: [Int] = []
    for await state in second { secondCounts.append(state.count) }
    #expect(firstCounts == [0, 1, 2, 3])
    #expect(secondCounts == [0, 1, 2, 3])
  }

  @Test func observingAStoppedStoreYieldsItsStateAndEnds() async {
    let store = Store<Counter>(state: .init(count: 2), deps: .init())
    await store.stop()
    var counts: [Int] = []
    for await state in await store.states() { counts.append(state.count) }
    #expect(counts == [2])
  }

  @Test func anObserverThatStopsListeningIsRemoved() async {
    let store = Store<Counter>(state: .init(), deps: .init())
    do {
      var iterator = await store.states(bufferingPolicy: .bufferingNewest(1)).makeAsyncIterator()
      _ = await iterator.next()
    }
    // The stream ended when its iterator went away; the next publish removes its observer.
    await store.send(.increment)
    await store.settle()
    #expect(await store.observerCount == 0)
  }

  @Test func aSlowReaderGetsEveryStateInOrderWithoutSlowingTheStore() async {
    let store = Store<Counter>(state: .init(), deps: .init())
    let states = await store.states()
    // The store runs 1,000 events before the reader reads anything: they wait in the buffer.
    for _ in 0..<1_000 { await store.send(.increment) }
    await store.stop()
    var counts: [Int] = []
    for await state in states { counts.append(state.count) }
    #expect(counts == Array(0...1_000))
  }

  /// A reader that fell behind takes what it missed in one batch; states that arrive while it reads
  /// the batch come after it, in order, and the iterator keeps neither the states it returned nor
  /// a burst's room.
  @Test func aReaderThatFellBehindReadsItsBatchThenTheNewStatesInOrder() async {
    let store = Store<Counter>(state: .init(), deps: .init())
    var iterator = await store.states().makeAsyncIterator()
    for _ in 0..<1_000 { await store.send(.increment) }
    var counts: [Int] = []
    for _ in 0..<500 { counts.append(await iterator.next()?.count ?? -1) }
    #expect(iterator.batch.count - iterator.batchIndex == 501)  // the rest of the batch
    for _ in 0..<10 { await store.send(.increment) }
    while counts.count < 1_011 { counts.append(await iterator.next()?.count ?? -1) }
    #expect(counts == Array(0...1_010))
    #expect(iterator.batch.isEmpty && iterator.batch.capacity <= 64)
    await store.stop()
    #expect(await iterator.next() == nil)
  }

  @Test func theNewestPolicyKeepsOnlyTheLatestUnreadStates() async {
    let store = Store<Counter>(state: .init(), deps: .init())
    let latest = await store.states(bufferingPolicy: .bufferingNewest(1))
    let lastTwo = await store.states(bufferingPolicy: .bufferingNewest(2))
    let firstTwo = await store.states(bufferingPolicy: .bufferingOldest(2))
    for _ in 0..<5 { await store.send(.increment) }
    await store.stop()
    var counts: [[Int]] = [[], [], []]
    for await state in latest { counts[0].append(state.count) }
    for await state in lastTwo { counts[1].append(state.count) }
    for await state in firstTwo { counts[2].append(state.count) }
    #expect(counts == [[5], [4, 5], [0, 1]])
  }

  @Test func cancellingAWaitingReaderEndsItsSequenceAndDetachesIt() async {
    let store = Store<Counter>(state: .init(), deps: .init())
    let states = await store.states()
    let reader = Task {
      var seen = 0
      for await _ in states { seen += 1 }
      return seen
    }
    // The reader takes the current state, then waits; cancelling it ends the loop.
    while await store.observerCount == 1, !(await readerIsWaiting(states)) { await Task.yield() }
    reader.cancel()
    #expect(await reader.value == 1)
    await store.send(.increment)
    await store.settle()
    #expect(await store.observerCount == 0)
  }

  @Test func statesEndWhenTheStoreIsReleasedWithoutStop() async {
    var store: Store<Counter>? = Store<Counter>(state: .init(), deps: .init())
    weak let weakStore = store
    let states = await store?.states()
    await store?.send(.increment)
    store = nil
    #expect(weakStore == nil)
    var counts: [Int] = []
    guard let states else { return }
    for await state in states { counts.append(state.count) }
    #expect(counts == [0, 1])
    // The sequence ended because its store went away, not because the time limit cancelled the test.
    #expect(!Task.isCancelled)
  }
}

@MainActor
@Suite(.timeLimit(.minutes(1))) struct ObservableStoreTests {
  @Test func readsStateSynchronouslyAndForwardsEvents() async {
    let model = ObservableStore<Counter>(state: .init(), deps: .init())
    model.send(.increment)
    model.send(.add(2))
    #expect(model.state.count == 0)  // not delivered yet: the store runs on its own executor
    await model.settle()
    #expect(model.state.count == 3)
  }

  @Test func asyncSendShowsTheResultWhenItReturns() async {
    let model = ObservableStore<Counter>(state: .init(), deps: .init())
    await model.sendAndWait(.add(4))
    #expect(model.state.count == 4)
  }

  @Test func aBurstOfEventsIsDeliveredInFewMainActorTurns() async {
    let model = ObservableStore<Counter>(state: .init(), deps: .init())
    for _ in 0..<1_000 { model.send(.increment) }
    await model.settle()
    #expect(model.state.count == 1_000)
    #expect(model.deliveries <= 2)
  }

  @Test func observationTrackingSeesStateChanges() async {
    let model = ObservableStore<Counter>(state: .init(), deps: .init())
    let changes = Calls<Int>()
    withObservationTracking {
      _ = model.state
    } onChange: {
      changes.record(1)
    }
    await model.sendAndWait(.increment)
    #expect(changes.all == [1])
  }

  @Test func deliversStatesWithoutBeingAskedToFlush() async {
    let model = ObservableStore<Counter>(state: .init(), deps: .init())
    let sawCount = Gate()
    let tracked = Task { @MainActor in
      while model.state.count < 3 {
        await withCheckedContinuation { continuation in
          withObservationTracking {
            _ = model.state
          } onChange: {
            continuation.resume()
          }
        }
      }
      sawCount.open()
    }
    for _ in 0..<3 { model.send(.increment) }
    await sawCount.wait()
    await tracked.value
    #expect(model.state.count == 3)
  }

  @Test func observesAnExistingStoreFromItsCurrentState() async {
    let store = Store<Counter>(state: .init(), deps: .init())
    await store.send(.add(7))
    let model = await ObservableStore(observing: store)
    #expect(model.state.count == 7)
    await store.send(.increment)
    await model.settle()
    #expect(model.state.count == 8)
  }

  @Test func observingAStoreThatAnotherTaskFloodsKeepsTheObserver() async {
    // Regression: the observer was registered before the model could take deliveries, and a state
    // published in between made the store drop it for good (seen in about a third of the rounds).
    for _ in 0..<200 {
      let store = Store<Counter>(state: .init(), deps: .init())
      let flood = Task.detached {
        for _ in 0..<2_000 { await store.send(.increment) }
      }
      let model = await ObservableStore(observing: store)
      await flood.value
      await model.settle()
      #expect(model.state.count == 2_000)
      #expect(await store.observerCount == 1)
      await store.send(.increment)
      await model.settle()
      #expect(model.state.count == 2_001)
    }
  }

  @Test func releasingTheModelReleasesItsStore() async {
    weak var weakStore: Store<Counter>?
    weak var weakModel: ObservableStore<Counter>?
    do {
      let model = ObservableStore<Counter>(state: .init(), deps: .init())
      weakModel = model
      weakStore = model.store
      await model.sendAndWait(.increment)
    }
    #expect(weakModel == nil)
    #expect(weakStore == nil)
  }
}
