import Decisions
import Foundation
import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `JSONFile` on real files in a temporary folder: each way a file can fail to load, each way a
/// save can fail, and that the file that was there is never lost.
@Suite struct JSONFileTests {
  struct Notebook: Codable, Equatable {
    var notes: [String]
  }

  /// A value whose encoding fails: JSON has no NaN.
  struct Reading: Codable, Equatable {
    var celsius: Double
  }

  /// A folder of its own for each test, removed when the test ends.
  final class Folder {
    let url = FileManager.default.temporaryDirectory
      .appending(path: "JSONFileTests-\(UUID().uuidString)")

    init() throws {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The URL of `name` in the folder.
    func file(_ name: String) -> URL { url.appending(path: name) }

    /// Writes `text` at `name`, as another program would.
    func write(_ text: String, to name: String) throws {
      try Data(text.utf8).write(to: file(name))
    }

    /// The bytes at `name`.
    func bytes(_ name: String) throws -> Data { try Data(contentsOf: file(name)) }

    /// The names in the folder, sorted.
    func names() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }
  }

  @Test func everyErrorSaysWhatHappenedToWhichFile() {
    let messages: [(JSONFileError, String)] = [
      (
        .unreadable(path: "/n.json", reason: "it is a folder, not a file"),
        "Could not read /n.json: it is a folder, not a file."
      ),
      (
        .tooLarge(path: "/n.json", byteCount: 20_000_000, limit: 16_777_216),
        "/n.json is 20000000 bytes, over the limit of 16777216: it was not read."
      ),
      (.truncated(path: "/n.json", byteCount: 0), "/n.json is empty (0 bytes)."),
      (
        .truncated(path: "/n.json", byteCount: 1),
        "/n.json is truncated: its JSON ends after 1 byte, before its value does."
      ),
      (
        .truncated(path: "/n.json", byteCount: 80),
        "/n.json is truncated: its JSON ends after 80 bytes, before its value does."
      ),
      (
        .corrupt(path: "/n.json", reason: "it is not valid JSON"),
        "/n.json is corrupt: it is not valid JSON."
      ),
      (
        .newerVersion(path: "/n.json", found: 3, supported: 2),
        "/n.json is in format version 3, newer than the 2 this app reads: update the app to "
          + "open it."
      ),
      (
        .refusedToReplace(.truncated(path: "/n.json", byteCount: 0)),
        "Did not save over /n.json, which does not load: move it aside first. /n.json is empty "
          + "(0 bytes)."
      ),
      (
        .valueTooLarge(path: "/n.json", byteCount: 20_000_000, limit: 16_777_216),
        "Did not save /n.json: the value is 20000000 bytes as JSON, over the limit of 16777216 "
          + "that loading accepts."
      ),
      (
        .writeFailed(path: "/n.json", reason: "No space left on device"),
        "Could not save /n.json: No space left on device."
      ),
      (
        .moveAsideFailed(path: "/n.json", reason: "Permission denied"),
        "Could not move /n.json aside: Permission denied."
      ),
    ]
    for (error, message) in messages {
      #expect(error.description == message)
      #expect(error.localizedDescription == message)
      #expect(error.path == "/n.json")
    }
  }

  // MARK: - Loading

