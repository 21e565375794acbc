// Runs the checklist, a feature written with no annotation in a module whose code is main-actor
// isolated by default, in a `MainStore` held by a view model and with a child model; and a
// `nonisolated` feature in the actor `Store`. Prints one line for CI to check.
import Checklist
import Decisions

let deps = Checklist.Deps(
  row: Row.Deps(save: { _ in await Task.yield() }),  // a save that answers at once
  announce: { print("announced: \($0)") })

// A view model of the kind an app keeps for a screen: main-actor isolated by the module's default,
// holding a `MainStore`, which SwiftUI views observe.
final class ChecklistViewModel {
  let store: MainStore<Checklist>

  init(deps: Checklist.Deps) {
    store = MainStore(state: .init(), deps: deps)
  }

  var titles: [String] { store.state.rows.map(\.item.title) }
  var isEditing: Bool { store.state.editor != nil }

  func add(_ title: String) { store.send(.add(title)) }
  func rename(to title: String) { store.send(.editor(.rename(title))) }
  func edit(id: Int) { store.send(.openEditor(id: id)) }
  func closeEditor() { store.send(.closeEditor) }
  func archive(id: Int) { store.send(.archive(id: id)) }
}

let model = ChecklistViewModel(deps: deps)
model.add("Water the plants")
model.add("Walk the dog")
model.edit(id: 1)
model.rename(to: "Water the garden")
await model.store.settle()  // the save finishes and the row takes the edit
let wasEditing = model.isEditing
model.closeEditor()
model.archive(id: 2)

// `MainStore` has processed each event when `send` returns, and a child model follows one row.
let row = model.store.child(Checklist.rows, id: 1)
row?.send(.toggle)
let rowIsDone = row?.state.item.isDone == true
await model.store.settle()
model.store.stop()

// A `nonisolated` feature, in the actor `Store`, driven from top-level code (the main actor).
let tally = Store<Tally>(state: .init(), deps: .init(announce: { print("tally: \($0)") }))
await tally.send(.done("Water the garden"))
await tally.settle()
let done = await tally.state.done
await tally.stop()

print(
  "main: \(model.titles) (editor was open: \(wasEditing), now: \(model.isEditing);",
  "row done at once: \(rowIsDone), archived: \(model.store.state.archived.count));",
  "store: \(done) done")
