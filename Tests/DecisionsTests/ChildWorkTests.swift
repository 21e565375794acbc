import Testing

@testable import Decisions
@testable import DecisionsTesting

/// A parent with every kind of child whose work has a lifetime, and no cancel decision at all: the
/// store ends a child's work when the child leaves the state.
private enum Holder: Feature {
  struct State: Equatable, Sendable {
    var sheet: Row.State?
    var rows: IdentifiedArray<Row.State> = []
    var list: [Row.State] = []
    var tagged: [Row.State] = []
    var loose: Row.State?
  }

  enum Event: Equatable, Sendable {
    case sheet(Row.Event)
    case row(id: Int, Row.Event)
    case listed(id: Int, Row.Event)
    case tagged(id: Int, Row.Event)
    case loose(Row.Event)
    case open(Int)
    case close
    case remove(Int)
  }

  enum Decision: Equatable, Sendable {
    case sheet(Row.Decision)
    case row(id: Int, Row.Decision)
    case listed(id: Int, Row.Decision)
    case tagged(id: Int, Row.Decision)
    case loose(Row.Decision)
  }

  typealias Deps = Row.Deps

  enum Scope: Hashable, Sendable {
    case sheet
    case tagged(Int)
    case loose
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .sheet(let event):
      return Row.makeDecisions(event: event, state: &state.sheet, embed: Decision.sheet)
    case .row(let id, let event):
      return Row.makeDecisions(event: event, id: id, in: &state.rows, embed: Decision.row)
    case .listed(let id, let event):
      return Row.makeDecisions(event: event, id: id, in: &state.list, embed: Decision.listed)
    case .tagged(let id, let event):
      return Row.makeDecisions(event: event, id: id, in: &state.tagged, embed: Decision.tagged)
    case .loose(let event):
      return Row.makeDecisions(event: event, state: &state.loose, embed: Decision.loose)
    case .open(let id):
      state.sheet = Row.State(id: 0)
      state.rows.append(Row.State(id: id))
      state.list.append(Row.State(id: id))
      state.tagged.append(Row.State(id: id))
      state.loose = Row.State(id: 0)
      return []
    case .close:
      state.sheet = nil
      state.loose = nil
      return []
    case .remove(let id):
      _ = state.rows.remove(id: id)
      state.list.removeAll { $0.id == id }
      state.tagged.removeAll { $0.id == id }
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .sheet(let decision):
      Row.execute(decision, deps: deps, effects: effects, scope: Scope.sheet, embed: Event.sheet)
    case .row(let id, let decision):
      Row.execute(decision, deps: deps, effects: effects, scope: id) { .row(id: id, $0) }
    case .listed(let id, let decision):
      // NB: scopes of another type than the rows': `Int64` ids.
      Row.execute(decision, deps: deps, effects: effects, scope: Int64(id)) { .listed(id: id, $0) }
    case .tagged(let id, let decision):
      Row.execute(decision, deps: deps, effects: effects, scope: Scope.tagged(id)) {
        .tagged(id: id, $0)
      }
    case .loose(let decision):
      Row.execute(decision, deps: deps, effects: effects, scope: Scope.loose, embed: Event.loose)
    }
  }

  static let childWork: [ChildWork<State>] = [
    .optional(Row.self, state: \.sheet, scope: Scope.sheet),
    .children(Row.self, in: \.rows),
    .children(Row.self, in: \.tagged) { (scope: Scope) in
      if case .tagged(let id) = scope { id } else { nil }
    },
    .outlivesState(scope: Scope.loose),
    // NB: `list` is left out on purpose: its work has no lifetime.
  ]
}

/// A parent of ``Holder`` without a scope of its own: Holder's lifetimes apply inside it.
private enum Outer: Feature {
  struct State: Equatable, Sendable {
    var holder = Holder.State()
  }

  enum Event: Equatable, Sendable {
    case holder(Holder.Event)
  }

  typealias Decision = Holder.Decision
  typealias Deps = Holder.Deps

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .holder(let event): Holder.makeDecisions(event: event, state: &state.holder)
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    Holder.execute(decision, deps: deps, effects: effects, embed: Event.holder)
  }

  static let childWork: [ChildWork<State>] = [.child(Holder.self, state: \.holder)]
}

