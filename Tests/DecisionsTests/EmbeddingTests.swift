import Testing

@testable import Decisions
@testable import DecisionsTesting

/// A parent that embeds `Row` four ways, each with one declaration: a list, a stack of one kind of
/// screen, a stack of two kinds, and a sheet that is either a row or nothing else.
private enum Board: Feature {
  enum Screen: Equatable, Sendable {
    case row(Row.State)
    case pinned(label: Row.State)
    case note(String)
  }

  enum Sheet: Equatable, Sendable {
    case row(Row.State)
    case other(Row.State)
  }

  struct State: Equatable, Sendable {
    var rows: IdentifiedArray<Row.State> = []
    var path = ScreenStack<Row.State>()
    var screens = ScreenStack<Screen>()
    @Presented var sheet: Sheet?
    @Presented var plain: Row.State?
    var unlisted: IdentifiedArray<Row.State> = []
    var content = Sheet.other(Row.State(id: 0))
  }

  enum Event: Equatable, Sendable {
    case row(id: Int, Row.Event)
    case screen(id: ScreenStack<Row.State>.ID, Row.Event)
    case kindRow(id: ScreenStack<Screen>.ID, Row.Event)
    case kindPinned(id: ScreenStack<Screen>.ID, Row.Event)
    case sheetRow(Row.Event)
    case plain(Row.Event)
    case unlisted(id: Int, Row.Event)
    case contentRow(Row.Event)
    case change(@Sendable (inout State) -> Void)
    case cancelRow(Int)

    static func == (lhs: Event, rhs: Event) -> Bool {
      switch (lhs, rhs) {
      case (.row(let a, let x), .row(let b, let y)): a == b && x == y
      case (.screen(let a, let x), .screen(let b, let y)): a == b && x == y
      case (.kindRow(let a, let x), .kindRow(let b, let y)): a == b && x == y
      case (.kindPinned(let a, let x), .kindPinned(let b, let y)): a == b && x == y
      case (.sheetRow(let x), .sheetRow(let y)): x == y
      case (.plain(let x), .plain(let y)): x == y
      case (.unlisted(let a, let x), .unlisted(let b, let y)): a == b && x == y
      case (.contentRow(let x), .contentRow(let y)): x == y
      case (.cancelRow(let a), .cancelRow(let b)): a == b
      case (.change, .change): true  // a test's change of state: equal to any other
      default: false
      }
    }
  }

  enum Decision: Equatable, Sendable {
    case row(id: Int, Row.Decision)
    case screen(id: ScreenStack<Row.State>.ID, Row.Decision)
    case kindRow(id: ScreenStack<Screen>.ID, Row.Decision)
    case kindPinned(id: ScreenStack<Screen>.ID, Row.Decision)
    case sheetRow(Row.Decision)
    case plain(Row.Decision)
    case unlisted(id: Int, Row.Decision)
    case contentRow(Row.Decision)
    case cancelRow(Int)
  }

  typealias Deps = Row.Deps

  static let rows = embed(Row.self, list: \.rows, event: Event.row, decision: Decision.row)
  static let screens = embed(
    Row.self, stack: \.path, event: Event.screen, decision: Decision.screen)
  static let kindRows = embed(
    Row.self, stack: \.screens, case: Screen.row, event: Event.kindRow, decision: Decision.kindRow)
  static let kindPinned = embed(
    Row.self, stack: \.screens, case: Screen.pinned, event: Event.kindPinned,
    decision: Decision.kindPinned)
  static let sheetRow = embed(
    Row.self, presented: \.$sheet, case: Sheet.row, event: Event.sheetRow,
    decision: Decision.sheetRow)
  static let plain = embed(
    Row.self, presented: \.$plain, event: Event.plain, decision: Decision.plain)
  /// Declared, but left out of `childWork` on purpose.
  static let unlisted = embed(
    Row.self, list: \.unlisted, event: Event.unlisted, decision: Decision.unlisted)

