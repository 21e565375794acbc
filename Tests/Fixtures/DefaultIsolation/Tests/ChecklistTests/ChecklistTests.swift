// The checklist's tests, in a test target that is main-actor isolated by default too.
import Checklist
import Decisions
import DecisionsTesting
import Testing

@Suite struct ChecklistTests {
  @Test func aTickedRowIsSavedInItsOwnScope() {
    var test = CoreTest<Checklist>(state: .init())
    test.send(.add("Buy milk")) {
      $0.rows.append(Row.State(item: Item(id: 1, title: "Buy milk")))
      $0.nextID = 2
    }
    let ticked = Item(id: 1, title: "Buy milk", isDone: true)
    test.send(.row(id: 1, .toggle), decisions: [.row(id: 1, .save(ticked))]) {
      $0.rows[id: 1]?.item.isDone = true
      $0.rows[id: 1]?.isSaving = true
    }
    test.send(.row(id: 1, .saved(ticked))) {
      $0.rows[id: 1]?.isSaving = false
    }
    test.send(.row(id: 7, .toggle))  // no such row: dropped
  }

  @Test func anArchivedItemCanBeRestored() {
    var test = CoreTest<Checklist>(state: .init())
    let item = Item(id: 1, title: "Buy milk")
    test.send(.add("Buy milk")) {
      $0.rows.append(Row.State(item: item))
      $0.nextID = 2
    }
    test.send(.archive(id: 1), decisions: [.announceArchived(item)]) {
      $0.rows = []
      $0.archived = [item]
    }
    test.send(.restore(item)) {
      $0.rows.append(Row.State(item: item))
      $0.archived = []
    }
  }

  @Test func anOpenEditorAlwaysShowsARowOfTheList() {
    // The states of two rows with the editor opened, renamed and closed: the editor is only ever
    // open on a row that is in the list, and it can always be closed.
    var start = Checklist.State()
    start.rows = [
      Row.State(item: Item(id: 1, title: "a")), Row.State(item: Item(id: 2, title: "b")),
    ]
    start.nextID = 3
    let events: [Checklist.Event] = [
      .openEditor(id: 1), .openEditor(id: 2), .editor(.rename("c")), .closeEditor,
    ]
    // NB: `key` is `@Sendable`, so it cannot read a main-actor state's properties; the state's
    // description tells its states apart.
    let graph = explore(
      Checklist.self, from: start, key: { String(describing: $0) }, events: { _ in events })
    graph.expectComplete()
    #expect(graph.states.count == 5)
    graph.expectInvariant("the editor shows a row of the list") { state in
      guard let editor = state.editor else { return true }
      return state.rows[id: editor.id] != nil
    }
    graph.expectAlwaysCanReach("the editor closed") { $0.editor == nil }
  }

  // A main-actor feature runs on a MainStore, and so does its StoreTest: `StoreTest(state:deps:)`
  // makes one for it, with no annotation.
  @Test func anEditIsSavedAndCopiedToItsRow() async throws {
    let save = ControlledDependency<Item, Void>()
    var initial = Checklist.State()
    initial.rows.append(Row.State(item: Item(id: 1, title: "Buy milk")))
    initial.nextID = 2
    let test = StoreTest<Checklist>(
      state: initial,
      deps: .init(row: .init(save: { try await save($0) }), announce: unimplemented("announce")))
    #expect(test.kind == .mainStore)

    await test.send(.openEditor(id: 1)) {
      $0.editor = Row.State(item: Item(id: 1, title: "Buy milk"))
    }
    let renamed = Item(id: 1, title: "Buy oat milk")
    await test.send(.editor(.rename("Buy oat milk")), decisions: [.editor(.save(renamed))]) {
      $0.editor?.item = renamed
      $0.editor?.isSaving = true
    }
    let call = try await save.nextCall()
    #expect(call.arguments == renamed)
    call.answer(())
    await test.receive(.editor(.saved(renamed))) {
      $0.editor?.isSaving = false
      $0.rows[id: 1]?.item = renamed
    }
    await test.send(.closeEditor) {
      $0.editor = nil
    }
    await test.finish()
  }

  // Closing the editor while its save waits cancels the save: the editor's work ends with it.
  @Test func closingTheEditorCancelsItsSave() async throws {
    let save = ControlledDependency<Item, Void>()
    var initial = Checklist.State()
    initial.rows.append(Row.State(item: Item(id: 1, title: "Buy milk")))
    initial.nextID = 2
    let test = StoreTest<Checklist>(
      state: initial,
      deps: .init(row: .init(save: { try await save($0) }), announce: unimplemented("announce")))
    await test.send(.openEditor(id: 1)) {
      $0.editor = Row.State(item: Item(id: 1, title: "Buy milk"))
    }
    let ticked = Item(id: 1, title: "Buy milk", isDone: true)
    await test.send(.editor(.toggle), decisions: [.editor(.save(ticked))]) {
      $0.editor?.item = ticked
      $0.editor?.isSaving = true
    }
    let call = try await save.nextCall()
    await test.send(.closeEditor) {
      $0.editor = nil
    }
    await test.finish()
    #expect(!call.isWaiting)  // cancelled with the editor: the test never answered it
  }

