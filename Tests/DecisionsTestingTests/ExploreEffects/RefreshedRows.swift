// A list of rows that each load a value, with the bug of issue 38 (b) planted: the list loads for
// its rows as work of its own and hands each answer to the row with the id it was loaded for, so
// when a row is replaced by a new one with the same id, the old row's answer reaches the new row.
// `fixed` has each row load in its own work scope, which ends when the row is replaced.

import Decisions
import DecisionsTesting

/// A row: its id, which version of the row it is, and which version the value on show was
/// loaded for.
enum RefreshedRow: Feature {
  struct State: Hashable, Sendable, Identifiable {
    var id: Int
    var version: Int
    var valueVersion: Int?
  }

  enum Event: Equatable, Sendable {
    case loaded(version: Int, value: String)
  }

  enum Decision: Equatable, Sendable {
    case load(id: Int, version: Int)
  }

  struct Deps: Sendable {
    var load: @Sendable (Int) async throws -> String
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .loaded(let version, _):
      state.valueVersion = version
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load(let id, let version):
      effects.run(id: "load") { send in
        await send(.loaded(version: version, value: try await deps.load(id)))
      }
    }
  }
}

/// The list: one row, which the user can replace with a fresh copy that loads again.
enum RefreshedRows: Feature {
  struct State: Hashable, Sendable {
    var rows: IdentifiedArray<RefreshedRow.State> = [RefreshedRow.State(id: 1, version: 0)]
    var fixed = false
  }

  enum Event: Equatable, Sendable {
    /// Replaces the row with a new one, one version later, which loads again.
    case replace(id: Int)
    case row(Int, RefreshedRow.Event)
  }

  enum Decision: Equatable, Sendable {
    case row(Int, RefreshedRow.Decision)
    /// The list loads for a row as work of its own (the bug).
    case loadForRow(id: Int, version: Int)
  }

  typealias Deps = RefreshedRow.Deps

  static let rows = embed(
    RefreshedRow.self, list: \.rows, event: Event.row, decision: Decision.row)
  static let childWork = [rows.work]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .replace(let id):
      guard let position = state.rows.index(id: id), let old = state.rows.remove(id: id) else {
        return []
      }
      let version = old.version + 1
      state.rows.insert(RefreshedRow.State(id: id, version: version), at: position)
      return [
        state.fixed
          ? .row(id, .load(id: id, version: version)) : .loadForRow(id: id, version: version)
      ]
    case .row(let id, let event):
      return rows.makeDecisions(event: event, id: id, in: &state)
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .row(let id, let decision):
      rows.execute(decision, id: id, deps: deps, effects: effects)
    case .loadForRow(let id, let version):
      effects.run { send in
        await send(.row(id, .loaded(version: version, value: try await deps.load(id))))
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value("value")]))
  }

  /// The user replaces the row, up to its second version.
  static func refreshing(_ state: State) -> [Event] {
    (state.rows[id: 1]?.version ?? 2) < 2 ? [.replace(id: 1)] : []
  }

  /// The rule: a row shows only a value loaded for its own version.
  static func rowsShowTheirOwnValues(_ snapshot: FeatureExploration<RefreshedRows>.Snapshot)
    -> Bool
  {
    snapshot.state.rows.allSatisfy { row in row.valueVersion.map { $0 == row.version } ?? true }
  }
}
