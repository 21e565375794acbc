import Decisions
import Foundation
import Testing

// `read()` and `write(_:)`: `load()` and `save(_:)` with the file work off the caller's isolation
// and the value encoded and decoded on it, so main-actor code keeps a main-actor model type.
@Suite struct JSONFileReadWriteTests {
  typealias Folder = JSONFileTests.Folder
  typealias Notebook = JSONFileTests.Notebook

  /// A model type whose `Codable` is isolated to the main actor, as a type of a module with default
  /// main-actor isolation is.
  @MainActor struct Shelf: @MainActor Codable, @MainActor Equatable {
    var books: [String]
  }

  @Test func writeWritesWhatSaveWritesAndReadReadsIt() async throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("a/notes.json"), version: 3)
    #expect(try await file.read() == nil)
    try await file.write(Notebook(notes: ["milk"]))
    #expect(try await file.read() == Notebook(notes: ["milk"]))
    let written = try folder.bytes("a/notes.json")
    try file.save(Notebook(notes: ["milk"]))
    #expect(try folder.bytes("a/notes.json") == written)
    #expect(try file.load() == Notebook(notes: ["milk"]))
  }

  @Test func writeRefusesToReplaceAFileThatDoesNotLoad() async throws {
    let folder = try Folder()
    try folder.write("milk, eggs", to: "notes.json")
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    let corrupt = JSONFileError.corrupt(path: file.url.path, reason: "it is not valid JSON")
    await #expect(throws: corrupt) { try await file.read() }
    await #expect(throws: JSONFileError.refusedToReplace(corrupt)) {
      try await file.write(Notebook(notes: ["x"]))
    }
    #expect(try folder.bytes("notes.json") == Data("milk, eggs".utf8))
  }

  @Test func readRefusesANewerVersion() async throws {
    let folder = try Folder()
    try JSONFile<Notebook>(url: folder.file("notes.json"), version: 2).save(Notebook(notes: []))
    let file = JSONFile<Notebook>(url: folder.file("notes.json"), version: 1)
    await #expect(throws: JSONFileError.newerVersion(path: file.url.path, found: 2, supported: 1)) {
      try await file.read()
    }
  }

  @MainActor @Test func aMainActorModelTypeIsKeptFromTheMainActor() async throws {
    let folder = try Folder()
    let file = JSONFile<Shelf>(url: folder.file("shelf.json"))
    try file.save(Shelf(books: ["Emma"]))
    #expect(try file.load() == Shelf(books: ["Emma"]))
    try await file.write(Shelf(books: ["Emma", "Persuasion"]))
    #expect(try await file.read() == Shelf(books: ["Emma", "Persuasion"]))
  }
}
