import Decisions
import DecisionsTesting
import Foundation
import TestSupport
import Testing

/// A parent that keeps its notes in a file, through `Persisted`.
private enum Jotter: Feature {
  struct State: Equatable, Sendable {
    var notes = Persisted<[String]>.State([])
  }

  enum Event: Equatable, Sendable {
    case add(String)
    case addTwice(String)
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
      case .add(let note):
        state.notes.value.append(note)
        return []
      case .addTwice(let note):
        // NB: the parent's core run again inside the step, as a child's request runs it.
        state.notes.value.append(note)
        return makeDecisions(event: .add(note), state: &state)
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

private let quiet = Duration.seconds(1)

@Suite struct PersistedCoreTests {
  private func loaded(_ notes: [String] = []) -> Jotter.State {
    Jotter.State(notes: .init(notes, status: .loaded))
  }

  @Test func aChangeWaitsForTheQuietPeriodThenIsWrittenOnceAtATime() {
    var test = CoreTest<Jotter>(state: loaded())
    test.send(.add("milk"), decisions: [.file(.waitToSave(quiet))]) {
      $0.notes.value = ["milk"]
      $0.notes.hasUnsavedChanges = true
      $0.notes.isWaitingToSave = true
    }
    test.send(.file(.quietPeriodEnded), decisions: [.file(.write(["milk"]))]) {
      $0.notes.hasUnsavedChanges = false
      $0.notes.isWaitingToSave = false
      $0.notes.isWriting = true
    }
    test.send(.add("eggs"), decisions: [.file(.waitToSave(quiet))]) {
      $0.notes.value = ["milk", "eggs"]
      $0.notes.hasUnsavedChanges = true
      $0.notes.isWaitingToSave = true
    }
    test.send(.file(.quietPeriodEnded)) {
      $0.notes.isWaitingToSave = false  // a write runs: the next one waits for it
    }
    test.send(.file(.saved), decisions: [.file(.write(["milk", "eggs"]))]) {
      $0.notes.hasUnsavedChanges = false
    }
  }

  @Test func theLoadedValueIsNotWrittenBack() {
    var test = CoreTest<Jotter>(state: .init())
    test.send(.file(.loaded(["milk"]))) {
      $0.notes.value = ["milk"]
      $0.notes.status = .loaded
    }
  }

  @Test func aChangeBeforeTheFileLoadedIsUndone() {
    var test = CoreTest<Jotter>(state: .init())
    test.send(.add("milk"))
    test.send(.file(.loadFailed(.corrupt(path: "n.json", reason: "bad")))) {
      $0.notes.status = .failed(.corrupt(path: "n.json", reason: "bad"))
    }
    test.send(.add("milk"))  // never written over the file that did not load
    test.send(.file(.saveNowRequested))
    test.send(.file(.retryTapped), decisions: [.file(.load)]) { $0.notes.status = .loading }
  }

  @Test func startingOverMovesTheFileAsideAndThenSaves() {
    var test = CoreTest<Jotter>(
      state: .init(notes: .init([], status: .failed(.corrupt(path: "n.json", reason: "bad")))))
    test.send(.file(.startOverTapped), decisions: [.file(.moveAside)]) {
      $0.notes.status = .movingAside
    }
    let backup = URL(fileURLWithPath: "/tmp/n.json.backup")
    test.send(.file(.movedAside(to: backup))) {
      $0.notes.status = .loaded
      $0.notes.backup = backup
    }
    test.send(.add("milk"), decisions: [.file(.waitToSave(quiet))]) {
      $0.notes.value = ["milk"]
      $0.notes.hasUnsavedChanges = true
      $0.notes.isWaitingToSave = true
    }
  }

  @Test func aFailedWriteIsKeptAndSaveNowWritesAgain() {
    var state = loaded(["milk"])
    state.notes.isWriting = true
    var test = CoreTest<Jotter>(state: state)
    let error = JSONFileError.writeFailed(path: "n.json", reason: "full")
    test.send(.file(.saveFailed(error))) {
      $0.notes.isWriting = false
      $0.notes.saveError = error
      $0.notes.hasUnsavedChanges = true
    }
    test.send(.file(.saveNowRequested), decisions: [.file(.write(["milk"]))]) {
      $0.notes.hasUnsavedChanges = false
      $0.notes.isWriting = true
    }
  }

