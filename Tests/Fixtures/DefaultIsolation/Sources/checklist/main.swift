// Runs the checklist in a `Store`, in an `ObservableStore` held by a view model, and in a
// `MainStore` with a child model, all in a module whose code is main-actor isolated by default, and
// prints one line for CI to check.
import Checklist
import Decisions

let deps = Checklist.Deps(
  row: Row.Deps(save: { _ in await Task.yield() }),  // a save that answers at once
  announce: { print("announced: \($0)") })

// A store, driven from top-level code (the main actor).
let store = Store<Checklist>(state: .init(), deps: deps)
await store.send(.add("Buy milk"))
await store.send(.add("Walk the dog"))
await store.send(.row(id: 1, .toggle))
await store.send(.archive(id: 2))
await store.settle()
let state = await store.state
let done = state.rows.filter(\.item.isDone).count
await store.stop()

// A view model of the kind an app keeps for a screen: main-actor isolated by the module's default,
// observing the store through an `ObservableStore`.
final class ChecklistViewModel {
  let store: ObservableStore<Checklist>

  init(deps: Checklist.Deps) {
    store = ObservableStore(state: .init(), deps: deps)
  }

  var titles: [String] { store.state.rows.map(\.item.title) }
  var isEditing: Bool { store.state.editor != nil }

  func add(_ title: String) async { await store.sendAndWait(.add(title)) }
  func rename(to title: String) async { await store.sendAndWait(.editor(.rename(title))) }
  func edit(id: Int) async { await store.sendAndWait(.openEditor(id: id)) }
  func closeEditor() async { await store.sendAndWait(.closeEditor) }
}

let model = ChecklistViewModel(deps: deps)
await model.add("Water the plants")
await model.edit(id: 1)
await model.rename(to: "Water the garden")
await model.store.settle()  // the save finishes and the row takes the edit
let wasEditing = model.isEditing
await model.closeEditor()

// A screen's feature on the main actor: `MainStore` has processed each event when `send` returns,
// and a child model follows one row.
let screen = MainStore<Checklist>(state: .init(), deps: deps)
screen.send(.add("Call mum"))
let row = screen.child(Row.self, id: 1, in: \.rows, event: Checklist.Event.row)
row?.send(.toggle)
let rowIsDone = row?.state.item.isDone == true
await screen.settle()

print(
  "store: \(done) of \(state.rows.count) done, \(state.archived.count) archived;",
  "observable: \(model.titles) (editor was open: \(wasEditing), now: \(model.isEditing));",
  "main: \(screen.state.rows.map(\.item.title)) (row done at once: \(rowIsDone))")
