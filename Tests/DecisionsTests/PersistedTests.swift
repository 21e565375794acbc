import Decisions
import DecisionsTesting
import Foundation
import TestSupport
import Testing

// The guarantees of `Persisted`, each with a test that fails without it: the machine on its own
// and in a parent (`CoreTest`), then its store on real files with a `TestClock`.

/// A parent that keeps its notes in a file, through `Persisted`.
private enum Jotter: Feature {
  struct State: Equatable, Sendable {
    var notes = Persisted<[String]>.State([])
  }

  enum Event: Equatable, Sendable {
    case add(String)
    /// Adds the note, then runs the core again on `.add`, as a child's request runs it.
    case addTwice(String)
    /// Runs the core again on `.add`, then adds the note.
    case addAfterNested(String)
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
        state.notes.value.append(note)
        return makeDecisions(event: .add(note), state: &state)
      case .addAfterNested(let note):
        let decisions = makeDecisions(event: .add(note), state: &state)
        state.notes.value.append(note)
        return decisions
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

private typealias Notes = Persisted<[String]>

private let quiet = Duration.seconds(1)
private let corrupt = JSONFileError.corrupt(path: "n.json", reason: "bad")

private func loaded(_ notes: [String] = []) -> Jotter.State {
  Jotter.State(notes: .init(notes, status: .loaded))
}

// MARK: - The machine

@Suite struct PersistedCoreTests {
  @Test func theStartLoadsAndTheLoadedValueIsNotWrittenBack() {
    var test = CoreTest<Jotter>(state: .init())
    test.start(decisions: [.file(.load)])
    test.send(.file(.loaded(["milk"]))) {
      $0.notes.value = ["milk"]
      $0.notes.status = .loaded
    }
  }

  @Test func noFileKeepsTheValueTheStateWasMadeWith() {
    var test = CoreTest<Notes>(state: .init(["first"]))
    test.send(.loaded(nil)) { $0.status = .loaded }
  }

  @Test func theStartForgetsWorkThatNoLongerRuns() {
    // A state restored in the middle of a write and a wait: neither runs in the new store.
    var state = Notes.State(["milk"], status: .loaded)
    state.hasUnsavedChanges = true
    state.isWaitingToSave = true
    state.isWriting = true
    var test = CoreTest<Notes>(state: state)
    test.start(decisions: [.load]) {
      $0.status = .loading
      $0.hasUnsavedChanges = false
      $0.isWaitingToSave = false
      $0.isWriting = false
    }
    test.send(.loaded(["milk"])) { $0.status = .loaded }
    test.send(.edited(["eggs"]), decisions: [.waitToSave(quiet)]) {
      $0.value = ["eggs"]
      $0.hasUnsavedChanges = true
      $0.isWaitingToSave = true
    }
    test.send(.quietPeriodEnded, decisions: [.write(["eggs"])]) {
      $0.hasUnsavedChanges = false
      $0.isWaitingToSave = false
      $0.isWriting = true
    }
  }

  @Test func aChangeDuringAWriteIsWrittenAfterItNeverBesideIt() {
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
    test.send(.file(.saved)) { $0.notes.isWriting = false }
  }

  @Test func aWriteThatEndsDuringTheQuietPeriodLeavesTheNextWriteToItsEnd() {
    var state = loaded(["milk"])
    state.notes.isWriting = true
    var test = CoreTest<Jotter>(state: state)
    test.send(.add("eggs"), decisions: [.file(.waitToSave(quiet))]) {
      $0.notes.value = ["milk", "eggs"]
      $0.notes.hasUnsavedChanges = true
      $0.notes.isWaitingToSave = true
    }
    test.send(.file(.saved)) { $0.notes.isWriting = false }
    test.send(.file(.quietPeriodEnded), decisions: [.file(.write(["milk", "eggs"]))]) {
      $0.notes.hasUnsavedChanges = false
      $0.notes.isWaitingToSave = false
      $0.notes.isWriting = true
    }
  }

  @Test func saveNowCancelsTheWaitAndWritesAndWithNothingChangedWritesNothing() {
    var test = CoreTest<Jotter>(state: loaded())
    test.send(.file(.saveNowRequested))
    test.send(.add("milk"), decisions: [.file(.waitToSave(quiet))]) {
      $0.notes.value = ["milk"]
      $0.notes.hasUnsavedChanges = true
      $0.notes.isWaitingToSave = true
    }
    test.send(.file(.saveNowRequested), decisions: [.file(.cancelWait), .file(.write(["milk"]))]) {
      $0.notes.hasUnsavedChanges = false
      $0.notes.isWaitingToSave = false
      $0.notes.isWriting = true
    }
    test.send(.file(.saveNowRequested))  // the write runs, and nothing changed since
  }