  @Test func aNestedRunSavesAChangeOnce() {
    var test = CoreTest<Jotter>(state: loaded())
    test.send(.addTwice("milk"), decisions: [.file(.waitToSave(quiet))]) {
      $0.notes.value = ["milk", "milk"]
      $0.notes.hasUnsavedChanges = true
      $0.notes.isWaitingToSave = true
    }
  }
}

@Suite(.timeLimit(.minutes(3))) struct PersistedFileTests {
  @Test func theFileLoadsAtStartAndAChangeIsWrittenAfterTheQuietPeriod() async throws {
    let folder = try TemporaryFolder("PersistedFileTests")
    let file = JSONFile<[String]>(url: folder.url.appending(path: "notes.json"))
    try file.save(["milk"])
    let clock = TestClock()
    let test = StoreTest<Jotter>(
      state: .init(), deps: .init(file: .file(file, clock: clock)))
    await test.expectStart(decisions: [.file(.load)])
    await test.receive(.file(.loaded(["milk"]))) {
      $0.notes.value = ["milk"]
      $0.notes.status = .loaded
    }
    await test.send(.add("eggs"), decisions: [.file(.waitToSave(quiet))]) {
      $0.notes.value = ["milk", "eggs"]
      $0.notes.hasUnsavedChanges = true
      $0.notes.isWaitingToSave = true
    }
    await clock.advance(by: .milliseconds(999))
    #expect(try file.load() == ["milk"])  // not yet
    await clock.advance(by: .milliseconds(1))
    await test.receive(.file(.quietPeriodEnded), decisions: [.file(.write(["milk", "eggs"]))]) {
      $0.notes.hasUnsavedChanges = false
      $0.notes.isWaitingToSave = false
      $0.notes.isWriting = true
    }
    await test.receive(.file(.saved)) { $0.notes.isWriting = false }
    #expect(try file.load() == ["milk", "eggs"])
    await test.finish()
  }

  @Test func aFileThatDoesNotLoadIsNeverWrittenOver() async throws {
    let folder = try TemporaryFolder("PersistedFileTests")
    let url = folder.url.appending(path: "notes.json")
    try Data("{ not json".utf8).write(to: url)
    let file = JSONFile<[String]>(url: url)
    let test = StoreTest<Jotter>(
      state: .init(), deps: .init(file: .file(file, clock: TestClock())), exhaustivity: .off)
    await test.expectStart(decisions: [.file(.load)])
    await test.settle()
    #expect(await test.state.notes.isLoaded == false)
    await test.send(.add("milk"))
    await test.send(.file(.saveNowRequested))
    await test.settle()
    #expect(try Data(contentsOf: url) == Data("{ not json".utf8))
    await test.send(.file(.startOverTapped))
    await test.settle()
    #expect(await test.state.notes.backup == folder.url.appending(path: "notes.json.backup"))
    #expect(await test.state.notes.isLoaded)
    await test.finish()
  }
}

@Suite struct PersistedUnimplementedDepsTests {
  @Test func aTestThatTouchesNoFileNeedsNoFileDeps() async {
    let test = StoreTest<Jotter>(
      state: .init(notes: .init(["milk"], status: .loaded)),
      deps: .init(file: .unimplemented()), start: .skipped)
    await test.send(.file(.retryTapped))  // nothing to retry: no file work
    await test.finish()
  }

  @Test func aCallFailsTheTestAndThrows() async {
    let deps = Persisted<[String]>.Deps.unimplemented("notes")
    await withKnownIssue {
      do throws(JSONFileError) {
        try await deps.save(["milk"])
        Issue.record("the call did not throw")
      } catch {
        #expect(
          error == .unreadable(path: "notes.save", reason: "an unimplemented dependency was called")
        )
      }
    } matching: { issue in
      issue.description.contains("notes.save")
    }
  }
}