  static let contentRow = embed(
    Row.self, state: \.content, case: Sheet.row, event: Event.contentRow,
    decision: Decision.contentRow)

  static let childWork = [
    rows.work, screens.work, kindRows.work, kindPinned.work, sheetRow.work, plain.work,
    contentRow.work,
  ]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .row(let id, let event): return rows.makeDecisions(event: event, id: id, in: &state)
    case .screen(let id, let event):
      return screens.makeDecisions(event: event, id: id, in: &state)
    case .kindRow(let id, let event):
      return kindRows.makeDecisions(event: event, id: id, in: &state)
    case .kindPinned(let id, let event):
      return kindPinned.makeDecisions(event: event, id: id, in: &state)
    case .sheetRow(let event): return sheetRow.makeDecisions(event: event, in: &state)
    case .plain(let event): return plain.makeDecisions(event: event, in: &state)
    case .unlisted(let id, let event):
      return unlisted.makeDecisions(event: event, id: id, in: &state)
    case .contentRow(let event): return contentRow.makeDecisions(event: event, in: &state)
    case .change(let change):
      change(&state)
      return []
    case .cancelRow(let id):
      return [.cancelRow(id)]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .row(let id, let decision): rows.execute(decision, id: id, deps: deps, effects: effects)
    case .screen(let id, let decision):
      screens.execute(decision, id: id, deps: deps, effects: effects)
    case .kindRow(let id, let decision):
      kindRows.execute(decision, id: id, deps: deps, effects: effects)
    case .kindPinned(let id, let decision):
      kindPinned.execute(decision, id: id, deps: deps, effects: effects)
    case .sheetRow(let decision): sheetRow.execute(decision, deps: deps, effects: effects)
    case .plain(let decision): plain.execute(decision, deps: deps, effects: effects)
    case .unlisted(let id, let decision):
      unlisted.execute(decision, id: id, deps: deps, effects: effects)
    case .contentRow(let decision): contentRow.execute(decision, deps: deps, effects: effects)
    case .cancelRow(let id):
      rows.cancelAll(id: id, effects: effects)
    }
  }
}

/// A child with a core and no work: its decisions are `Never`.
private enum Tag: Feature {
  struct State: Equatable, Sendable, Identifiable {
    var id: Int
    var text = ""
  }

  enum Event: Equatable, Sendable {
    case renamed(String)
  }

  typealias Decision = Never

  // NB: no `Deps` and no `execute`: the defaults for a feature without work.
  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .renamed(let text):
      state.text = text
      return []
    }
  }
}

/// A parent of children without work: no decision case, no executor arm, no `childWork`.
private enum Tags: Feature {
  struct State: Equatable, Sendable {
    var tags: IdentifiedArray<Tag.State> = []
    @Presented var editing: Tag.State?
  }

  enum Event: Equatable, Sendable {
    case tag(id: Int, Tag.Event)
    case editing(Tag.Event)
  }

  typealias Decision = Never
  typealias Deps = Void

  static let tags = embed(Tag.self, list: \.tags, event: Event.tag)
  static let editing = embed(Tag.self, presented: \.$editing, event: Event.editing)

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .tag(let id, let event): tags.makeDecisions(event: event, id: id, in: &state)
    case .editing(let event): editing.makeDecisions(event: event, in: &state)
    }
  }

  static func execute(_ decision: Never, deps: Void, effects: Effects<Event>) {}
}

@Suite struct EmbeddingCoreTests {
  @Test func aFeatureWithoutWorkNeedsNoDepsAndNoExecutor() async {
    #expect(Tag.Deps.self == Void.self)
    let store = Store<Tag>(state: Tag.State(id: 1), deps: ())
    await store.send(.renamed("x"))
    #expect(await store.state.text == "x")
  }

