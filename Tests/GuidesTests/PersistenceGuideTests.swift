// The tests of Docs/Persistence.md, compiled and run: the notes screen's core, and its store on a
// real file in a temporary folder, with a TestClock for the quiet period. No test waits for real
// time to pass.

import Decisions
import DecisionsTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct PersistenceGuideTests {
  // MARK: - The core

  @Suite struct TheCore {
    @Test func theStartLoadsTheFile() {
      var test = CoreTest<Notes>(state: .init())
      test.start(decisions: [.load])
      test.send(.loaded(Notebook(notes: ["milk"]))) {
        $0.file = .loaded
        $0.notes = ["milk"]
      }
    }

    @Test func editsAreWrittenOnceNoEditCameForTheQuietPeriod() {
      var test = CoreTest<Notes>(state: .init(file: .loaded))
      test.send(.added("milk"), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = ["milk"]
        $0.hasUnsavedChanges = true
        $0.isWaitingToSave = true
      }
      test.send(.added("eggs"), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = ["milk", "eggs"]
      }
      test.send(.quietPeriodEnded, decisions: [.write(Notebook(notes: ["milk", "eggs"]))]) {
        $0.hasUnsavedChanges = false
        $0.isWaitingToSave = false
        $0.isWriting = true
      }
      test.send(.saved) { $0.isWriting = false }
    }

    @Test func anEditDuringAWriteIsWrittenAfterItNeverBesideIt() {
      var test = CoreTest<Notes>(state: .init(notes: ["milk"], file: .loaded, isWriting: true))
      test.send(.added("eggs"), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = ["milk", "eggs"]
        $0.hasUnsavedChanges = true
        $0.isWaitingToSave = true
      }
      // The quiet period ends while the first write still runs: the second waits for it.
      test.send(.quietPeriodEnded) { $0.isWaitingToSave = false }
      test.send(.saved, decisions: [.write(Notebook(notes: ["milk", "eggs"]))]) {
        $0.hasUnsavedChanges = false
      }
      test.send(.saved) { $0.isWriting = false }
    }

    @Test func aWriteThatEndsDuringTheQuietPeriodLeavesTheNextWriteToItsEnd() {
      var test = CoreTest<Notes>(state: .init(notes: ["milk"], file: .loaded, isWriting: true))
      test.send(.added("eggs"), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = ["milk", "eggs"]
        $0.hasUnsavedChanges = true
        $0.isWaitingToSave = true
      }
      test.send(.saved) { $0.isWriting = false }
      test.send(.quietPeriodEnded, decisions: [.write(Notebook(notes: ["milk", "eggs"]))]) {
        $0.hasUnsavedChanges = false
        $0.isWaitingToSave = false
        $0.isWriting = true
      }
    }

    @Test func saveNowCancelsTheWaitAndWrites() {
      var test = CoreTest<Notes>(state: .init(file: .loaded))
      test.send(.added("milk"), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = ["milk"]
        $0.hasUnsavedChanges = true
        $0.isWaitingToSave = true
      }
      test.send(.saveNowRequested, decisions: [.cancelWait, .write(Notebook(notes: ["milk"]))]) {
        $0.hasUnsavedChanges = false
        $0.isWaitingToSave = false
        $0.isWriting = true
      }
      test.send(.saveNowRequested)  // the write runs, and nothing changed since
    }

    @Test func aFailedWriteIsTriedAgainByTheNextSaveNotByItself() {
      let full = JSONFileError.writeFailed(path: "/n.json", reason: "No space left on device")
      var test = CoreTest<Notes>(state: .init(notes: ["milk"], file: .loaded, isWriting: true))
      test.send(.saveFailed(full)) {
        $0.isWriting = false
        $0.saveError = full
        $0.hasUnsavedChanges = true
      }
      test.send(.saveNowRequested, decisions: [.write(Notebook(notes: ["milk"]))]) {
        $0.hasUnsavedChanges = false
        $0.isWriting = true
      }
      test.send(.saved) {
        $0.isWriting = false
        $0.saveError = nil
      }
    }

    @Test func afterAFailedLoadNothingIsEditedOrSaved() {
      let corrupt = JSONFileError.corrupt(path: "/n.json", reason: "it is not valid JSON")
      var test = CoreTest<Notes>(state: .init())
      test.start(decisions: [.load])
      test.send(.loadFailed(corrupt)) { $0.file = .failed(corrupt) }
      test.send(.added("milk"))
      test.send(.removed(at: 0))
      test.send(.saveNowRequested)
      test.send(.quietPeriodEnded)
    }

    @Test func startingOverMovesTheFileAsideAndThenSavesEdits() {
      let corrupt = JSONFileError.corrupt(path: "/n.json", reason: "it is not valid JSON")
      var test = CoreTest<Notes>(state: .init(file: .failed(corrupt)))
      test.send(.startOverTapped, decisions: [.moveAside]) { $0.file = .movingAside }
      test.send(.added("milk"))  // not yet
      let backup = URL(filePath: "/n.json.backup")
      test.send(.movedAside(to: backup)) {
        $0.file = .loaded
        $0.backup = backup
      }
      test.send(.added("milk"), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = ["milk"]
        $0.hasUnsavedChanges = true
        $0.isWaitingToSave = true
      }
    }

    @Test func tryingAgainLoadsAgainAndAFailedMoveAsideKeepsTheFailure() {
      let newer = JSONFileError.newerVersion(path: "/n.json", found: 2, supported: 1)
      let stuck = JSONFileError.moveAsideFailed(path: "/n.json", reason: "Permission denied")
      var test = CoreTest<Notes>(state: .init(file: .failed(newer)))
      test.send(.retryTapped, decisions: [.load]) { $0.file = .loading }
      test.send(.loadFailed(newer)) { $0.file = .failed(newer) }
      test.send(.startOverTapped, decisions: [.moveAside]) { $0.file = .movingAside }
      test.send(.moveAsideFailed(stuck)) { $0.file = .failed(stuck) }
    }

    @Test func removingANoteThatIsNotThereDoesNothing() {
      var test = CoreTest<Notes>(state: .init(notes: ["milk"], file: .loaded))
      test.send(.removed(at: 1))
      test.send(.removed(at: -1))
      test.send(.removed(at: 0), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = []
        $0.hasUnsavedChanges = true
        $0.isWaitingToSave = true
      }
    }
  }

  // MARK: - The store, on a real file

  /// A folder of its own for each test, removed when the test ends.
  final class Folder: Sendable {
    let url = FileManager.default.temporaryDirectory
      .appending(path: "PersistenceGuideTests-\(UUID().uuidString)")

    init() throws {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The names in the folder, sorted.
    func names() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
  }

  /// The app's deps on `file` and `clock`, recording each notebook written in `writes`.
  static func deps(
    file: JSONFile<Notebook>, clock: TestClock, writes: Calls<Notebook> = Calls()
  ) -> Notes.Deps {
    var deps = Notes.Deps.live(file: file)
    deps.clock = clock
    deps.save = { notebook throws(JSONFileError) in
      writes.record(notebook)
      try file.save(notebook)
    }
    return deps
  }

  @Test func theHelperInAFewLines() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.url.appending(path: "notes.json"), version: 1)
    var notebook = try file.load() ?? Notebook()  // nil: no file yet, the first run
    notebook.notes.append("milk")
    try file.save(notebook)
    #expect(try file.load() == Notebook(notes: ["milk"]))
  }

  @Suite struct TheStore {
    @Test func theNotesAreLoadedFromTheFileWhenTheStoreStarts() async throws {
      let folder = try Folder()
      let file = notesFile(in: folder.url)
      try file.save(Notebook(notes: ["milk"]))
      let test = StoreTest<Notes>(
        state: .init(), deps: PersistenceGuideTests.deps(file: file, clock: TestClock()))
      await test.expectStart(decisions: [.load])
      await test.receive(.loaded(Notebook(notes: ["milk"]))) {
        $0.file = .loaded
        $0.notes = ["milk"]
      }
      await test.finish()
    }

    @Test func theFirstRunStartsWithNoNotesAndWritesNoFile() async throws {
      let folder = try Folder()
      let test = StoreTest<Notes>(
        state: .init(),
        deps: PersistenceGuideTests.deps(file: notesFile(in: folder.url), clock: TestClock()))
      await test.expectStart(decisions: [.load])
      await test.receive(.loaded(nil)) { $0.file = .loaded }
      await test.finish()
      #expect(try folder.names() == [])
    }

    @Test func editsWithinTheQuietPeriodWriteTheLastNotesOnce() async throws {
      let folder = try Folder()
      let file = notesFile(in: folder.url)
      let clock = TestClock()
      let writes = Calls<Notebook>()
      let test = StoreTest<Notes>(
        state: .init(),
        deps: PersistenceGuideTests.deps(file: file, clock: clock, writes: writes))
      await test.expectStart(decisions: [.load])
      await test.receive(.loaded(nil)) { $0.file = .loaded }

      await test.send(.added("milk"), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = ["milk"]
        $0.hasUnsavedChanges = true
        $0.isWaitingToSave = true
      }
      await clock.advance(by: .milliseconds(500))
      await test.send(.added("eggs"), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = ["milk", "eggs"]
      }
      await clock.advance(by: .milliseconds(500))
      await test.send(.removed(at: 0), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = ["eggs"]
      }
      await clock.advance(by: .milliseconds(999))
      #expect(writes.all == [])  // 1 ms before the end of the quiet period: nothing written
      #expect(try file.load() == nil)
      await clock.advance(by: .milliseconds(1))
      await test.receive(.quietPeriodEnded, decisions: [.write(Notebook(notes: ["eggs"]))]) {
        $0.hasUnsavedChanges = false
        $0.isWaitingToSave = false
        $0.isWriting = true
      }
      await test.receive(.saved) { $0.isWriting = false }
      #expect(writes.all == [Notebook(notes: ["eggs"])])
      #expect(try file.load() == Notebook(notes: ["eggs"]))
      await test.finish()
    }

    @Test func saveNowWritesAtOnce() async throws {
      let folder = try Folder()
      let file = notesFile(in: folder.url)
      let clock = TestClock()
      let test = StoreTest<Notes>(
        state: .init(), deps: PersistenceGuideTests.deps(file: file, clock: clock))
      await test.expectStart(decisions: [.load])
      await test.receive(.loaded(nil)) { $0.file = .loaded }
      await test.send(.added("milk"), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = ["milk"]
        $0.hasUnsavedChanges = true
        $0.isWaitingToSave = true
      }
      await test.send(
        .saveNowRequested, decisions: [.cancelWait, .write(Notebook(notes: ["milk"]))]
      ) {
        $0.hasUnsavedChanges = false
        $0.isWaitingToSave = false
        $0.isWriting = true
      }
      await test.receive(.saved) { $0.isWriting = false }
      #expect(try file.load() == Notebook(notes: ["milk"]))
      #expect(clock.sleeperCount == 0)
      await test.finish()
    }

    /// A file that does not load, as found on disk.
    enum BadFile: String, CaseIterable, Sendable {
      case corrupt
      case truncated
      case newerVersion
      case folder

      /// Puts the bad file at `url`; returns the error loading it gives, and its bytes (none for
      /// a folder).
      func make(at url: URL) throws -> (error: JSONFileError, bytes: Data?) {
        let path = url.path
        let text: String
        let error: JSONFileError
        switch self {
        case .corrupt:
          text = "milk, eggs"
          error = .corrupt(path: path, reason: "it is not valid JSON")
        case .truncated:
          text = #"{"formatVersion": 1, "value": {"notes": ["milk", "eg"#
          error = .truncated(path: path, byteCount: text.utf8.count)
        case .newerVersion:
          text = #"{"formatVersion": 2, "value": {"pages": [{"notes": ["milk"]}]}}"#
          error = .newerVersion(path: path, found: 2, supported: 1)
        case .folder:
          try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
          return (.unreadable(path: path, reason: "it is a folder, not a file"), nil)
        }
        try Data(text.utf8).write(to: url)
        return (error, Data(text.utf8))
      }
    }

    @Test(arguments: BadFile.allCases, StoreKind.allCases)
    func aFileThatDoesNotLoadIsNeverOverwrittenAndIsKeptWhenTheUserStartsOver(
      bad: BadFile, on kind: StoreKind
    ) async throws {
      let folder = try Folder()
      let file = notesFile(in: folder.url)
      let (error, bytes) = try bad.make(at: file.url)
      let clock = TestClock()
      let writes = Calls<Notebook>()
      let test = await StoreTest<Notes>(
        state: .init(),
        deps: PersistenceGuideTests.deps(file: file, clock: clock, writes: writes), on: kind)
      await test.expectStart(decisions: [.load])
      await test.receive(.loadFailed(error)) { $0.file = .failed(error) }

      // Edits and saves are refused while the file has not loaded.
      await test.send(.added("milk"))
      await test.send(.saveNowRequested)
      await clock.advance(by: .seconds(10))
      #expect(writes.all == [])
      #expect(try folder.names() == ["notes.json"])
      if let bytes { #expect(try Data(contentsOf: file.url) == bytes) }

      // Starting over keeps the file as a backup, whole, and only then saves edits.
      let backup = URL(filePath: file.url.path + ".backup")
      await test.send(.startOverTapped, decisions: [.moveAside]) { $0.file = .movingAside }
      await test.receive(.movedAside(to: backup)) {
        $0.file = .loaded
        $0.backup = backup
      }
      await test.send(.added("milk"), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = ["milk"]
        $0.hasUnsavedChanges = true
        $0.isWaitingToSave = true
      }
      await clock.advance(by: .seconds(1))
      await test.receive(.quietPeriodEnded, decisions: [.write(Notebook(notes: ["milk"]))]) {
        $0.hasUnsavedChanges = false
        $0.isWaitingToSave = false
        $0.isWriting = true
      }
      await test.receive(.saved) { $0.isWriting = false }
      await test.finish()
      #expect(try file.load() == Notebook(notes: ["milk"]))
      #expect(try folder.names() == ["notes.json", "notes.json.backup"])
      if let bytes { #expect(try Data(contentsOf: backup) == bytes) }
    }

    @Test func aWriteThatFailsIsShownAndTheNextSaveTriesAgain() async throws {
      let folder = try Folder()
      let file = notesFile(in: folder.url.appending(path: "data"))
      let clock = TestClock()
      let test = StoreTest<Notes>(
        state: .init(), deps: PersistenceGuideTests.deps(file: file, clock: clock))
      await test.expectStart(decisions: [.load])
      await test.receive(.loaded(nil)) { $0.file = .loaded }
      // Something else puts a file where the notes' folder goes.
      let blocker = folder.url.appending(path: "data")
      try Data("not a folder".utf8).write(to: blocker)

      await test.send(.added("milk"), decisions: [.waitToSave(.seconds(1))]) {
        $0.notes = ["milk"]
        $0.hasUnsavedChanges = true
        $0.isWaitingToSave = true
      }
      await clock.advance(by: .seconds(1))
      await test.receive(.quietPeriodEnded, decisions: [.write(Notebook(notes: ["milk"]))]) {
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
      #expect(try Data(contentsOf: blocker) == Data("not a folder".utf8))

      try FileManager.default.removeItem(at: blocker)
      await test.send(.saveNowRequested, decisions: [.write(Notebook(notes: ["milk"]))]) {
        $0.hasUnsavedChanges = false
        $0.isWriting = true
      }
      await test.receive(.saved) {
        $0.isWriting = false
        $0.saveError = nil
      }
      #expect(try file.load() == Notebook(notes: ["milk"]))
      await test.finish()
    }
  }

  @Test func theComponentLoadsAtStartAndSavesAfterTheQuietPeriod() async throws {
    let folder = try Folder()
    let file = JSONFile<[String]>(url: folder.url.appending(path: "notes.json"))
    try file.save(["milk"])
    let clock = TestClock()
    let test = StoreTest<PersistedNotes>(
      state: .init(), deps: .init(file: .file(file, clock: clock)))
    await test.expectStart(decisions: [.file(.load)])
    await test.receive(.file(.loaded(["milk"]))) {
      $0.notes.value = ["milk"]
      $0.notes.status = .loaded
    }
    await test.send(.added("eggs"), decisions: [.file(.waitToSave(.seconds(1)))]) {
      $0.notes.value = ["milk", "eggs"]
      $0.notes.hasUnsavedChanges = true
      $0.notes.isWaitingToSave = true
    }
    await clock.advance(by: .seconds(1))
    await test.receive(.file(.quietPeriodEnded), decisions: [.file(.write(["milk", "eggs"]))]) {
      $0.notes.hasUnsavedChanges = false
      $0.notes.isWaitingToSave = false
      $0.notes.isWriting = true
    }
    await test.receive(.file(.saved)) { $0.notes.isWriting = false }
    #expect(try file.load() == ["milk", "eggs"])
    await test.finish()
  }
}