  @Test func aMissingFileLoadsAsNilAndIsNotCreated() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    #expect(try file.load() == nil)
    #expect(try folder.names() == [])
  }

  @Test func aSavedValueLoadsBackFromTheVersionedEnvelope() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"), version: 2)
    try file.save(Notebook(notes: ["milk", "a/b"]))
    #expect(try file.load() == Notebook(notes: ["milk", "a/b"]))
    let text = String(decoding: try folder.bytes("notes.json"), as: UTF8.self)
    #expect(
      text == """
        {
          "formatVersion" : 2,
          "value" : {
            "notes" : [
              "milk",
              "a/b"
            ]
          }
        }
        """)
  }

  @Test func saveCreatesTheMissingFolders() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("a/b/notes.json"))
    try file.save(Notebook(notes: ["x"]))
    #expect(try file.load() == Notebook(notes: ["x"]))
  }

  @Test func aFileThatIsNotJSONIsCorruptAndStaysAsItIs() throws {
    let folder = try Folder()
    try folder.write("milk, eggs", to: "notes.json")
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    #expect(throws: JSONFileError.corrupt(path: file.url.path, reason: "it is not valid JSON")) {
      try file.load()
    }
    #expect(try folder.bytes("notes.json") == Data("milk, eggs".utf8))
  }

  @Test func textThatOpensMoreThanItClosesButIsNotJSONIsCorruptNotTruncated() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    for text in ["milk {eggs", "\u{89}PNG {{ [", "{\"a\": 1}}"] {
      try folder.write(text, to: "notes.json")
      #expect(throws: JSONFileError.corrupt(path: file.url.path, reason: "it is not valid JSON")) {
        try file.load()
      }
    }
  }

  @Test func aLongNameIsSaved() throws {
    let folder = try Folder()
    // 245 bytes: a temporary name made of all of it would pass the 255 that file systems allow.
    let name = String(repeating: "日", count: 80) + ".json"
    let file = JSONFile<Notebook>(url: folder.file(name))
    try file.save(Notebook(notes: ["milk"]))
    #expect(try file.load() == Notebook(notes: ["milk"]))
    #expect(try folder.names() == [name])
  }

  @Test func jsonInAnotherFormatIsCorrupt() throws {
    let folder = try Folder()
    try folder.write(#"{"notes": ["milk"]}"#, to: "notes.json")
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    let error = try #require(throws: JSONFileError.self) { try file.load() }
    guard case .corrupt(_, let reason) = error else {
      Issue.record("expected .corrupt, got \(error)")
      return
    }
    #expect(reason.hasPrefix(#"it is not in the format JSONFile writes, {"formatVersion": 1"#))
  }

  @Test func aValueThatDoesNotDecodeIsCorruptAndTheErrorNamesThePlace() throws {
    let folder = try Folder()
    try folder.write(#"{"formatVersion": 1, "value": {"notes": ["milk", 2]}}"#, to: "notes.json")
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    let error = try #require(throws: JSONFileError.self) { try file.load() }
    guard case .corrupt(_, let reason) = error else {
      Issue.record("expected .corrupt, got \(error)")
      return
    }
    #expect(reason.hasPrefix("value.notes[1]: "), "\(reason)")
  }

  @Test func everyCutOfASavedFileIsTruncated() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    try file.save(Notebook(notes: ["milk", #"say "hi" \ bye"#]))
    let whole = try folder.bytes("notes.json")
    for length in 0..<whole.count {
      try whole.prefix(length).write(to: file.url)
      #expect(throws: JSONFileError.truncated(path: file.url.path, byteCount: length)) {
        try file.load()
      }
    }
    #expect(
      JSONFileError.truncated(path: "/n.json", byteCount: 0).description
        == "/n.json is empty (0 bytes).")
    #expect(
      JSONFileError.truncated(path: "/n.json", byteCount: 12).description
        == "/n.json is truncated: its JSON ends after 12 bytes, before its value does.")
  }

  @Test func aFileOfANewerVersionIsRefusedAndAnOlderOneLoads() throws {
    let folder = try Folder()
    let url = folder.file("notes.json")
    try JSONFile<Notebook>(url: url, version: 1).save(Notebook(notes: ["old"]))
    #expect(try JSONFile<Notebook>(url: url, version: 2).load() == Notebook(notes: ["old"]))
    // A newer format that this version's Notebook could not decode at all.
    try folder.write(#"{"formatVersion": 3, "value": {"pages": {}}}"#, to: "notes.json")
    let file = JSONFile<Notebook>(url: url, version: 2)
    #expect(throws: JSONFileError.newerVersion(path: url.path, found: 3, supported: 2)) {
      try file.load()
    }
    #expect(
      JSONFileError.newerVersion(path: "/n.json", found: 3, supported: 2).description
        == "/n.json is in format version 3, newer than the 2 this app reads: update the app to "
        + "open it.")
  }

  @Test func aFormatVersionBelowOneIsCorrupt() throws {
    let folder = try Folder()
    try folder.write(#"{"formatVersion": 0, "value": {"notes": []}}"#, to: "notes.json")
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    let error = try #require(throws: JSONFileError.self) { try file.load() }
    #expect(error.description.contains("the format version is 0, not 1 or more"), "\(error)")
  }

  @Test func aFolderAtThePathIsUnreadable() throws {
    let folder = try Folder()
    try FileManager.default.createDirectory(
      at: folder.file("notes.json"), withIntermediateDirectories: false)
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    let expected = JSONFileError.unreadable(
      path: file.url.path, reason: "it is a folder, not a file")
    #expect(throws: expected) { try file.load() }
    #expect(expected.description == "Could not read \(file.url.path): it is a folder, not a file.")
  }

  @Test func aNamedPipeAtThePathIsRefusedWithoutWaitingForAWriter() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    #expect(mkfifo(file.url.path, 0o644) == 0)
    #expect(
      throws: JSONFileError.unreadable(
        path: file.url.path, reason: "it is not a regular file (a pipe, socket or device)")
    ) {
      try file.load()
    }
  }

  @Test func aFolderOnThePathThatIsAFileIsUnreadable() throws {
    let folder = try Folder()
    try folder.write("not a folder", to: "data")
    let file = JSONFile<Notebook>(url: folder.file("data/notes.json"))
    #expect(
      throws: JSONFileError.unreadable(
        path: file.url.path, reason: "a folder on its path is a file")
    ) {
      try file.load()
    }
  }

  @Test func aFileWithoutReadPermissionIsUnreadableUnlessTheTestRunsAsRoot() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    try file.save(Notebook(notes: ["secret"]))
    #expect(chmod(file.url.path, 0o000) == 0)
    if getuid() == 0 {
      // Root reads any file: permissions cannot make a file unreadable here.
      #expect(try file.load() == Notebook(notes: ["secret"]))
    } else {
      let error = try #require(throws: JSONFileError.self) { try file.load() }
      guard case .unreadable = error else {
        Issue.record("expected .unreadable, got \(error)")
        return
      }
    }
  }

  @Test func deeplyNestedJSONIsAnErrorNotACrash() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    let depth = 100_000
    let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    try folder.write(#"{"formatVersion": 1, "value": \#(nested)}"#, to: "notes.json")
    let error = try #require(throws: JSONFileError.self) { try file.load() }
    guard case .corrupt = error else {
      Issue.record("expected .corrupt, got \(error)")
      return
    }
  }

  @Test func aFileOverTheLimitIsNotRead() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"), maximumBytes: 100)
    try folder.write(String(repeating: " ", count: 101), to: "notes.json")
    #expect(throws: JSONFileError.tooLarge(path: file.url.path, byteCount: 101, limit: 100)) {
      try file.load()
    }
    // At the limit, the file is read (and is then only blank).
    try folder.write(String(repeating: " ", count: 100), to: "notes.json")
    #expect(throws: JSONFileError.truncated(path: file.url.path, byteCount: 100)) {
      try file.load()
    }
  }

  // MARK: - Saving

  @Test func saveReplacesTheFileInOneStepAndLeavesNoTemporaryFile() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    try file.save(Notebook(notes: ["old"]))
    let old = try folder.bytes("notes.json")
    // A reader that opened the old file before the save keeps reading the old file, whole: the
    // save wrote a new file and renamed it over the old one, rather than writing into it.
    let reader = try FileHandle(forReadingFrom: file.url)
    defer { try? reader.close() }
    try file.save(Notebook(notes: ["new", "and longer"]))
    #expect(try reader.readToEnd() == old)
    #expect(try file.load() == Notebook(notes: ["new", "and longer"]))
    #expect(try folder.names() == ["notes.json"])
  }

  @Test func saveRefusesToReplaceAFileThatDoesNotLoad() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"), version: 1)
    let cases = [
      "milk, eggs",
      #"{"formatVersion": 1, "value": {"notes": ["milk", "eg"#,
      #"{"formatVersion": 2, "value": {"pages": []}}"#,
    ]
    for text in cases {
      try folder.write(text, to: "notes.json")
      let reason = try #require(throws: JSONFileError.self) { try file.load() }
      #expect(throws: JSONFileError.refusedToReplace(reason)) {
        try file.save(Notebook(notes: []))
      }
      #expect(try folder.bytes("notes.json") == Data(text.utf8))
      #expect(try folder.names() == ["notes.json"])
    }
    #expect(
      JSONFileError.refusedToReplace(.corrupt(path: "/n.json", reason: "it is not valid JSON"))
        .description
        == "Did not save over /n.json, which does not load: move it aside first. /n.json is "
        + "corrupt: it is not valid JSON.")
  }

  @Test func aSaveUnderAFolderThatIsAFileFailsAndLeavesThatFileAsItWas() throws {
    let folder = try Folder()
    try folder.write("my data", to: "data")
    let file = JSONFile<Notebook>(url: folder.file("data/notes.json"))
    #expect(
      throws: JSONFileError.writeFailed(
        path: file.url.path, reason: "\(folder.file("data").path) is a file, not a folder")
    ) {
      try file.save(Notebook(notes: ["milk"]))
    }
    #expect(try folder.bytes("data") == Data("my data".utf8))
    #expect(try folder.names() == ["data"])
  }

  @Test func aValueThatCannotBeEncodedIsNotSavedAndTheOldFileStays() throws {
    let folder = try Folder()
    let file = JSONFile<Reading>(url: folder.file("reading.json"))
    try file.save(Reading(celsius: 21))
    let old = try folder.bytes("reading.json")
    let error = try #require(throws: JSONFileError.self) { try file.save(Reading(celsius: .nan)) }
    guard case .writeFailed(_, let reason) = error else {
      Issue.record("expected .writeFailed, got \(error)")
      return
    }
    #expect(
      reason
        == "the value cannot be written as JSON at value.celsius: Unable to encode Double.nan "
        + "directly in JSON.")
    #expect(try folder.bytes("reading.json") == old)
    #expect(try folder.names() == ["reading.json"])
  }

  @Test func aValueOverTheLimitIsNotSavedAndTheOldFileStays() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"), maximumBytes: 100)
    try file.save(Notebook(notes: ["short"]))
    let old = try folder.bytes("notes.json")
    let error = try #require(throws: JSONFileError.self) {
      try file.save(Notebook(notes: [String(repeating: "x", count: 100)]))
    }
    guard case .valueTooLarge(file.url.path, let byteCount, 100) = error else {
      Issue.record("expected .valueTooLarge, got \(error)")
      return
    }
    #expect(byteCount > 100)
    #expect(try folder.bytes("notes.json") == old)
  }

  @Test func saveThroughASymbolicLinkReplacesTheFileItLinksTo() throws {
    let folder = try Folder()
    let real = JSONFile<Notebook>(url: folder.file("real.json"))
    try real.save(Notebook(notes: ["old"]))
    try FileManager.default.createSymbolicLink(
      at: folder.file("link.json"), withDestinationURL: folder.file("real.json"))
    try JSONFile<Notebook>(url: folder.file("link.json")).save(Notebook(notes: ["new"]))
    #expect(try real.load() == Notebook(notes: ["new"]))
    let destination = try FileManager.default.destinationOfSymbolicLink(
      atPath: folder.file("link.json").path)
    #expect(destination == folder.file("real.json").path)
  }

  // MARK: - Moving aside

  @Test func moveAsideKeepsTheFileAsABackupAndNeverReplacesOne() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    #expect(try file.moveAside() == nil)
    try folder.write("first", to: "notes.json")
    #expect(try file.moveAside()?.path == folder.file("notes.json.backup").path)
    try folder.write("second", to: "notes.json")
    #expect(try file.moveAside()?.path == folder.file("notes.json.backup-2").path)
    #expect(try folder.names() == ["notes.json.backup", "notes.json.backup-2"])
    #expect(try folder.bytes("notes.json.backup") == Data("first".utf8))
    #expect(try folder.bytes("notes.json.backup-2") == Data("second".utf8))
    #expect(try file.load() == nil)
    try file.save(Notebook(notes: ["fresh"]))
    #expect(try file.load() == Notebook(notes: ["fresh"]))
  }

  @Test func aFolderAtThePathCanBeMovedAsideToo() throws {
    let folder = try Folder()
    let file = JSONFile<Notebook>(url: folder.file("notes.json"))
    try FileManager.default.createDirectory(at: file.url, withIntermediateDirectories: false)
    #expect(throws: JSONFileError.self) { try file.save(Notebook(notes: [])) }
    #expect(try file.moveAside()?.path == folder.file("notes.json.backup").path)
    try file.save(Notebook(notes: ["fresh"]))
    #expect(try file.load() == Notebook(notes: ["fresh"]))
  }
}
