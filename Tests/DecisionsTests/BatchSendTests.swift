import DecisionsTesting
import Testing

@testable import Decisions

@Suite(.timeLimit(.minutes(3))) struct BatchSendTests {
  @Test func aBatchIsProcessedInOrderOneStepPerEvent() async {
    let journal = Journal<Counter>(initialState: .init())
    let store = Store<Counter>(state: .init(), deps: .init(), diagnostics: journal.record)
    await store.send(contentsOf: [.increment, .add(10), .log("a"), .increment])
    #expect(await store.state.count == 12)
    #expect(journal.events == [.increment, .add(10), .log("a"), .increment])
    #expect(journal.steps.map(\.state.count) == [1, 11, 11, 12])
    #expect(journal.steps.map(\.decisions) == [[], [], [.log("a")], []])
  }

  @Test func postedEventsComeBeforeTheBatch() async {
    let journal = Journal<Counter>(initialState: .init())
    let store = Store<Counter>(state: .init(), deps: .init(), diagnostics: journal.record)
    store.post(.add(5))
    await store.send(contentsOf: [.increment])
    #expect(journal.events == [.add(5), .increment])
  }

  @Test func everyStateOfABatchReachesAStateSequence() async {
    let store = Store<Counter>(state: .init(), deps: .init())
    let states = await store.states()
    await store.send(contentsOf: Array(repeating: .increment, count: 50))
    await store.stop()
    var counts: [Int] = []
    for await state in states { counts.append(state.count) }
    #expect(counts == Array(0...50))
  }

  @Test func aBatchAfterStopIsIgnoredEventByEvent() async {
    let journal = Journal<Counter>(initialState: .init())
    let store = Store<Counter>(state: .init(), deps: .init(), diagnostics: journal.record)
    await store.stop()
    await store.send(contentsOf: [.increment, .add(2)])
    #expect(journal.ignoredEvents.map(\.event) == [.increment, .add(2)])
    #expect(await store.state.count == 0)
  }

  @Test func anEmptyBatchDoesNothing() async {
    let journal = Journal<Counter>(initialState: .init())
    let store = Store<Counter>(state: .init(), deps: .init(), diagnostics: journal.record)
    await store.send(contentsOf: [])
    #expect(journal.events.isEmpty)
  }

  @MainActor
  @Test func aMainStoreProcessesABatchInOrderOneStepPerEvent() {
    let journal = Journal<Counter>(initialState: .init())
    let store = MainStore<Counter>(state: .init(), deps: .init(), diagnostics: journal.record)
    store.send(contentsOf: [.increment, .add(10), .log("a"), .increment])
    #expect(store.state.count == 12)
    #expect(journal.events == [.increment, .add(10), .log("a"), .increment])
    #expect(journal.steps.map(\.state.count) == [1, 11, 11, 12])
    #expect(journal.steps.map(\.decisions) == [[], [], [.log("a")], []])
  }

  @MainActor
  @Test func aBatchAfterAMainStoreStopsIsIgnoredEventByEvent() {
    let journal = Journal<Counter>(initialState: .init())
    let store = MainStore<Counter>(state: .init(), deps: .init(), diagnostics: journal.record)
    store.stop()
    store.send(contentsOf: [.increment, .add(2)])
    #expect(journal.ignoredEvents.map(\.event) == [.increment, .add(2)])
    #expect(store.state.count == 0)
  }
}