  @Test func aFailedWriteIsKeptAndTriedAgainByTheNextChangeOrSaveNowNotByItself() {
    var state = loaded(["milk"])
    state.notes.isWriting = true
    var test = CoreTest<Jotter>(state: state)
    let full = JSONFileError.writeFailed(path: "n.json", reason: "full")
    test.send(.file(.saveFailed(full))) {
      $0.notes.isWriting = false
      $0.notes.saveError = full
      $0.notes.hasUnsavedChanges = true
    }
    test.send(.file(.saveNowRequested), decisions: [.file(.write(["milk"]))]) {
      $0.notes.hasUnsavedChanges = false
      $0.notes.isWriting = true
    }
    test.send(.file(.saveFailed(full))) {
      $0.notes.isWriting = false
      $0.notes.hasUnsavedChanges = true
    }
    test.send(.add("eggs"), decisions: [.file(.waitToSave(quiet))]) {
      $0.notes.value = ["milk", "eggs"]
      $0.notes.isWaitingToSave = true
    }
    test.send(.file(.quietPeriodEnded), decisions: [.file(.write(["milk", "eggs"]))]) {
      $0.notes.hasUnsavedChanges = false
      $0.notes.isWaitingToSave = false
      $0.notes.isWriting = true
    }
    test.send(.file(.saved)) {
      $0.notes.isWriting = false
      $0.notes.saveError = nil
    }
  }

  @Test func aChangeBeforeTheFileLoadedIsUndoneAndNothingIsWrittenOverAFileThatDidNotLoad() {
    var test = CoreTest<Jotter>(state: .init())
    test.send(.add("milk"))
    test.send(.file(.edited(["milk"])))
    test.send(.file(.loadFailed(corrupt))) { $0.notes.status = .failed(corrupt) }
    test.send(.add("milk"))
    test.send(.file(.saveNowRequested))
    test.send(.file(.quietPeriodEnded))
    test.send(.file(.saved))
    test.send(.file(.startOverTapped), decisions: [.file(.moveAside)]) {
      $0.notes.status = .movingAside
    }
    test.send(.add("milk"))
  }

  @Test func aStateThatSaysUnsavedWritesNothingUntilTheFileLoads() {
    var state = Jotter.State(notes: .init(["milk"], status: .failed(corrupt)))
    state.notes.hasUnsavedChanges = true
    var test = CoreTest<Jotter>(state: state)
    test.send(.file(.saveNowRequested))
    test.send(.file(.quietPeriodEnded))
  }

  @Test func aNestedRunDecidesAChangeOnceAfterTheWholeStep() {
    var test = CoreTest<Jotter>(state: loaded())
    test.send(.addTwice("milk"), decisions: [.file(.waitToSave(quiet))]) {
      $0.notes.value = ["milk", "milk"]
      $0.notes.hasUnsavedChanges = true
      $0.notes.isWaitingToSave = true
    }
    test.send(.addAfterNested("eggs"), decisions: [.file(.waitToSave(quiet))]) {
      $0.notes.value = ["milk", "milk", "eggs", "eggs"]
    }
  }

  @Test func aNestedRunWhileLoadingUndoesTheWholeStep() {
    var test = CoreTest<Jotter>(state: .init())
    test.send(.addTwice("milk"))
    test.send(.addAfterNested("eggs"))
  }

  @Test func aChangeInTheStepThatLoadsTheFileIsSaved() {
    // The parent changes the value in the step that loaded it (a migration, say).
    var state = Jotter.State()
    let decisions = Jotter.file.savingChanges(in: &state) { state in
      let decisions = Jotter.file.makeDecisions(event: .loaded(["milk"]), in: &state)
      state.notes.value.append("eggs")
      return decisions
    }
    #expect(decisions == [.file(.waitToSave(quiet))])
    #expect(state.notes.value == ["milk", "eggs"])
    #expect(state.notes.hasUnsavedChanges && state.notes.isWaitingToSave)
  }

