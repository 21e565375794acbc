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

/// A screen that shows a note and loads its history.
enum NoteDetail: Feature {
  struct State: Equatable, Sendable {
    var note: String
    var history: [String]?
  }

  enum Event: Equatable, Sendable {
    case appeared
    case historyLoaded([String])
    case deleteTapped
  }

  enum Decision: Equatable, Sendable {
    case loadHistory(String)
  }

  struct Deps: Sendable {
    var history: @Sendable (String) async throws -> [String]
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .appeared:
      return [.loadHistory(state.note)]
    case .historyLoaded(let history):
      state.history = history
      return []
    case .deleteTapped:
      return []  // the parent pops the screen
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .loadHistory(let note):
      effects.run(id: "history") { send in
        await send(.historyLoaded(try await deps.history(note)))
      }
    }
  }
}

/// A list of notes that pushes a detail screen for each note opened.
enum NoteList: Feature {
  struct State: Equatable, Sendable {
    var notes = ["Groceries", "Ideas"]
    var path = ScreenStack<NoteDetail.State>()
  }

  enum Event: Equatable, Sendable {
    case open(String)
    case detail(id: ScreenStack<NoteDetail.State>.ID, NoteDetail.Event)
    case pathChanged([ScreenStack<NoteDetail.State>.ID])
    case backToList
    case deepLink(String)
  }

  enum Decision: Equatable, Sendable {
    case detail(id: ScreenStack<NoteDetail.State>.ID, NoteDetail.Decision)
  }

  struct Deps: Sendable {
    var detail: NoteDetail.Deps
  }

  static let details = embed(
    NoteDetail.self, stack: \.path, event: Event.detail, decision: Decision.detail)
  static let childWork = [details.work]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .open(let note):
      let id = state.path.push(NoteDetail.State(note: note))
      return details.makeDecisions(event: .appeared, id: id, in: &state)

    case .detail(let id, .deleteTapped):
      guard let detail = state.path[id: id] else { return [] }
      state.notes.removeAll { $0 == detail.note }
      state.path.pop(from: id)
      return []

    case .detail(let id, let event):
      return details.makeDecisions(event: event, id: id, in: &state)

    case .pathChanged(let ids):
      state.path.keep(ids)
      return []

    case .backToList:
      state.path.popToRoot()
      return []

    case .deepLink(let note):
      // A new stack: its screens are new screens, even where an id is the same as before. The
      // screen loads when it appears.
      state.path = [NoteDetail.State(note: note)]
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .detail(let id, let decision):
      details.execute(decision, id: id, deps: deps.detail, effects: effects)
    }
  }
}

/// A form in a sheet: a new name, checked with the server as it is typed.
enum Rename: Feature {
  struct State: Equatable, Sendable {
    var name = ""
    var isAvailable: Bool?
  }

  enum Event: Equatable, Sendable {
    case nameChanged(String)
    case checked(name: String, isAvailable: Bool)
    case saveTapped
  }

  enum Decision: Equatable, Sendable {
    case check(String)
  }

  struct Deps: Sendable {
    var isAvailable: @Sendable (String) async throws -> Bool
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .nameChanged(let name):
      state.name = name
      state.isAvailable = nil
      return [.check(name)]
    case .checked(let name, let isAvailable):
      guard name == state.name else { return [] }
      state.isAvailable = isAvailable
      return []
    case .saveTapped:
      return []  // the parent saves and dismisses
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .check(let name):
      effects.run(id: "check") { send in
        await send(.checked(name: name, isAvailable: try await deps.isAvailable(name)))
      }
    }
  }
}

/// An account screen that presents a rename form or an about sheet, one at a time.
enum Account: Feature {
  enum Destination: Equatable, Sendable {
    case rename(Rename.State)
    case about
  }

  struct State: Equatable, Sendable {
    var name = "ada"
    @Presented var destination: Destination?
  }

  enum Event: Equatable, Sendable {
    case renameTapped
    case aboutTapped
    case rename(Rename.Event)
    case dismissed
  }

  enum Decision: Equatable, Sendable {
    case rename(Rename.Decision)
  }

  struct Deps: Sendable {
    var rename: Rename.Deps
  }

  static let rename = embed(
    Rename.self, presented: \.$destination, case: Destination.rename, event: Event.rename,
    decision: Decision.rename)
  static let childWork = [rename.work]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .renameTapped:
      state.destination = .rename(Rename.State(name: state.name))
      return []

    case .aboutTapped:
      state.destination = .about
      return []

    case .rename(.saveTapped):
      guard let form = rename.state(in: state), form.isAvailable == true else { return [] }
      state.name = form.name
      state.destination = nil
      return []

    case .rename(let event):
      return rename.makeDecisions(event: event, in: &state)

    case .dismissed:
      state.destination = nil
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .rename(let decision):
      rename.execute(decision, deps: deps.rename, effects: effects)
    }
  }
}
