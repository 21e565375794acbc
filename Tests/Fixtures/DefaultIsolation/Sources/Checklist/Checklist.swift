import Decisions

/// A checklist of rows, an editor, and the items archived so far.
///
/// The rows are children embedded by id in an `IdentifiedArray`, the editor is a presented child,
/// and the archived items are a plain `[Item]`. Events and decisions carry `Item`s.
public enum Checklist: Feature {
  /// The checklist's state.
  public struct State: Equatable, Sendable {
    /// The rows, in order.
    public var rows: IdentifiedArray<Row.State> = []
    /// The row being edited, while the editor is open.
    @Presented public var editor: Row.State?
    /// The items archived, in the order they were archived.
    public var archived: [Item] = []
    /// The id of the next item added.
    public var nextID = 1

    /// An empty checklist.
    public init() {}
  }

  /// What happens to the checklist.
  public enum Event: Equatable, Sendable {
    case add(String)
    case row(id: Int, Row.Event)
    case openEditor(id: Int)
    case editor(Row.Event)
    case closeEditor
    case archive(id: Int)
    case restore(Item)
  }

  /// What the checklist decides to do.
  public enum Decision: Equatable, Sendable {
    case row(id: Int, Row.Decision)
    case editor(Row.Decision)
    case announceArchived(Item)
  }

  /// What the checklist needs: its rows' deps, and a way to announce.
  public struct Deps: Sendable {
    /// The rows' deps, shared by the editor.
    public var row: Row.Deps
    /// Announces a change to the user.
    public var announce: @Sendable (String) -> Void

    /// Deps for the checklist.
    public init(row: Row.Deps, announce: @escaping @Sendable (String) -> Void) {
      self.row = row
      self.announce = announce
    }
  }

  /// The rows, each with its work in a scope of its own.
  public static let rows = embed(Row.self, list: \.rows, event: Event.row, decision: Decision.row)
  /// The editor, whose work ends when it closes.
  public static let editor = embed(
    Row.self, presented: \.$editor, event: Event.editor, decision: Decision.editor)
  /// The editor's work lives while it is open, each row's while it is in the list.
  public static let childWork = [rows.work, editor.work]

  /// Adds, edits, archives and restores items, and forwards the rows' events.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .add(let title):
      state.rows.append(Row.State(item: Item(id: state.nextID, title: title)))
      state.nextID += 1
      return []

    case .row(let id, let event):
      return rows.makeDecisions(event: event, id: id, in: &state)

    case .openEditor(let id):
      guard state.editor == nil, let row = state.rows[id: id] else { return [] }
      state.editor = row
      return []

    case .editor(let event):
      let decisions = editor.makeDecisions(event: event, in: &state)
      // The parent observes its child: a saved edit updates the row it was opened from.
      if case .saved = event, let editor = state.editor, !editor.isSaving {
        state.rows.update(id: editor.id) { $0.item = editor.item }
      }
      return decisions

    case .closeEditor:
      guard state.editor != nil else { return [] }
      state.editor = nil  // the store ends the editor's work
      return []

    case .archive(let id):
      guard let row = state.rows.remove(id: id) else { return [] }
      state.archived.append(row.item)
      return [.announceArchived(row.item)]

    case .restore(let item):
      guard state.archived.contains(item), state.rows.index(id: item.id) == nil else { return [] }
      state.archived.removeAll { $0 == item }
      state.rows.append(Row.State(item: item))
      return []
    }
  }

  /// Runs the rows' and the editor's work, each in its own scope.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .row(let id, let decision):
      rows.execute(decision, id: id, deps: deps.row, effects: effects)

    case .editor(let decision):
      editor.execute(decision, deps: deps.row, effects: effects)

    case .announceArchived(let item):
      deps.announce("archived \(item.title)")
    }
  }
}
