import Decisions
import Foundation
import TestSupport
import Testing

/// Session ten's attacks on documented promises.
///
/// Hostile paths and files for `JSONFile`, hostile flight recordings, and an `IdentifiedArray`
/// whose predicate throws. Each test fails on the code it was written against, for the bug its
/// comment names.
@Suite struct SessionTenAttackTests {
  struct Notebook: Codable, Equatable {
    var notes: [String]
  }

  // MARK: - JSONFile: a path with a NUL in it

  /// A path with a NUL byte is cut short at it.
  ///
  /// `JSONFile.init(url:…)`: a URL that cannot name a file ("its path is empty, or is not UTF-8",
  /// not a file URL) makes each call throw. A path with a NUL byte cannot name a file either, but
  /// the POSIX calls read the path as a C string and stop at the NUL: a `JSONFile` of
  /// `notes%00.json` writes and reads `notes`, another file.
  @Test func aPathWithANulByteIsRefusedNotCutShortAtIt() throws {
    let folder = try TemporaryFolder()
    let url = try #require(URL(string: folder.url.absoluteString + "/notes%00.json"))
    #expect(url.path(percentEncoded: false).utf8.contains(0))
    let file = JSONFile<Notebook>(url: url)

    #expect(throws: JSONFileError.self) { try file.save(Notebook(notes: ["milk"])) }
    let names = try folder.names()
    #expect(names == [], "the save wrote another file: \(names)")

    // Another program's file, at the path cut at the NUL, is read as this JSONFile's.
    let other = folder.url.appending(path: "notes")
    try Data(#"{"formatVersion": 1, "value": {"notes": ["theirs"]}}"#.utf8).write(to: other)
    #expect(throws: JSONFileError.self) { _ = try file.load() }
  }

  // MARK: - JSONFile: a whole file with more after it

  /// A whole envelope with a stray `{` after it is reported as truncated.
  ///
  /// JSONFileError.truncated: "The file is empty, or its JSON ends before its value does: a write
  /// that stopped halfway." A file whose envelope is whole, followed by a stray `{`, did not stop
  /// halfway: it is corrupt (text after the value). It is reported as truncated, the message a user
  /// reads as "the save was cut short".
  @Test func aWholeEnvelopeWithTextAfterItIsCorruptNotTruncated() throws {
    let folder = try TemporaryFolder()
    let file = JSONFile<Notebook>(url: folder.url.appending(path: "notes.json"))
    try Data(#"{"formatVersion": 1, "value": {"notes": ["milk"]}} {"#.utf8).write(to: file.url)
    let error = try #require(throws: JSONFileError.self) { try file.load() }
    guard case .corrupt = error else {
      Issue.record("expected .corrupt, got \(error)")
      return
    }
  }

  // MARK: - JSONFile: a value JSONEncoder refuses

  /// A value as deep as its data: each level is one object and one array in the JSON.
  struct Nest: Codable, Equatable {
    var label: String
    var children: [Nest]

    static func deep(_ depth: Int, label: String) -> Nest {
      var nest = Nest(label: label, children: [])
      for _ in 0..<depth { nest = Nest(label: label, children: [nest]) }
      return nest
    }
  }

  /// A value too deep to write gives an error that holds the whole value.
  ///
  /// JSONFileError: "Its description is a sentence for the user, naming the file." A value nested
  /// deeper than JSONEncoder writes fails with `.writeFailed`, whose reason is the encoder's error
  /// as text: the whole value, every level of it, with the user's data (here 300 labels),
  /// unbounded (a large value gives a message of megabytes).
  @Test func aValueTooDeepToWriteGivesASentenceNotTheValue() throws {
    let folder = try TemporaryFolder()
    let file = JSONFile<Nest>(url: folder.url.appending(path: "nest.json"))
    let error = try #require(throws: JSONFileError.self) {
      try file.save(Nest.deep(300, label: "private note"))
    }
    guard case .writeFailed = error else {
      Issue.record("expected .writeFailed, got \(error)")
      return
    }
    #expect(error.description.count < 1_000, "\(error.description.count) characters")
    #expect(!error.description.contains("private note"))
  }

  // MARK: - Flight recordings: what an error quotes

  /// A feature whose state nests dictionaries keyed by text from the file.
  enum Shelves: Feature {
    struct Shelf: Codable, Equatable, Sendable {
      var count = 0
      var sub: [String: Shelf] = [:]
    }
    struct State: Codable, Equatable, Sendable {
      var root = Shelf()
    }
    enum Event: Codable, Equatable, Sendable {
      case add
    }
    typealias Decision = Never
    typealias Deps = Void
    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      state.root.count += 1
      return []
    }
    static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {}
  }

  /// An error's path quotes thousands of characters of the file.
  ///
  /// Recording.md: "Each error describes itself in a sentence, and quotes at most a few hundred
  /// characters of the file." `.invalidContents` cuts each key of the path to 40 characters, but
  /// not the path: 200 levels of keys from the file give a message of 9,000 characters, 8,000 of
  /// them the file's.
  @Test func anErrorQuotesAtMostAFewHundredCharactersOfTheFile() throws {
    let key = String(repeating: "k", count: 40)
    var shelf = #"{"count": "not a number", "sub": {}}"#
    for _ in 0..<200 { shelf = #"{"count": 0, "sub": {"\#(key)": \#(shelf)}}"# }
    let json = """
      {"format": "decisions.flight-recording", "version": 1, \
      "feature": "\(String(reflecting: Shelves.self))", \
      "trigger": {"kind": "requested", "note": "n"}, "capacity": 4, "checkpointInterval": 2, \
      "eventsBefore": 0, "redacted": false, "initialState": {"root": \(shelf)}, \
      "events": [], "finalState": {"root": {"count": 0, "sub": {}}}}
      """
    let error = try #require(throws: FlightRecordingError.self) {
      try FlightRecording<Shelves>(json: json.utf8)
    }
    guard case .invalidContents = error else {
      Issue.record("expected .invalidContents, got \(error)")
      return
    }
    #expect(error.description.count < 1_000, "\(error.description.count) characters")
  }

  // MARK: - IdentifiedArray: a predicate that throws

  struct Row: Identifiable, Equatable {
    var id: String
  }

  struct Stop: Error {}

  /// A predicate that throws leaves the index of ids stale.
  ///
  /// `removeAll(where:)` rethrows. When the predicate throws part of the way through, the
  /// elements are left half moved and the index of ids is not rebuilt: `rows[id: "b"]` then
  /// returns the row with id "x" (which the predicate had accepted for removal, and which is
  /// still in the collection with no id leading to it). Every other mutation keeps
  /// `self[id: id]?.id == id`; a rethrowing one must too.
  @Test func aThrowingRemoveAllLeavesEachIdLeadingToItsElement() {
    var rows: IdentifiedArray<Row> = [Row(id: "a"), Row(id: "x"), Row(id: "b"), Row(id: "c")]
    #expect(throws: Stop.self) {
      try rows.removeAll { row in
        if row.id == "c" { throw Stop() }
        return row.id == "x"
      }
    }
    for (position, row) in rows.enumerated() {
      let found = rows[id: row.id]
      #expect(found == row, "rows[id: \(row.id)] is \(String(describing: found))")
      #expect(rows.index(id: row.id) == position)
    }
  }
}
