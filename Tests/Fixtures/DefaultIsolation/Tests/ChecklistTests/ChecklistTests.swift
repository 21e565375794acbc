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

  // StoreTest and perform do not yet take a main-actor feature (they need `SendableMetatype` of
  // it); a MainStore, which has processed each event when `send` returns, is tested directly.
  @Test func anEditIsSavedAndCopiedToItsRow() async throws {
    let save = ControlledDependency<Item, Void>()
    var initial = Checklist.State()
    initial.rows.append(Row.State(item: Item(id: 1, title: "Buy milk")))
    initial.nextID = 2
    let store = MainStore<Checklist>(
      state: initial,
      deps: .init(row: .init(save: { try await save($0) }), announce: unimplemented("announce")))

    store.send(.openEditor(id: 1))
    #expect(store.state.editor == Row.State(item: Item(id: 1, title: "Buy milk")))
    let renamed = Item(id: 1, title: "Buy oat milk")
    store.send(.editor(.rename("Buy oat milk")))
    #expect(store.state.editor?.isSaving == true)
    let call = try await save.nextCall()
    #expect(call.arguments == renamed)
    call.answer(())
    await store.settle()
    #expect(store.state.editor?.isSaving == false)
    #expect(store.state.rows[id: 1]?.item == renamed)
    store.send(.closeEditor)
    #expect(store.state.editor == nil)
    store.stop()
  }
}
