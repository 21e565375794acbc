// The code of Docs/Persistence.md, compiled: a notes screen whose notes are kept in a JSON file,
// loaded when its store starts and saved a second after the last edit. Its tests are in
// PersistenceGuideTests.swift.

import Decisions
import Foundation

/// What the notes screen keeps in its file.
struct Notebook: Codable, Equatable, Sendable {
  var notes: [String] = []
}

enum Notes: Feature {
  struct State: Equatable, Sendable {
    /// The notes, as the screen shows them.
    var notes: [String] = []
    /// Where the file stands: the notes are edited and saved only once it has loaded.
    var file = FileStatus.loading
    /// Edits that no write has started to save yet.
    var hasUnsavedChanges = false
    /// A wait for a quiet period is running: a write comes at its end.
    var isWaitingToSave = false
    /// A write is running: no other write starts until it ends.
    var isWriting = false
    /// Why the last write failed, until a write succeeds.
    var saveError: JSONFileError?
    /// Where a file that did not load was kept, after the user started over.
    var backup: URL?
  }

  enum FileStatus: Equatable, Sendable {
    /// The file is being read; the screen shows a spinner and takes no edits.
    case loading
    /// The notes came from the file, or there was none: edits are saved.
    case loaded
    /// The file did not load: the screen shows why, takes no edits and saves nothing, until the
    /// user tries again or starts over.
    case failed(JSONFileError)
    /// The file that did not load is being moved aside, to start over.
    case movingAside
  }

  enum Event: Equatable, Sendable {
    /// The user added a note.
    case added(String)
    /// The user removed the note at an index.
    case removed(at: Int)
    /// The app is about to quit or go to the background: save what is pending now.
    case saveNowRequested
    /// After a failed load, the user asked to try again.
    case retryTapped
    /// After a failed load, the user asked to start with no notes, keeping the file as a backup.
    case startOverTapped
    /// The file was read: its notebook, or `nil` if there was no file.
    case loaded(Notebook?)
    /// The file did not load.
    case loadFailed(JSONFileError)
    /// No edit came for the quiet period.
    case quietPeriodEnded
    /// The write finished.
    case saved
    /// The write failed; the file is as it was.
    case saveFailed(JSONFileError)
    /// The file that did not load was moved to a backup (`nil`: nothing was there).
    case movedAside(to: URL?)
    /// The file that did not load could not be moved aside.
    case moveAsideFailed(JSONFileError)
  }

  enum Decision: Equatable, Sendable {
    /// Read the file.
    case load
    /// Send `.quietPeriodEnded` after a delay; replaces a wait that is running.
    case waitToSave(Duration)
    /// Cancel the wait for a quiet period.
    case cancelWait
    /// Write the notebook to the file.
    case write(Notebook)
    /// Move the file that did not load aside, to a backup.
    case moveAside
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
    var load: @Sendable () async throws(JSONFileError) -> Notebook?
    var save: @Sendable (Notebook) async throws(JSONFileError) -> Void
    var moveAside: @Sendable () async throws(JSONFileError) -> URL?
  }

  /// How long after the last edit the notes are saved.
  static let quietPeriod = Duration.seconds(1)

  static func makeStartDecisions(state: inout State) -> [Decision] {
    state.file = .loading
    return [.load]
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .added(let text):
      guard state.file == .loaded else { return [] }
      state.notes.append(text)
      return notesChanged(&state)
    case .removed(let index):
      guard state.file == .loaded, state.notes.indices.contains(index) else { return [] }
      state.notes.remove(at: index)
      return notesChanged(&state)
    case .quietPeriodEnded:
      state.isWaitingToSave = false
      return writeIfIdle(&state)
    case .saveNowRequested:
      guard state.isWaitingToSave else { return writeIfIdle(&state) }
      state.isWaitingToSave = false
      return [.cancelWait] + writeIfIdle(&state)
    case .saved:
      state.isWriting = false
      state.saveError = nil
      // NB: edits made during the write are saved now, unless a wait for them still runs.
      return state.isWaitingToSave ? [] : writeIfIdle(&state)
    case .saveFailed(let error):
      // NB: no retry by itself, which would loop on a full disk: the next edit, or a save now,
      // tries again.
      state.isWriting = false
      state.saveError = error
      state.hasUnsavedChanges = true
      return []

    case .loaded(let notebook):
      guard state.file == .loading else { return [] }
      state.file = .loaded
      state.notes = notebook?.notes ?? []
      return []
    case .loadFailed(let error):
      guard state.file == .loading else { return [] }
      state.file = .failed(error)
      return []
    case .retryTapped:
      guard case .failed = state.file else { return [] }
      state.file = .loading
      return [.load]
    case .startOverTapped:
      guard case .failed = state.file else { return [] }
      state.file = .movingAside
      return [.moveAside]
    case .movedAside(let backup):
      guard state.file == .movingAside else { return [] }
      state.file = .loaded
      state.notes = []
      state.backup = backup
      return []
    case .moveAsideFailed(let error):
      guard state.file == .movingAside else { return [] }
      state.file = .failed(error)
      return []
    }
  }

  /// The notes changed: save them once no edit has come for the quiet period.
  private static func notesChanged(_ state: inout State) -> [Decision] {
    state.hasUnsavedChanges = true
    state.isWaitingToSave = true
    return [.waitToSave(quietPeriod)]
  }

  /// Writes the notes if they changed and no write is running; a running write is followed by
  /// another when it ends.
  private static func writeIfIdle(_ state: inout State) -> [Decision] {
    guard state.hasUnsavedChanges, !state.isWriting else { return [] }
    state.hasUnsavedChanges = false
    state.isWriting = true
    return [.write(Notebook(notes: state.notes))]
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { send in
        do throws(JSONFileError) {
          await send(.loaded(try await deps.load()))
        } catch {
          await send(.loadFailed(error))
        }
      }
    case .waitToSave(let delay):
      effects.run(id: "wait to save") { send in
        try await deps.clock.sleep(for: delay)
        await send(.quietPeriodEnded)
      }
    case .cancelWait:
      effects.cancel(id: "wait to save")
    case .write(let notebook):
      effects.run(id: "write") { send in
        do throws(JSONFileError) {
          try await deps.save(notebook)
          await send(.saved)
        } catch {
          await send(.saveFailed(error))
        }
      }
    case .moveAside:
      effects.run(id: "move aside") { send in
        do throws(JSONFileError) {
          await send(.movedAside(to: try await deps.moveAside()))
        } catch {
          await send(.moveAsideFailed(error))
        }
      }
    }
  }
}

extension Notes.Deps {
  /// The app's deps: the real clock and the notes file.
  static func live(file: JSONFile<Notebook>) -> Self {
    Self(
      clock: ContinuousClock(),
      load: file.load,
      save: file.save,
      moveAside: file.moveAside)
  }
}

/// The app's notes file: `notes.json` in the folder given, in format version 1.
func notesFile(in folder: URL) -> JSONFile<Notebook> {
  JSONFile(url: folder.appending(path: "notes.json"), version: 1)
}

/// The same notes, with the recipe's machine as a component: `Persisted`.
enum PersistedNotes: Feature {
  struct State: Equatable, Sendable {
    var notes = Persisted<[String]>.State([])
  }

  enum Event: Equatable, Sendable {
    case added(String)
    case file(Persisted<[String]>.Event)
  }

  enum Decision: Equatable, Sendable {
    case file(Persisted<[String]>.Decision)
  }

  struct Deps: Sendable {
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