  @Test func aChildWithoutWorkNeedsNoDecisionCase() {
    var test = CoreTest<Tags>(state: .init(tags: [Tag.State(id: 1)]))
    test.send(.tag(id: 1, .renamed("a"))) { $0.tags[id: 1]?.text = "a" }
    test.send(.editing(.renamed("b")))  // nothing is being edited
    var state = Tags.State()
    state.editing = Tag.State(id: 2)
    #expect(Tags.makeDecisions(event: .editing(.renamed("b")), state: &state) == [])
    #expect(state.editing == Tag.State(id: 2, text: "b"))
  }

  fileprivate typealias ScreenID = ScreenStack<Board.Screen>.ID

  @Test func aListForwardsByIDAndDropsEventsForAbsentRows() {
    var state = Board.State()
    state.rows = [Row.State(id: 1), Row.State(id: 2)]
    #expect(Board.makeDecisions(event: .row(id: 2, .load), state: &state) == [.row(id: 2, .load)])
    #expect(Board.makeDecisions(event: .row(id: 2, .loaded(5)), state: &state) == [])
    #expect(state.rows[id: 2]?.value == 5)
    #expect(Board.makeDecisions(event: .row(id: 9, .load), state: &state) == [])
    #expect(state.rows.ids == [1, 2])
  }

  @Test func aStackOfKindsRunsOnlyTheScreensOfTheDeclaredCase() {
    var state = Board.State()
    let row = state.screens.push(.row(Row.State(id: 1)))
    let pinned = state.screens.push(.pinned(label: Row.State(id: 2)))
    let note = state.screens.push(.note("n"))
    #expect(
      Board.makeDecisions(event: .kindRow(id: row, .load), state: &state) == [
        .kindRow(id: row, .load)
      ])
    // A payload with a label is found too; a screen of another case, or none, drops the event.
    #expect(
      Board.makeDecisions(event: .kindPinned(id: pinned, .loaded(3)), state: &state) == [])
    #expect(state.screens[id: pinned] == .pinned(label: Row.State(id: 2, value: 3)))
    #expect(Board.makeDecisions(event: .kindRow(id: pinned, .loaded(4)), state: &state) == [])
    #expect(Board.makeDecisions(event: .kindPinned(id: row, .loaded(4)), state: &state) == [])
    #expect(Board.makeDecisions(event: .kindRow(id: note, .load), state: &state) == [])
    #expect(Board.makeDecisions(event: .kindRow(id: ScreenID(9), .load), state: &state) == [])
    #expect(state.screens[id: row] == .row(Row.State(id: 1)))
    #expect(state.screens[id: pinned] == .pinned(label: Row.State(id: 2, value: 3)))
    #expect(Board.kindPinned.state(id: pinned, in: state) == Row.State(id: 2, value: 3))
    #expect(Board.kindRow(state: state, id: pinned) == nil)
  }

  @Test func twoCasesWithPayloadsOfTheSameTypeAreToldApart() {
    var state = Board.State()
    state.sheet = .other(Row.State(id: 1))
    #expect(Board.makeDecisions(event: .sheetRow(.loaded(2)), state: &state) == [])
    #expect(state.sheet == .other(Row.State(id: 1)))
    state.sheet = .row(Row.State(id: 1))
    #expect(Board.makeDecisions(event: .sheetRow(.loaded(2)), state: &state) == [])
    #expect(state.sheet == .row(Row.State(id: 1, value: 2)))
    // Told apart again after the case's label is known.
    state.sheet = .other(Row.State(id: 1))
    #expect(Board.makeDecisions(event: .sheetRow(.loaded(7)), state: &state) == [])
    #expect(state.sheet == .other(Row.State(id: 1)))
  }

  @Test func forwardingChangesAPresentedChildInPlaceSoItStaysTheSameChild() {
    var state = Board.State()
    state.sheet = .row(Row.State(id: 1))
    let before = state.$sheet
    _ = Board.makeDecisions(event: .sheetRow(.loaded(2)), state: &state)
    #expect(state.$sheet.isSameChild(as: before))
    state.plain = Row.State(id: 5)
    let plain = state.$plain
    #expect(Board.makeDecisions(event: .plain(.load), state: &state) == [.plain(.load)])
    _ = Board.makeDecisions(event: .plain(.loaded(1)), state: &state)
    #expect(state.$plain.isSameChild(as: plain))
    #expect(state.plain == Row.State(id: 5, value: 1))
    state.plain = nil
    #expect(Board.makeDecisions(event: .plain(.load), state: &state) == [])
  }

  @Test func aChildThatChangesItsOwnIDInAListStopsTheProgram() async {
    await #expect(processExitsWith: .failure) {
      var state = Board.State()
      state.rows = [Row.State(id: 1)]
      _ = Board.rows.modify(1, &state) { row in
        row.id = 2
        return []
      }
    }
  }

  @Test func eachDeclarationHasAScopeOfItsOwnThatReadsWell() {
    #expect(Board.rows.scope != Board.unlisted.scope)
    #expect(Board.kindRows.scope == Board.kindPinned.scope)  // one stack, one child feature
    #expect(Board.screens.scope != Board.kindRows.scope)
    #expect(Board.rows.scope.description == #"Row in \State.rows"#)
  }
}

