// The tests of Docs/Persistence.md, compiled and run: the notes screen's core, and its store on a
// real file in a temporary folder, with a TestClock for the quiet period. No test waits for real
// time to pass. The component's own tests, guard by guard, are in PersistedTests.swift.

import Decisions
import DecisionsTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct PersistenceGuideTests {
  // MARK: - The core

  @Suite struct TheCore {
    @Test func theStartLoadsTheFile() {
      var test = CoreTest<Notes>(state: .init())
      test.start(decisions: [.file(.load)])
      test.send(.file(.loaded(["milk"]))) {
        $0.notes.value = ["milk"]
        $0.notes.status = .loaded
      }
    }

    @Test func anEditDuringAWriteIsWrittenAfterItNeverBesideIt() {
      var state = Notes.State(notes: .init(["milk"], status: .loaded))
      state.notes.isWriting = true
      var test = CoreTest<Notes>(state: state)
      test.send(.added("eggs"), decisions: [.file(.waitToSave(.seconds(1)))]) {
        $0.notes.value = ["milk", "eggs"]
        $0.notes.hasUnsavedChanges = true
        $0.notes.isWaitingToSave = true
      }
      // The quiet period ends while the first write still runs: the second waits for it.
      test.send(.file(.quietPeriodEnded)) { $0.notes.isWaitingToSave = false }
      test.send(.file(.saved), decisions: [.file(.write(["milk", "eggs"]))]) {
        $0.notes.hasUnsavedChanges = false
      }
      test.send(.file(.saved)) { $0.notes.isWriting = false }
    }

    @Test func editsBeforeTheFileLoadedAreUndoneAndAFailedLoadSavesNothing() {
      let corrupt = JSONFileError.corrupt(path: "/n.json", reason: "it is not valid JSON")
      var test = CoreTest<Notes>(state: .init())
      test.start(decisions: [.file(.load)])
      test.send(.added("milk"))  // undone: the file's notes are not known yet
      test.send(.file(.loadFailed(corrupt))) { $0.notes.status = .failed(corrupt) }
      test.send(.added("milk"))
      test.send(.removed(at: 0))
      test.send(.file(.saveNowRequested))
      test.send(.file(.quietPeriodEnded))
    }

    @Test func removingANoteThatIsNotThereSavesNothing() {
      var test = CoreTest<Notes>(state: .init(notes: .init(["milk"], status: .loaded)))
      test.send(.removed(at: 1))
      test.send(.removed(at: -1))
      test.send(.removed(at: 0), decisions: [.file(.waitToSave(.seconds(1)))]) {
        $0.notes.value = []
        $0.notes.hasUnsavedChanges = true
        $0.notes.isWaitingToSave = true
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

  /// The app's deps on `file` and `clock`, recording each list of notes written in `writes`.
  static func deps(
    file: JSONFile<[String]>, clock: TestClock, writes: Calls<[String]> = Calls()
  ) -> Notes.Deps {
    var deps = Persisted<[String]>.Deps.file(file, clock: clock)
    deps.save = { notes throws(JSONFileError) in
      writes.record(notes)
      try file.save(notes)
    }
    return Notes.Deps(file: deps)
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
      try file.save(["milk"])
      let test = StoreTest<Notes>(
        state: .init(), deps: PersistenceGuideTests.deps(file: file, clock: TestClock()))
      await test.expectStart(decisions: [.file(.load)])
      await test.receive(.file(.loaded(["milk"]))) {
        $0.notes.value = ["milk"]
        $0.notes.status = .loaded
      }
      await test.finish()
    }

    @Test func theFirstRunStartsWithNoNotesAndWritesNoFile() async throws {
      let folder = try Folder()
      let test = StoreTest<Notes>(
        state: .init(),
        deps: PersistenceGuideTests.deps(file: notesFile(in: folder.url), clock: TestClock()))
      await test.expectStart(decisions: [.file(.load)])
      await test.receive(.file(.loaded(nil))) { $0.notes.status = .loaded }
      await test.finish()
      #expect(try folder.names() == [])
    }

    @Test func editsWithinTheQuietPeriodWriteTheLastNotesOnce() async throws {
      let folder = try Folder()
      let file = notesFile(in: folder.url)
      let clock = TestClock()
      let writes = Calls<[String]>()
      let test = StoreTest<Notes>(
        state: .init(),
        deps: PersistenceGuideTests.deps(file: file, clock: clock, writes: writes))
      await test.expectStart(decisions: [.file(.load)])
      await test.receive(.file(.loaded(nil))) { $0.notes.status = .loaded }

      await test.send(.added("milk"), decisions: [.file(.waitToSave(.seconds(1)))]) {
        $0.notes.value = ["milk"]
        $0.notes.hasUnsavedChanges = true
        $0.notes.isWaitingToSave = true
      }
      await clock.advance(by: .milliseconds(500))
      await test.send(.added("eggs"), decisions: [.file(.waitToSave(.seconds(1)))]) {
        $0.notes.value = ["milk", "eggs"]
      }
      await clock.advance(by: .milliseconds(500))
      await test.send(.removed(at: 0), decisions: [.file(.waitToSave(.seconds(1)))]) {
        $0.notes.value = ["eggs"]
      }
      await clock.advance(by: .milliseconds(999))
      #expect(writes.all == [])  // 1 ms before the end of the quiet period: nothing written
      #expect(try file.load() == nil)
      await clock.advance(by: .milliseconds(1))
      await test.receive(.file(.quietPeriodEnded), decisions: [.file(.write(["eggs"]))]) {
        $0.notes.hasUnsavedChanges = false
        $0.notes.isWaitingToSave = false
        $0.notes.isWriting = true
      }
      await test.receive(.file(.saved)) { $0.notes.isWriting = false }
      #expect(writes.all == [["eggs"]])
      #expect(try file.load() == ["eggs"])
      await test.finish()
    }

    @Test func saveNowWritesAtOnce() async throws {
      let folder = try Folder()
      let file = notesFile(in: folder.url)
      let clock = TestClock()
      let test = StoreTest<Notes>(
        state: .init(), deps: PersistenceGuideTests.deps(file: file, clock: clock))
      await test.expectStart(decisions: [.file(.load)])
      await test.receive(.file(.loaded(nil))) { $0.notes.status = .loaded }
      await test.send(.added("milk"), decisions: [.file(.waitToSave(.seconds(1)))]) {
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
          text = #"{"formatVersion": 1, "value": ["milk", "eg"#
          error = .truncated(path: path, byteCount: text.utf8.count)
        case .newerVersion:
          text = #"{"formatVersion": 2, "value": {"pages": [["milk"]]}}"#
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
      let writes = Calls<[String]>()
      let test = await StoreTest<Notes>(
        state: .init(),
        deps: PersistenceGuideTests.deps(file: file, clock: clock, writes: writes), on: kind)
      await test.expectStart(decisions: [.file(.load)])
      await test.receive(.file(.loadFailed(error))) { $0.notes.status = .failed(error) }

      // Edits and saves are refused while the file has not loaded.
      await test.send(.added("milk"))
      await test.send(.file(.saveNowRequested))
      await clock.advance(by: .seconds(10))
      #expect(writes.all == [])
      #expect(try folder.names() == ["notes.json"])
      if let bytes { #expect(try Data(contentsOf: file.url) == bytes) }

      // Starting over keeps the file as a backup, whole, and only then saves edits.
      let backup = URL(filePath: file.url.path + ".backup")
      await test.send(.file(.startOverTapped), decisions: [.file(.moveAside)]) {
        $0.notes.status = .movingAside
      }
      await test.receive(.file(.movedAside(to: backup))) {
        $0.notes.status = .loaded
        $0.notes.backup = backup
      }
      await test.send(.added("milk"), decisions: [.file(.waitToSave(.seconds(1)))]) {
        $0.notes.value = ["milk"]
        $0.notes.hasUnsavedChanges = true
        $0.notes.isWaitingToSave = true
      }
      await clock.advance(by: .seconds(1))
      await test.receive(.file(.quietPeriodEnded), decisions: [.file(.write(["milk"]))]) {
        $0.notes.hasUnsavedChanges = false
        $0.notes.isWaitingToSave = false
        $0.notes.isWriting = true
      }
      await test.receive(.file(.saved)) { $0.notes.isWriting = false }
      await test.finish()
      #expect(try file.load() == ["milk"])
      #expect(try folder.names() == ["notes.json", "notes.json.backup"])
      if let bytes { #expect(try Data(contentsOf: backup) == bytes) }
    }

    @Test func aWriteThatFailsIsShownAndTheNextSaveTriesAgain() async throws {
      let folder = try Folder()
      let file = notesFile(in: folder.url.appending(path: "data"))
      let clock = TestClock()
      let test = StoreTest<Notes>(
        state: .init(), deps: PersistenceGuideTests.deps(file: file, clock: clock))
      await test.expectStart(decisions: [.file(.load)])
      await test.receive(.file(.loaded(nil))) { $0.notes.status = .loaded }
      // Something else puts a file where the notes' folder goes.
      let blocker = folder.url.appending(path: "data")
      try Data("not a folder".utf8).write(to: blocker)

      await test.send(.added("milk"), decisions: [.file(.waitToSave(.seconds(1)))]) {
        $0.notes.value = ["milk"]
        $0.notes.hasUnsavedChanges = true
        $0.notes.isWaitingToSave = true
      }
      await clock.advance(by: .seconds(1))
      await test.receive(.file(.quietPeriodEnded), decisions: [.file(.write(["milk"]))]) {
        $0.notes.hasUnsavedChanges = false
        $0.notes.isWaitingToSave = false
        $0.notes.isWriting = true
      }
      let failure = JSONFileError.writeFailed(
        path: file.url.path, reason: "\(blocker.path) is a file, not a folder")
      await test.receive(.file(.saveFailed(failure))) {
        $0.notes.isWriting = false
        $0.notes.saveError = failure
        $0.notes.hasUnsavedChanges = true
      }
      #expect(try Data(contentsOf: blocker) == Data("not a folder".utf8))

      try FileManager.default.removeItem(at: blocker)
      await test.send(.file(.saveNowRequested), decisions: [.file(.write(["milk"]))]) {
        $0.notes.hasUnsavedChanges = false
        $0.notes.isWriting = true
      }
      await test.receive(.file(.saved)) {
        $0.notes.isWriting = false
        $0.notes.saveError = nil
      }
      #expect(try file.load() == ["milk"])
      await test.finish()
    }
  }
}