  // `perform` runs a main-actor feature's executor on the main actor, with literal deps.
  @Test func archivingAnnouncesTheItem() async {
    let announced = Calls<String>()
    let execution = await perform(
      Checklist.Decision.announceArchived(Item(id: 1, title: "Buy milk")), of: Checklist.self,
      deps: .init(row: .init(save: unimplemented("save")), announce: announced.record))
    #expect(announced.all == ["archived Buy milk"])
    #expect(execution.events.isEmpty)
    #expect(execution.startedWork.isEmpty)
  }

  @Test func aRowSavesInItsOwnScope() async {
    let item = Item(id: 1, title: "Buy milk", isDone: true)
    let execution = await perform(
      Checklist.Decision.row(id: 1, .save(item)), of: Checklist.self,
      deps: .init(row: .init(save: { _ in }), announce: unimplemented("announce")))
    #expect(execution.events == [.row(id: 1, .saved(item))])
    #expect(execution.startedWork == [WorkID(Row.Key.save)])
  }

  // Every path of an exploration, sent to a MainStore: the store agrees with the core.
  @Test func theMainStoreFollowsTheCoreOnEveryPath() async {
    var start = Checklist.State()
    start.rows = [Row.State(item: Item(id: 1, title: "a"))]
    start.nextID = 2
    let events: [Checklist.Event] = [.openEditor(id: 1), .closeEditor, .archive(id: 1)]
    let graph = explore(
      Checklist.self, from: start, key: { String(describing: $0) }, events: { _ in events })
    let paths = graph.transitionCoveringPaths()
    #expect(paths.count >= 2)
    for path in paths {
      let journal = Journal<Checklist>(initialState: start)
      let store = MainStore<Checklist>(
        state: start,
        deps: .init(row: .init(save: unimplemented("save")), announce: { _ in }),
        diagnostics: journal.record)
      await path.expectStoreAgrees(store, journal: journal)
      store.stop()
    }
  }
}

// The steps of a main-actor feature's StoreTest compare with the conformances found at run time:
// each of these fails, as a wrong step must.
@Suite struct ChecklistStoreTestFailures {
  private func makeTest() -> StoreTest<Checklist> {
    StoreTest<Checklist>(
      state: .init(),
      deps: .init(row: .init(save: { _ in }), announce: { _ in }), endChecks: [])
  }

  @Test func aWrongStateFails() async {
    let test = makeTest()
    await withKnownIssue {
      await test.send(.add("Buy milk")) {
        $0.nextID = 2  // the row is missing
      }
    } matching: {
      $0.description.contains("the state differs")
    }
  }

  @Test func wrongDecisionsFail() async {
    let test = makeTest()
    await test.send(.add("Buy milk")) {
      $0.rows.append(Row.State(item: Item(id: 1, title: "Buy milk")))
      $0.nextID = 2
    }
    let item = Item(id: 1, title: "Buy milk")
    await withKnownIssue {
      await test.send(.archive(id: 1), decisions: []) {
        $0.rows = []
        $0.archived = [item]
      }
    } matching: {
      $0.description.contains("the decisions differ")
    }
  }

  // `send` with no decisions and no update asserts the step too: an unlisted change fails.
  @Test func aSendWithNothingListedAssertsNoChange() async {
    let test = makeTest()
    await withKnownIssue {
      await test.send(.add("Buy milk"))
    } matching: {
      $0.description.contains("the state differs")
    }
  }

  @Test func receivingTheWrongEventFails() async {
    let test = makeTest()
    await test.send(.add("Buy milk")) {
      $0.rows.append(Row.State(item: Item(id: 1, title: "Buy milk")))
      $0.nextID = 2
    }
    let ticked = Item(id: 1, title: "Buy milk", isDone: true)
    await test.send(.row(id: 1, .toggle), decisions: [.row(id: 1, .save(ticked))]) {
      $0.rows[id: 1]?.item = ticked
      $0.rows[id: 1]?.isSaving = true
    }
    await withKnownIssue {
      await test.receive(.row(id: 1, .saved(Item(id: 1, title: "other")))) {
        $0.rows[id: 1]?.isSaving = false
      }
    } matching: {
      $0.description.contains("Expected to receive")
    }
  }
}
