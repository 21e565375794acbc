// The code of Docs/Persistence.md, compiled: a notes screen whose notes are kept in a JSON file by
// `Persisted`, loaded when its store starts and saved a second after the last edit. Its tests are
// in PersistenceGuideTests.swift.

import Decisions
import Foundation

enum Notes: Feature {
  struct State: Equatable, Sendable {
    /// The notes, as the screen shows them, kept in a file.
    var notes = Persisted<[String]>.State([])
  }

  enum Event: Equatable, Sendable {
    /// The user added a note.
    case added(String)
    /// The user removed the note at an index.
    case removed(at: Int)
    /// An event of the notes' file.
    case file(Persisted<[String]>.Event)
  }

  enum Decision: Equatable, Sendable {
    /// The file work of the notes.
    case file(Persisted<[String]>.Decision)
  }

  struct Deps: Sendable {
    /// The notes' file.
    var file: Persisted<[String]>.Deps
  }

  static let file = embed(
    Persisted<[String]>.self, state: \.notes, event: Event.file, decision: Decision.file)
  static let childWork = [file.work]

  static func makeStartDecisions(state: inout State) -> [Decision] {
    file.start(in: &state)
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    file.savingChanges(in: &state) { state in
      switch event {
      case .added(let text):
        state.notes.value.append(text)
        return []
      case .removed(let index):
        guard state.notes.value.indices.contains(index) else { return [] }
        state.notes.value.remove(at: index)
        return []
      case .file(let event):
        return file.makeDecisions(event: event, in: &state)
      }
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .file(let decision):
      file.execute(decision, deps: deps.file, effects: effects)
    }
  }
}

extension Notes.Deps {
  /// The app's deps: the notes file, its quiet period on the real clock.
  static func live(file: JSONFile<[String]>) -> Self {
    Self(file: .file(file))
  }
}

/// The app's notes file: `notes.json` in the folder given, in format version 1.
func notesFile(in folder: URL) -> JSONFile<[String]> {
  JSONFile(url: folder.appending(path: "notes.json"), version: 1)
}

/// What a notes app might keep in its file: the helper's example.
struct Notebook: Codable, Equatable, Sendable {
  var notes: [String] = []
}