  @Test func retryAndStartOverAreRefusedUnlessTheLoadFailed() {
    var test = CoreTest<Jotter>(state: .init())
    test.send(.file(.retryTapped))
    test.send(.file(.startOverTapped))
    test.send(.file(.loaded(["milk"]))) {
      $0.notes.value = ["milk"]
      $0.notes.status = .loaded
    }
    // A good file is neither read again over the edits nor moved aside.
    test.send(.file(.retryTapped))
    test.send(.file(.startOverTapped))
  }

  @Test func resultsThatComeLateAreIgnored() {
    var test = CoreTest<Jotter>(state: loaded(["milk"]))
    test.send(.file(.loaded(["old"])))
    test.send(.file(.loadFailed(corrupt)))
    test.send(.file(.movedAside(to: URL(filePath: "/n.json.backup"))))
    test.send(.file(.moveAsideFailed(corrupt)))
  }

  @Test func retryLoadsAgainAndStartOverKeepsTheFileAsABackup() {
    let newer = JSONFileError.newerVersion(path: "n.json", found: 2, supported: 1)
    let stuck = JSONFileError.moveAsideFailed(path: "n.json", reason: "Permission denied")
    var test = CoreTest<Notes>(state: .init([], status: .failed(newer)))
    test.send(.retryTapped, decisions: [.load]) { $0.status = .loading }
    test.send(.loadFailed(newer)) { $0.status = .failed(newer) }
    test.send(.startOverTapped, decisions: [.moveAside]) { $0.status = .movingAside }
    test.send(.moveAsideFailed(stuck)) { $0.status = .failed(stuck) }
    test.send(.startOverTapped, decisions: [.moveAside]) { $0.status = .movingAside }
    let backup = URL(filePath: "/n.json.backup")
    test.send(.movedAside(to: backup)) {
      $0.status = .loaded
      $0.backup = backup
    }
    test.send(.edited(["milk"]), decisions: [.waitToSave(quiet)]) {
      $0.value = ["milk"]
      $0.hasUnsavedChanges = true
      $0.isWaitingToSave = true
    }
  }

  /// A quiet period from a decoded state may be any `Duration`: the state encodes and decodes
  /// whatever it holds, and the wait for it is kept to what a clock can sleep (a wait of
  /// `.seconds(Int64.max)` trapped the system clock at the first edit).
  @Test func aHostileQuietPeriodDecodesAndItsWaitDoesNotTrap() async throws {
    let hostile = Notes.State(value: [], status: .loaded, quietPeriod: .seconds(Int64.max))
    let json = try JSONEncoder().encode(hostile)
    let decoded = try JSONDecoder().decode(Notes.State.self, from: json)
    #expect(decoded == hostile)
    let folder = try TemporaryFolder()
    let clock = SystemClockProbe()
    let file = JSONFile<[String]>(url: folder.url.appending(path: "notes.json"))
    let store = Store<Notes>(state: decoded, deps: .file(file, clock: clock))
    await store.settle()
    #expect(await store.state.isLoaded)
    await store.send(.edited(["milk"]))
    await clock.firstSleep()
    let deadlines = clock.deadlines
    #expect(deadlines.count == 1)
    #expect(
      deadlines.allSatisfy {
        ContinuousClock.now.duration(to: $0) <= .seconds(100 * 365 * 24 * 3600)
      })
    await store.stop()
  }

