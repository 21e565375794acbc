import Decisions

/// A child with its own long work, used one per row in ``Parent``.
enum Row: Feature {
  struct State: Equatable, Identifiable, Sendable {
    var id: Int
    var value = 0
  }

  enum Event: Equatable, Sendable {
    case load
    case loaded(Int)
  }

  enum Decision: Equatable, Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable () async -> Int
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .load:
      return [.load]
    case .loaded(let value):
      state.value = value
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { send in await send(.loaded(await deps.load())) }
    }
  }
}

/// A parent that embeds a plain child, an optional child and a collection of children by id.
enum Parent: Feature {
  struct State: Equatable, Sendable {
    var counter = Counter.State()
    var sheet: Counter.State?
    var rows: [Row.State] = []
  }

  enum Event: Equatable, Sendable {
    case counter(Counter.Event)
    case sheet(Counter.Event)
    case row(id: Int, Row.Event)
    case openSheet
    case closeSheet
    case addRow(Int)
    case removeRow(Int)
  }

  enum Decision: Equatable, Sendable {
    case counter(Counter.Decision)
    case sheet(Counter.Decision)
    case row(id: Int, Row.Decision)
    case cancelSheet
    case cancelRow(Int)
  }

  /// The parent's deps; each child's are derived from them.
  struct Deps: Sendable {
    var log: @Sendable (String) -> Void = { _ in }
    var work: @Sendable (String, Int) async throws -> Int = { _, value in value }
    var loadRow: @Sendable (_ id: Int) async -> Int = { $0 * 100 }

    var counter: Counter.Deps { Counter.Deps(log: log, work: work) }
    func row(_ id: Int) -> Row.Deps { Row.Deps(load: { [loadRow] in await loadRow(id) }) }
  }

  /// The work scope of the sheet.
  static let sheetScope = "sheet"

  /// The sheet's work lives while it is open, each row's while it is in the list.
  static let childWork: [ChildWork<State>] = [
    .optional(Counter.self, state: \.sheet, scope: sheetScope),
    .children(Row.self, in: \.rows),
  ]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .counter(let event):
      return Counter.makeDecisions(event: event, state: &state.counter, embed: Decision.counter)
    case .sheet(let event):
      return Counter.makeDecisions(event: event, state: &state.sheet, embed: Decision.sheet)
    case .row(let id, let event):
      return Row.makeDecisions(event: event, id: id, in: &state.rows, embed: Decision.row)
    case .openSheet:
      state.sheet = Counter.State()
      return []
    case .closeSheet:
      state.sheet = nil
      return [.cancelSheet]
    case .addRow(let id):
      state.rows.append(Row.State(id: id))
      return []
    case .removeRow(let id):
      state.rows.removeAll { $0.id == id }
      return [.cancelRow(id)]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .counter(let decision):
      Counter.execute(decision, deps: deps.counter, effects: effects, embed: Event.counter)
    case .sheet(let decision):
      Counter.execute(
        decision, deps: deps.counter, effects: effects, scope: sheetScope, embed: Event.sheet)
    case .row(let id, let decision):
      Row.execute(decision, deps: deps.row(id), effects: effects, scope: id) { .row(id: id, $0) }
    case .cancelSheet:
      effects.cancelAll(in: sheetScope)
    case .cancelRow(let id):
      effects.cancelAll(in: id)
    }
  }
}
