// The code of Docs/Navigation.md, compiled: an inbox that asks before it deletes.

import Decisions

enum Inbox: Feature {
  enum DialogAction: Equatable, Sendable, Codable {
    case delete(id: Int)
    case archiveAll
  }

  struct State: Equatable, Sendable {
    var messages: [Int] = [1, 2, 3]
    var archived: [Int] = []
    var dialog: Dialog<DialogAction>?
  }

  enum Event: Equatable, Sendable {
    case deleteTapped(id: Int)
    case archiveAllTapped
    case dialog(DialogResponse<DialogAction>)
  }

  enum Decision: Equatable, Sendable {
    case delete(id: Int)
  }

  struct Deps: Sendable {
    var delete: @Sendable (Int) async throws -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .deleteTapped(let id):
      state.dialog = Dialog(
        title: "Delete message \(id)?",
        message: "You cannot undo this.",
        buttons: [
          .init("Delete", role: .destructive, action: .delete(id: id)),
          .init("Cancel", role: .cancel),
        ])
      return []

    case .archiveAllTapped:
      state.dialog = Dialog(
        .confirmationDialog, title: "Archive all messages?",
        buttons: [.init("Archive all", action: .archiveAll), .init("Cancel", role: .cancel)])
      return []

    case .dialog(let response):
      switch state.dialog.respond(to: response) {
      case .delete(let id):
        state.messages.removeAll { $0 == id }
        return [.delete(id: id)]
      case .archiveAll:
        state.archived += state.messages
        state.messages = []
        return []
      case nil:
        return []
      }
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .delete(let id):
      effects.run { _ in try await deps.delete(id) }
    }
  }
}

/// A search screen whose field is bound to the state: the core keeps the query at most 20
/// characters long, and clears the results when it is emptied.
enum SearchField: Feature {
  struct State: Equatable, Sendable {
    var query = ""
    var results: [String] = []
  }

  enum Event: Equatable, Sendable {
    case queryChanged(String)
  }

  enum Decision: Equatable, Sendable {}

  struct Deps: Sendable {}

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .queryChanged(let query):
      state.query = String(query.prefix(20))
      if state.query.isEmpty { state.results = [] }
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {}
}