  /// Hashable as `==` compares: a value set in a step is the same state as one made with it, so
  /// an exploration counts it once; a field `==` compares tells states apart.
  @Test func aStateHashesAsItCompares() {
    var edited = Notes.State(["a"], status: .loaded)
    edited.value = ["b"]
    let made = Notes.State(value: ["b"], status: .loaded)
    #expect(edited == made && edited.hashValue == made.hashValue)
    let others = [
      Notes.State(value: ["b"], status: .loading),
      Notes.State(value: ["b"], status: .loaded, hasUnsavedChanges: true),
      Notes.State(value: ["b"], status: .loaded, isWaitingToSave: true),
      Notes.State(value: ["b"], status: .loaded, isWriting: true),
      Notes.State(value: ["b"], status: .loaded, saveError: corrupt),
      Notes.State(value: ["b"], status: .loaded, backup: URL(fileURLWithPath: "/tmp/n.json~")),
      Notes.State(value: ["b"], status: .loaded, quietPeriod: .seconds(2)),
      Notes.State(value: ["c"], status: .loaded),
    ]
    #expect(Set(others + [edited, made]).count == others.count + 1)
  }
}

// MARK: - The store, on real files

@Suite(.timeLimit(.minutes(3))) struct PersistedFileTests {
  private static func file(in folder: TemporaryFolder) -> JSONFile<[String]> {
    JSONFile(url: folder.url.appending(path: "notes.json"))
  }

  @Test func theFileLoadsAtStartAndAChangeIsWrittenAfterTheQuietPeriod() async throws {
    let folder = try TemporaryFolder("PersistedFileTests")
    let file = Self.file(in: folder)
    try file.save(["milk"])
    let clock = TestClock()
    let test = StoreTest<Jotter>(state: .init(), deps: .init(file: .file(file, clock: clock)))
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

  @Test func changesWithinTheQuietPeriodAreWrittenOnceAfterTheLast() async throws {
    let folder = try TemporaryFolder("PersistedFileTests")
    let file = Self.file(in: folder)
    let clock = TestClock()
    let test = StoreTest<Notes>(
      state: .init([], status: .loaded), deps: .file(file, clock: clock), start: .skipped)
    await test.send(.edited(["milk"]), decisions: [.waitToSave(quiet)]) {
      $0.value = ["milk"]
      $0.hasUnsavedChanges = true
      $0.isWaitingToSave = true
    }
    await clock.advance(by: .milliseconds(600))
    await test.send(.edited(["milk", "eggs"]), decisions: [.waitToSave(quiet)]) {
      $0.value = ["milk", "eggs"]
    }
    await clock.advance(by: .milliseconds(600))  // the first wait would have ended
    #expect(try file.load() == nil)
    await clock.advance(by: .milliseconds(400))
    await test.receive(.quietPeriodEnded, decisions: [.write(["milk", "eggs"])]) {
      $0.hasUnsavedChanges = false
      $0.isWaitingToSave = false
      $0.isWriting = true
    }
    await test.receive(.saved) { $0.isWriting = false }
    #expect(try file.load() == ["milk", "eggs"])
    await test.finish()
  }

  @Test func saveNowWritesAtOnceAndEndsTheWait() async throws {
    let folder = try TemporaryFolder("PersistedFileTests")
    let file = Self.file(in: folder)
    let clock = TestClock()
    let test = StoreTest<Notes>(
      state: .init([], status: .loaded), deps: .file(file, clock: clock), start: .skipped)
    await test.send(.edited(["milk"]), decisions: [.waitToSave(quiet)]) {
      $0.value = ["milk"]
      $0.hasUnsavedChanges = true
      $0.isWaitingToSave = true
    }
    await test.send(.saveNowRequested, decisions: [.cancelWait, .write(["milk"])]) {
      $0.hasUnsavedChanges = false
      $0.isWaitingToSave = false
      $0.isWriting = true
    }
    await test.receive(.saved) { $0.isWriting = false }
    #expect(try file.load() == ["milk"])
    #expect(clock.sleeperCount == 0)
    await test.finish()
  }

  @Test func oneWriteRunsAtATimeAndTheChangeMadeDuringItIsWrittenAfter() async throws {
    let folder = try TemporaryFolder("PersistedFileTests")
    let file = Self.file(in: folder)
    let clock = TestClock()
    let writes = ControlledDependency<[String], Void>()
    var deps = Notes.Deps.file(file, clock: clock)
    deps.save = { value throws(JSONFileError) in
      do { try await writes(value) } catch { throw .writeFailed(path: "", reason: "cancelled") }
      try file.save(value)
    }
    let test = StoreTest<Notes>(state: .init([], status: .loaded), deps: deps, start: .skipped)
    await test.send(.edited(["milk"]), decisions: [.waitToSave(quiet)]) {
      $0.value = ["milk"]
      $0.hasUnsavedChanges = true
      $0.isWaitingToSave = true
    }
    await test.send(.saveNowRequested, decisions: [.cancelWait, .write(["milk"])]) {
      $0.hasUnsavedChanges = false
      $0.isWaitingToSave = false
      $0.isWriting = true
    }
    let first = try await writes.nextCall()
    await test.send(.edited(["milk", "eggs"]), decisions: [.waitToSave(quiet)]) {
      $0.value = ["milk", "eggs"]
      $0.hasUnsavedChanges = true
      $0.isWaitingToSave = true
    }
    await test.send(.saveNowRequested, decisions: [.cancelWait]) {
      $0.isWaitingToSave = false
    }
    await clock.advance(by: .seconds(5))
    #expect(writes.callCount == 1)  // the first write still runs: the second waits for it
    first.answer(())
    await test.receive(.saved, decisions: [.write(["milk", "eggs"])]) {
      $0.hasUnsavedChanges = false
    }
    let second = try await writes.nextCall()
    #expect(second.arguments == ["milk", "eggs"])
    second.answer(())
    await test.receive(.saved) { $0.isWriting = false }
    #expect(try file.load() == ["milk", "eggs"])
    await test.finish()
  }

  @Test func aFailedWriteKeepsTheFileAndTheNextChangeWritesAgain() async throws {
    let folder = try TemporaryFolder("PersistedFileTests")
    let blocker = folder.url.appending(path: "data")
    let file = JSONFile<[String]>(url: blocker.appending(path: "notes.json"))
    let clock = TestClock()
    let test = StoreTest<Notes>(
      state: .init([], status: .loaded), deps: .file(file, clock: clock), start: .skipped)
    try Data("not a folder".utf8).write(to: blocker)  // where the file's folder goes
    await test.send(.edited(["milk"]), decisions: [.waitToSave(quiet)]) {
      $0.value = ["milk"]
      $0.hasUnsavedChanges = true
      $0.isWaitingToSave = true
    }
    await test.send(.saveNowRequested, decisions: [.cancelWait, .write(["milk"])]) {
      $0.hasUnsavedChanges = false
      $0.isWaitingToSave = false
      $0.isWriting = true
    }
    let failure = JSONFileError.writeFailed(
      path: file.url.path, reason: "\(blocker.path) is a file, not a folder")
    await test.receive(.saveFailed(failure)) {
      $0.isWriting = false
      $0.saveError = failure
      $0.hasUnsavedChanges = true
    }
    await clock.advance(by: .seconds(10))  // not tried again by itself
    try FileManager.default.removeItem(at: blocker)
    await test.send(.edited(["milk", "eggs"]), decisions: [.waitToSave(quiet)]) {
      $0.value = ["milk", "eggs"]
      $0.isWaitingToSave = true
    }
    await clock.advance(by: .seconds(1))
    await test.receive(.quietPeriodEnded, decisions: [.write(["milk", "eggs"])]) {
      $0.hasUnsavedChanges = false
      $0.isWaitingToSave = false
      $0.isWriting = true
    }
    await test.receive(.saved) {
      $0.isWriting = false
      $0.saveError = nil
    }
    #expect(try file.load() == ["milk", "eggs"])
    await test.finish()
  }

  @Test func aFileThatDoesNotLoadIsNeverWrittenOverAndIsKeptWhenStartingOver() async throws {
    let folder = try TemporaryFolder("PersistedFileTests")
    let file = Self.file(in: folder)
    let bytes = Data("milk, eggs".utf8)
    try bytes.write(to: file.url)
    let clock = TestClock()
    let test = StoreTest<Jotter>(state: .init(), deps: .init(file: .file(file, clock: clock)))
    await test.expectStart(decisions: [.file(.load)])
    let error = JSONFileError.corrupt(path: file.url.path, reason: "it is not valid JSON")
    await test.receive(.file(.loadFailed(error))) { $0.notes.status = .failed(error) }
    await test.send(.add("milk"))
    await test.send(.file(.saveNowRequested))
    await clock.advance(by: .seconds(10))
    #expect(try Data(contentsOf: file.url) == bytes)

    let backup = URL(filePath: file.url.path + ".backup")
    await test.send(.file(.startOverTapped), decisions: [.file(.moveAside)]) {
      $0.notes.status = .movingAside
    }
    await test.receive(.file(.movedAside(to: backup))) {
      $0.notes.status = .loaded
      $0.notes.backup = backup
    }
    #expect(try folder.names() == ["notes.json.backup"])  // no file, until the first save
    #expect(try Data(contentsOf: backup) == bytes)
    await test.send(.add("milk"), decisions: [.file(.waitToSave(quiet))]) {
      $0.notes.value = ["milk"]
      $0.notes.hasUnsavedChanges = true
      $0.notes.isWaitingToSave = true
    }
    await test.send(
      .file(.saveNowRequested), decisions: [.file(.cancelWait), .file(.write(["milk"]))]
    ) {
      $0.notes.hasUnsavedChanges = false
      $0.notes.isWaitingToSave = false
      $0.notes.isWriting = true
    }
    await test.receive(.file(.saved)) { $0.notes.isWriting = false }
    #expect(try file.load() == ["milk"])
    #expect(try folder.names() == ["notes.json", "notes.json.backup"])
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