extension Board {
  /// The screen `id` as a row screen, read through its declaration.
  fileprivate static func kindRow(state: State, id: ScreenStack<Screen>.ID) -> Row.State? {
    kindRows.state(id: id, in: state)
  }
}

@Suite(.timeLimit(.minutes(3))) struct EmbeddingWorkTests {
  /// A store of `Board` whose loads wait for the test.
  private func board(on kind: StoreKind) async -> (
    StoreTest<Board>, ControlledDependency<Void, Int>
  ) {
    let loads = ControlledDependency<Void, Int>()
    let test = await StoreTest<Board>(
      state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }), on: kind)
    return (test, loads)
  }

  @Test(arguments: StoreKind.allCases)
  func aRowRemovedAndAddedBackInOneEventNeverGetsTheOldRowsAnswer(on kind: StoreKind) async throws {
    let (test, loads) = await board(on: kind)
    await test.send(.change { $0.rows = [Row.State(id: 1), Row.State(id: 2)] }) {
      $0.rows = [Row.State(id: 1), Row.State(id: 2)]
    }
    await test.send(.row(id: 1, .load), decisions: [.row(id: 1, .load)])
    let old = try await loads.nextCall()
    await test.send(.row(id: 2, .load), decisions: [.row(id: 2, .load)])
    let other = try await loads.nextCall()
    await test.send(
      .change {
        _ = $0.rows.remove(id: 1)
        $0.rows.append(Row.State(id: 1))
      }
    ) {
      $0.rows = [Row.State(id: 2), Row.State(id: 1)]
    }
    #expect(!old.isWaiting)
    await test.expectIgnored(.row(id: 1, .loaded(-1)))
    #expect(other.isWaiting)
    other.answer(5)
    await test.receive(.row(id: 2, .loaded(5))) { $0.rows[id: 2]?.value = 5 }
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func aPoppedScreensWorkEndsAndAScreenOfAnotherCaseKeepsItsOwn(on kind: StoreKind) async throws {
    let (test, loads) = await board(on: kind)
    typealias ID = ScreenStack<Board.Screen>.ID
    await test.send(
      .change {
        $0.screens.push(.row(Row.State(id: 1)))
        $0.screens.push(.pinned(label: Row.State(id: 2)))
      }
    ) {
      $0.screens = [.row(Row.State(id: 1)), .pinned(label: Row.State(id: 2))]
    }
    await test.send(.kindRow(id: ID(0), .load), decisions: [.kindRow(id: ID(0), .load)])
    let first = try await loads.nextCall()
    await test.send(.kindPinned(id: ID(1), .load), decisions: [.kindPinned(id: ID(1), .load)])
    let second = try await loads.nextCall()
    await test.send(.change { $0.screens.pop() }) { $0.screens.pop() }
    #expect(!second.isWaiting)
    await test.expectIgnored(.kindPinned(id: ID(1), .loaded(-1)))
    #expect(first.isWaiting)
    first.answer(8)
    await test.receive(.kindRow(id: ID(0), .loaded(8))) {
      $0.screens[id: ID(0)] = .row(Row.State(id: 1, value: 8))
    }
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func aSheetReplacedByAnotherCaseEndsTheFirstOnesWork(on kind: StoreKind) async throws {
    let (test, loads) = await board(on: kind)
    await test.send(.change { $0.sheet = .row(Row.State(id: 1)) }) {
      $0.sheet = .row(Row.State(id: 1))
    }
    await test.send(.sheetRow(.load), decisions: [.sheetRow(.load)])
    let call = try await loads.nextCall()
    await test.send(.change { $0.sheet = .other(Row.State(id: 1)) }) {
      $0.sheet = .other(Row.State(id: 1))
    }
    #expect(!call.isWaiting)
    await test.expectIgnored(.sheetRow(.loaded(-1)))
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func aCaseOfAnAlwaysPresentEnumEndsItsWorkWhenThePlaceHoldsAnother(on kind: StoreKind)
    async throws
  {
    let (test, loads) = await board(on: kind)
    await test.send(.contentRow(.load))  // another case: dropped
    await test.send(.change { $0.content = .row(Row.State(id: 1)) }) {
      $0.content = .row(Row.State(id: 1))
    }
    await test.send(.contentRow(.load), decisions: [.contentRow(.load)])
    let call = try await loads.nextCall()
    await test.send(.change { $0.content = .other(Row.State(id: 1)) }) {
      $0.content = .other(Row.State(id: 1))
    }
    #expect(!call.isWaiting)
    await test.expectIgnored(.contentRow(.loaded(-1)))
    await test.finish()
  }

  @Test func cancelAllEndsOneChildsWorkOnly() async throws {
    let loads = ControlledDependency<Void, Int>()
    let store = Store<Board>(state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }))
    await store.send(.change { $0.rows = [Row.State(id: 1), Row.State(id: 2)] })
    await store.send(.row(id: 1, .load))
    let first = try await loads.nextCall()
    await store.send(.row(id: 2, .load))
    let second = try await loads.nextCall()
    await store.send(.cancelRow(1))
    #expect(!first.isWaiting)
    #expect(second.isWaiting)
    second.answer(1)
    await store.settle()
  }

  @Test func aDeclarationLeftOutOfChildWorkIsReported() async throws {
    let loads = ControlledDependency<Void, Int>()
    let journal = Journal<Board>(initialState: .init())
    let store = Store<Board>(
      state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }),
      diagnostics: journal.record)
    await store.send(.change { $0.unlisted = [Row.State(id: 1)] })
    await store.send(.unlisted(id: 1, .load))
    let call = try await loads.nextCall()
    await store.send(.change { $0.unlisted = [] })
    #expect(journal.workWithoutLifetime == [[Board.unlisted.scope, WorkID(1)]])
    call.answer(0)
    await store.settle()
  }
}

