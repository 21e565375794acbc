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

  @Test func theEditorsSaveRunsInTheEditorsScope() async {
    let saves = Calls<Item>()
    let item = Item(id: 1, title: "Buy oat milk")
    let execution = await perform(
      Checklist.Decision.editor(.save(item)), of: Checklist.self,
      deps: .init(
        row: .init(save: { saves.record($0) }), announce: unimplemented("announce")))
    #expect(execution.events == [.editor(.saved(item))])
    #expect(execution.startedWork == [WorkID("save")])
    #expect(saves.all == [item])
  }

  // THE ANNOTATION for store tests: `nonisolated`. Without it this test is main-actor isolated, and
  // so are the closures that describe each step; `send` and `receive` run off the main actor, and
  // Swift 6 refuses to send them a main-actor closure ("sending value of non-Sendable type
  // '(inout Checklist.State) -> Void' risks causing data races").
  @Test func anEditIsSavedAndCopiedToItsRow() async throws {
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
    await test.send(.closeEditor, decisions: [.cancelEditor]) {
      $0.editor = nil
    }
    await test.finish()
  }
}