/// Two lists of rows whose ids are both `Int`, with bare-id scopes.
private enum Twins: Feature {
  struct State: Equatable, Sendable {
    var left: [Row.State] = []
    var right: IdentifiedArray<Row.State> = []
  }

  typealias Event = Never
  typealias Decision = Never
  typealias Deps = Void

  static func makeDecisions(event: Never, state: inout State) -> [Never] {}
  static func execute(_ decision: Never, deps: Void, effects: Effects<Never>) {}

  static let childWork: [ChildWork<State>] = [
    .children(Row.self, in: \.left), .children(Row.self, in: \.right),
  ]
}

/// Rows in an `IdentifiedArray`, whose lifetime check the store can skip when no row came or went,
/// and a child run in a scope that no declaration covers.
private enum Sparse: Feature {
  struct State: Equatable, Sendable {
    var rows: IdentifiedArray<Row.State> = []
    var stray = Row.State(id: 0)
  }

  enum Event: Equatable, Sendable {
    case add(Int)
    case remove(Int)
    case replace(Int)
    case removeAll([Int])
    case row(id: Int, Row.Event)
    case stray(Row.Event)
  }

  enum Decision: Equatable, Sendable {
    case row(id: Int, Row.Decision)
    case stray(Row.Decision)
  }

  typealias Deps = Row.Deps

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .add(let id):
      state.rows.append(Row.State(id: id))
      return []
    case .remove(let id):
      _ = state.rows.remove(id: id)
      return []
    case .replace(let id):
      _ = state.rows.remove(id: id)
      state.rows.append(Row.State(id: id))
      return []
    case .removeAll(let ids):
      state.rows.removeAll { ids.contains($0.id) }
      return []
    case .row(let id, let event):
      return Row.makeDecisions(event: event, id: id, in: &state.rows, embed: Decision.row)
    case .stray(let event):
      return Row.makeDecisions(event: event, state: &state.stray).map(Decision.stray)
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .row(let id, let decision):
      Row.execute(decision, deps: deps, effects: effects, scope: id) { .row(id: id, $0) }
    case .stray(let decision):
      Row.execute(decision, deps: deps, effects: effects, scope: "stray", embed: Event.stray)
    }
  }

  static let childWork: [ChildWork<State>] = [.children(Row.self, in: \.rows)]
}