@Suite struct EmbeddingFingerprintTests {
  @Test func theFingerprintReadInPlaceIsTheFingerprintOfTheState() {
    var state = Board.State()
    func expectAgreement(_ step: String) {
      for (index, declaration) in Board.childWork.enumerated() {
        let inPlace = withUnsafeMutablePointer(to: &state) {
          declaration.fingerprintOfStateAt(UnsafeRawPointer($0))
        }
        #expect(inPlace == declaration.fingerprint(state), "declaration \(index), \(step)")
      }
    }
    expectAgreement("empty")
    let before = Board.childWork.map { $0.fingerprint(state) }
    state.rows.append(Row.State(id: 1))
    state.path.push(Row.State(id: 2))
    state.screens.push(.row(Row.State(id: 3)))
    state.sheet = .row(Row.State(id: 4))
    state.plain = Row.State(id: 5)
    state.content = .row(Row.State(id: 6))
    expectAgreement("after adding one of each")
    // Each declaration's fingerprint changed, so the check cannot be skipped.
    #expect(zip(before, Board.childWork.map { $0.fingerprint(state) }).allSatisfy { $0 != $1 })
    state.rows[id: 1]?.value = 7
    state.rows.remove(id: 1)
    state.path.pop()
    expectAgreement("after removing")
  }
}

