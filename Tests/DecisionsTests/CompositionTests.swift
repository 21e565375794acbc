import Decisions
import DecisionsTesting
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct CompositionCoreTests {
  @Test func aPlainChildUpdatesItsStateAndWrapsItsDecisions() {
    var state = Parent.State()
    let decisions = Parent.makeDecisions(event: .counter(.log("hi")), state: &state)
    #expect(decisions == [.counter(.log("hi"))])
    _ = Parent.makeDecisions(event: .counter(.add(3)), state: &state)
    #expect(state.counter.count == 3)
  }

  @Test func anOptionalChildThatIsAbsentDropsTheEvent() {
    var state = Parent.State()
    let decisions = Parent.makeDecisions(event: .sheet(.log("ignored")), state: &state)
    #expect(decisions.isEmpty)
    #expect(state == Parent.State())
  }

  @Test func anOptionalChildThatIsPresentRuns() {
    var state = Parent.State(sheet: Counter.State())
    let decisions = Parent.makeDecisions(event: .sheet(.echo("x")), state: &state)
    #expect(decisions == [.sheet(.echo("x"))])
    #expect(state.sheet?.messages == ["x"])
  }

  @Test func aChildInACollectionIsFoundByID() {
    var state = Parent.State(rows: [.init(id: 1), .init(id: 2), .init(id: 3)])
    let decisions = Parent.makeDecisions(event: .row(id: 2, .loaded(7)), state: &state)
    #expect(decisions.isEmpty)
    #expect(state.rows == [.init(id: 1), .init(id: 2, value: 7), .init(id: 3)])
    #expect(
      Parent.makeDecisions(event: .row(id: 3, .load), state: &state) == [.row(id: 3, .load)])
  }

  @Test func anEventForAMissingChildInACollectionIsDropped() {
    var state = Parent.State(rows: [.init(id: 1)])
    let decisions = Parent.makeDecisions(event: .row(id: 9, .load), state: &state)
    #expect(decisions.isEmpty)
    #expect(state.rows == [.init(id: 1)])
  }
}

@Suite(.timeLimit(.minutes(3))) struct CompositionExecutorTests {
  @Test func childEventsFromWorkAndFromSendAreWrapped() async {
    let logged = Calls<String>()
    let store = Store<Parent>(state: .init(), deps: .init(log: { logged.record($0) }))
    await store.send(.counter(.echo("x")))
    await store.send(.counter(.startWork(id: "w", value: 5)))
    await store.settle()
    #expect(logged.all == ["x", "echo x"])
    #expect(await store.state.counter.count == 5)
  }

  @Test func childrenInTheirOwnScopesDoNotReplaceEachOthersWork() async {
    let gate = Gate()
    let store = Store<Parent>(
      state: .init(rows: [.init(id: 1), .init(id: 2)]),
      deps: .init(loadRow: { id in
        await gate.wait()
        return id * 10
      }))
    // Both rows key their work "load"; in separate scopes neither replaces the other.
    await store.send(.row(id: 1, .load))
    await store.send(.row(id: 2, .load))
    gate.open()
    await store.settle()
    #expect(await store.state.rows == [.init(id: 1, value: 10), .init(id: 2, value: 20)])
  }

  @Test func removingAChildCancelsOnlyItsWork() async {
    let gate = Gate()
    let journal = Journal<Parent>(initialState: .init())
    let store = Store<Parent>(
      state: .init(rows: [.init(id: 1), .init(id: 2)]),
      deps: .init(loadRow: { id in
        await gate.wait()
        return id * 10
      }),
      diagnostics: journal.record
    )
    await store.send(.row(id: 1, .load))
    await store.send(.row(id: 2, .load))
    await store.send(.removeRow(1))
    await store.send(.addRow(1))  // a new row with the same id gets nothing from the old work
    gate.open()
    await store.settle()
    #expect(await store.state.rows == [.init(id: 2, value: 20), .init(id: 1)])
    #expect(journal.records.contains(.ignored(.row(id: 1, .loaded(10)), reason: .cancelledWork)))
  }

  @Test func closingAnOptionalChildCancelsItsWork() async {
    let gate = Gate()
    let store = Store<Parent>(
      state: .init(),
      deps: .init(work: { _, value in
        await gate.wait()
        return value
      }))
    await store.send(.openSheet)
    await store.send(.sheet(.startWork(id: "w", value: 3)))
    await store.send(.counter(.startWork(id: "w", value: 4)))  // same key, other scope: unaffected
    await store.send(.closeSheet)
    await store.send(.openSheet)
    gate.open()
    await store.settle()
    #expect(await store.state.sheet == Counter.State())
    #expect(await store.state.counter.count == 4)
  }
}