@Suite(.timeLimit(.minutes(3))) struct ChildWorkTests {
  /// A store of `Holder` whose rows' loads wait for the test, with the calls in order.
  private func holder() -> (Store<Holder>, ControlledDependency<Void, Int>, Journal<Holder>) {
    let loads = ControlledDependency<Void, Int>()
    let journal = Journal<Holder>(initialState: .init())
    let store = Store<Holder>(
      state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }),
      diagnostics: journal.record)
    return (store, loads, journal)
  }

  @Test func closingAnOptionalChildCancelsItsWork() async throws {
    let (store, loads, _) = holder()
    await store.send(.open(1))
    await store.send(.sheet(.load))
    let call = try await loads.nextCall()
    #expect(call.isWaiting)
    await store.send(.close)
    #expect(!call.isWaiting)
  }

  @Test func removingAChildOfAnIdentifiedArrayCancelsItsWorkAndOnlyItsWork() async throws {
    let (store, loads, _) = holder()
    await store.send(.open(1))
    await store.send(.open(2))
    await store.send(.row(id: 1, .load))
    let first = try await loads.nextCall()
    await store.send(.row(id: 2, .load))
    let second = try await loads.nextCall()
    await store.send(.remove(1))
    #expect(!first.isWaiting)
    #expect(second.isWaiting)
    second.answer(5)
    await store.settle()
    #expect(await store.state.rows[id: 2]?.value == 5)
  }

  @Test func removingAChildWhoseScopeIsMadeFromItsIDCancelsItsWork() async throws {
    let (store, loads, _) = holder()
    await store.send(.open(3))
    await store.send(.tagged(id: 3, .load))
    let call = try await loads.nextCall()
    await store.send(.remove(3))
    #expect(!call.isWaiting)
  }

  @Test func workThatOutlivesTheStateRunsOn() async throws {
    let (store, loads, journal) = holder()
    await store.send(.open(1))
    await store.send(.loose(.load))
    let call = try await loads.nextCall()
    await store.send(.close)
    #expect(call.isWaiting)
    call.answer(4)
    await store.settle()
    // The child is gone, so its core drops the result; the work was not cancelled.
    #expect(journal.events.last == .loose(.loaded(4)))
    #expect(journal.workWithoutLifetime.isEmpty)
  }

  @Test func workWithoutALifetimeIsReportedOnceAndRunsOn() async throws {
    let (store, loads, journal) = holder()
    await store.send(.open(1))
    await store.send(.listed(id: 1, .load))
    let call = try await loads.nextCall()
    await store.send(.remove(1))
    await store.send(.remove(1))
    #expect(journal.workWithoutLifetime == [[WorkID(Int64(1))]])
    #expect(call.isWaiting)
    call.answer(0)
    await store.settle()
  }

  @Test func lifetimesOfAChildWithoutAScopeApplyInsideItsParent() async throws {
    let loads = ControlledDependency<Void, Int>()
    let journal = Journal<Outer>(initialState: .init())
    let store = Store<Outer>(
      state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }),
      diagnostics: journal.record)
    await store.send(.holder(.open(7)))
    await store.send(.holder(.row(id: 7, .load)))
    let call = try await loads.nextCall()
    await store.send(.holder(.remove(7)))
    #expect(!call.isWaiting)
    #expect(journal.workWithoutLifetime.isEmpty)
  }

  @MainActor
  @Test func aMainStoreEndsTheWorkOfARemovedChildToo() async throws {
    let loads = ControlledDependency<Void, Int>()
    let store = MainStore<Holder>(
      state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }))
    store.send(.open(1))
    store.send(.row(id: 1, .load))
    let call = try await loads.nextCall()
    store.send(.remove(1))
    #expect(!call.isWaiting)
  }

  @Test func aStoreTestFailsOnWorkWithoutALifetime() async throws {
    let loads = ControlledDependency<Void, Int>()
    let failures = await withCapturedFailures {
      let test = StoreTest<Holder>(
        state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }), exhaustivity: .off)
      await test.send(.open(1))
      await test.send(.listed(id: 1, .load))
      try? await loads.nextCall().answer(1)
      await test.finish()
    }
    #expect(failures.count == 1)
    #expect(failures.first?.message.contains("Holder.childWork covers") == true)
    #expect(failures.first?.message.contains("[1]") == true)
  }

  /// A store of `Sparse` whose rows `ids` each have a load waiting for the test.
  private func sparse(loading ids: some Sequence<Int>) async throws -> (
    Store<Sparse>, [Int: ControlledDependency<Void, Int>.Call]
  ) {
    let loads = ControlledDependency<Void, Int>()
    let store = Store<Sparse>(
      state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }))
    var calls: [Int: ControlledDependency<Void, Int>.Call] = [:]
    for id in ids {
      await store.send(.add(id))
      await store.send(.row(id: id, .load))
      calls[id] = try await loads.nextCall()
    }
    return (store, calls)
  }

  @Test func removingARowThatTheStoreNamesFromTheLogCancelsItsWorkAndOnlyItsWork() async throws {
    let (store, calls) = try await sparse(loading: 1...3)
    await store.send(.remove(2))
    #expect(calls[1]?.isWaiting == true)
    #expect(calls[2]?.isWaiting == false)
    #expect(calls[3]?.isWaiting == true)
    await store.stop()
  }

  @Test func aRowRemovedAndAddedBackInOneEventLosesItsWorkWhenTheStoreLooksOnlyAtIt()
    async throws
  {
    let (store, calls) = try await sparse(loading: 1...3)
    await store.send(.replace(3))
    #expect(calls[1]?.isWaiting == true)
    #expect(calls[2]?.isWaiting == true)
    #expect(calls[3]?.isWaiting == false)
    await store.stop()
  }

  @Test func moreRowsRemovedInOneEventThanTheLogKeepsAreFoundByLookingAtEveryRow() async throws {
    let (store, calls) = try await sparse(loading: 1...30)
    await store.send(.removeAll(Array(1...20)))
    #expect((1...20).allSatisfy { calls[$0]?.isWaiting == false })
    #expect((21...30).allSatisfy { calls[$0]?.isWaiting == true })
    await store.stop()
  }

  @Test func workWithoutALifetimeIsReportedByTheEventThatStartedItWhenNoChildCameOrWent()
    async throws
  {
    let loads = ControlledDependency<Void, Int>()
    let journal = Journal<Sparse>(initialState: .init())
    let store = Store<Sparse>(
      state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }),
      diagnostics: journal.record)
    await store.send(.add(1))
    await store.send(.row(id: 1, .load))
    let row = try await loads.nextCall()
    #expect(journal.workWithoutLifetime.isEmpty)
    await store.send(.stray(.load))
    let stray = try await loads.nextCall()
    #expect(journal.workWithoutLifetime == [[WorkID("stray")]])
    row.answer(1)
    stray.answer(2)
    await store.settle()
  }

  @Test func theFingerprintReadInPlaceIsTheFingerprintOfTheStateWhateverTheKeyPath() {
    struct Inner: Equatable {
      var rows: IdentifiedArray<Row.State> = []
    }
    struct State: Equatable {
      var padding = "a field before"
      var inner = Inner()
      var path = ScreenStack<Row.State>()
      var computed: IdentifiedArray<Row.State> { inner.rows }
    }
    let declarations: [ChildWork<State>] = [
      .children(Row.self, in: \.inner.rows),  // a stored property's path: read in place
      .children(Row.self, in: \.computed),  // a computed one: read through the key path
      .stack(Row.self, in: \.path) { (id: ScreenStack<Row.State>.ID) in id },
    ]
    var state = State()
    func expectAgreement(_ step: String) {
      for (index, declaration) in declarations.enumerated() {
        let inPlace = withUnsafeMutablePointer(to: &state) {
          declaration.fingerprintOfStateAt(UnsafeRawPointer($0))
        }
        #expect(inPlace != nil, "declaration \(index), \(step)")
        #expect(inPlace == declaration.fingerprint(state), "declaration \(index), \(step)")
      }
    }
    expectAgreement("empty")
    state.inner.rows.append(Row.State(id: 1))
    state.path.push(Row.State(id: 2))
    expectAgreement("after adding")
    state.inner.rows.remove(id: 1)
    expectAgreement("after removing")
  }

  @Test func twoCollectionsWithIDsOfOneTypeKeepTheWorkOfAChildEitherHolds() {
    var state = Twins.State()
    state.left.append(Row.State(id: 1))
    state.right.append(Row.State(id: 2))
    #expect(Twins.lifetime(ofWorkIn: [WorkID(1)][...], state: state).isAlive == true)
    #expect(Twins.lifetime(ofWorkIn: [WorkID(2)][...], state: state).isAlive == true)
    #expect(Twins.lifetime(ofWorkIn: [WorkID(3)][...], state: state) == .gone)
  }

  @Test func theLifetimeOfAScopeFollowsTheDeclarations() {
    var state = Holder.State()
    func lifetime(_ scope: [WorkID]) -> WorkLifetime {
      Holder.lifetime(ofWorkIn: scope[...], state: state)
    }
    #expect(lifetime([]).isAlive == true)
    #expect(lifetime([WorkID(Holder.Scope.sheet)]) == .gone)
    #expect(lifetime([WorkID(1)]) == .gone)
    #expect(lifetime([WorkID(Holder.Scope.loose)]).isAlive == true)
    #expect(lifetime([WorkID("elsewhere")]) == .undeclared)
    state.sheet = Row.State(id: 0)
    state.rows.append(Row.State(id: 1))
    #expect(lifetime([WorkID(Holder.Scope.sheet)]).isAlive == true)
    #expect(lifetime([WorkID(1), WorkID("load")]) == .undeclared)
    #expect(lifetime([WorkID(1)]).isAlive == true)
  }
}