@MainActor
@Suite struct EmbeddingModelTests {
  @Test func aRowsModelComesFromTheDeclarationAndFollowsItsRow() throws {
    let store = MainStore<Board>(state: .init(), deps: .init(load: { 0 }))
    store.send(.change { $0.rows = [Row.State(id: 1), Row.State(id: 2)] })
    let model = try #require(store.child(Board.rows, id: 1))
    #expect(model === store.child(Board.rows, id: 1))
    model.send(.loaded(3))
    #expect(store.state.rows[id: 1]?.value == 3)
    #expect(model.state.value == 3)
    store.send(.change { _ = $0.rows.remove(id: 1) })
    #expect(model.isGone)
    #expect(store.child(Board.rows, id: 1) == nil)
    store.stop()
  }

  @Test func aCaseModelIsNilWhileAnotherCaseShowsAndGoneWhenReplaced() throws {
    let store = MainStore<Board>(state: .init(), deps: .init(load: { 0 }))
    store.send(.change { $0.sheet = .other(Row.State(id: 1)) })
    #expect(store.child(Board.sheetRow) == nil)
    store.send(.change { $0.sheet = .row(Row.State(id: 1)) })
    let model = try #require(store.child(Board.sheetRow))
    model.send(.loaded(4))
    #expect(store.state.sheet == .row(Row.State(id: 1, value: 4)))
    store.send(.change { $0.sheet = .row(Row.State(id: 1)) })  // a new sheet, the same case
    #expect(model.isGone)
    model.send(.loaded(9))  // dropped
    #expect(store.state.sheet == .row(Row.State(id: 1)))
    let new = try #require(store.child(Board.sheetRow))
    #expect(new !== model)
    store.stop()
  }

  @Test func aScreensModelFollowsItsScreen() throws {
    typealias ID = ScreenStack<Row.State>.ID
    let store = MainStore<Board>(state: .init(), deps: .init(load: { 0 }))
    store.send(.change { $0.path.push(Row.State(id: 1)) })
    let model = try #require(store.child(Board.screens, id: ID(0)))
    store.send(.change { $0.path = [Row.State(id: 1)] })  // a deep link: a new #0
    #expect(model.isGone)
    #expect(store.child(Board.screens, id: ID(0)) !== model)
    store.stop()
  }
}

/// The list's promise under a race.
///
/// The old row's answer comes from another task while one event removes the row and adds a new
/// one with its id. Whichever comes first, the old answer never reaches the new row.
@Suite(.timeLimit(.minutes(3))) struct EmbeddingRaceTests {
  @Test(arguments: StoreKind.allCases)
  func anOldRowsAnswerNeverReachesTheNewRowWithItsID(on kind: StoreKind) async throws {
    for round in 0..<200 {
      let loads = ControlledDependency<Void, Int>()
      let test = await StoreTest<Board>(
        state: .init(), deps: .init(load: { (try? await loads()) ?? -1 }),
        exhaustivity: .off, endChecks: [], on: kind)
      await test.send(.change { $0.rows = [Row.State(id: 1)] })
      await test.send(.row(id: 1, .load))
      let old = try await loads.nextCall()
      async let answered: Void = old.answer(7)
      await test.send(
        .change {
          _ = $0.rows.remove(id: 1)
          $0.rows.append(Row.State(id: 1))
        })
      await answered
      await test.settle()
      #expect(await test.state.rows[id: 1]?.value == 0, "round \(round)")
      await test.finish()
    }
  }
}
