import Decisions
import Foundation
import TestSupport
import Testing

/// `JSONFile` on the paths a user or the system hands it: a folder's URL, a URL that is not a
/// file's, names that begin with combining marks, symbolic links that lead nowhere yet, and the
/// temporary files that saves cut short leave behind.
@Suite struct JSONFilePathTests {
  struct Notebook: Codable, Equatable {
    var notes: [String]
  }

  /// A value whose encoding fails: JSON has no NaN.
  struct Reading: Codable, Equatable {
    var celsius: Double
  }

  // MARK: - URLs

  /// `URL(fileURLWithPath:)` for a path where a folder is ends in `/`: it names the same path, and
  /// the folder there is refused as a folder (it used to stop the process), and can be moved aside.
  @Test func aFoldersURLIsThePathWithAFolderThereNotATrap() throws {
    let folder = try TemporaryFolder("JSONFilePathTests")
    let path = folder.url.appending(path: "notes.json").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    let url = URL(fileURLWithPath: path)
    #expect(url.hasDirectoryPath)
    let file = JSONFile<Notebook>(url: url)
    #expect(file.url.path == path)
    #expect(!file.url.hasDirectoryPath)
    #expect(throws: JSONFileError.unreadable(path: path, reason: "it is a folder, not a file")) {
      try file.load()
    }
    #expect(throws: JSONFileError.self) { try file.save(Notebook(notes: ["milk"])) }
    #expect(try file.moveAside()?.path == path + ".backup")
    try file.save(Notebook(notes: ["milk"]))
    #expect(
      try JSONFile<Notebook>(url: URL(fileURLWithPath: path)).load() == .init(notes: ["milk"]))
    #expect(try folder.names() == ["notes.json", "notes.json.backup"])
  }

  @Test func aURLEndingInASlashWithNothingThereSavesAFileAtThePath() throws {
    let folder = try TemporaryFolder("JSONFilePathTests")
    let url = folder.url.appendingPathComponent("notes.json", isDirectory: true)
    let file = JSONFile<Notebook>(url: url)
    try file.save(Notebook(notes: ["milk"]))
    #expect(try folder.names() == ["notes.json"])
    var isFolder: ObjCBool = true
    #expect(FileManager.default.fileExists(atPath: file.url.path, isDirectory: &isFolder))
    #expect(!isFolder.boolValue)
  }

  /// A web URL names no file: each call says so, naming the URL.
  @Test func aURLThatIsNotAFilesIsAnErrorOfEachCall() throws {
    let url = try #require(URL(string: "https://example.com/notes.json"))
    let file = JSONFile<Notebook>(url: url)
    let path = "https://example.com/notes.json"
    #expect(throws: JSONFileError.unreadable(path: path, reason: "it is not a file URL")) {
      try file.load()
    }
    #expect(throws: JSONFileError.writeFailed(path: path, reason: "it is not a file URL")) {
      try file.save(Notebook(notes: []))
    }
    #expect(throws: JSONFileError.moveAsideFailed(path: path, reason: "it is not a file URL")) {
      try file.moveAside()
    }
  }

  /// Foundation gives no path for `file:`, nor for a file URL whose path is not UTF-8: each call
  /// says so, rather than taking the empty path for a missing file (or writing at the root).
  @Test(arguments: ["file:///tmp/%FF.json", "file:"])
  func aFileURLWithNoPathIsAnErrorOfEachCall(text: String) throws {
    let url = try #require(URL(string: text))
    let file = JSONFile<Notebook>(url: url)
    let reason = "its path is empty, or is not UTF-8"
    #expect(throws: JSONFileError.unreadable(path: text, reason: reason)) { try file.load() }
    #expect(throws: JSONFileError.writeFailed(path: text, reason: reason)) {
      try file.save(Notebook(notes: []))
    }
    #expect(throws: JSONFileError.moveAsideFailed(path: text, reason: reason)) {
      try file.moveAside()
    }
  }

  // MARK: - Names

  /// A slash followed by a combining mark is one `Character`: paths are split as bytes.
  @Test(arguments: ["\u{0301}notes.json", "sub/\u{20DD}deeper/notes.json", "é/\u{0308}/n.json"])
  func aNameThatBeginsWithACombiningMarkIsSavedAndLoaded(name: String) throws {
    let folder = try TemporaryFolder("JSONFilePathTests")
    let file = JSONFile<Notebook>(url: folder.url.appending(path: name))
    try file.save(Notebook(notes: ["milk"]))
    #expect(try file.load() == Notebook(notes: ["milk"]))
    #expect(FileManager.default.fileExists(atPath: folder.url.path + "/" + name))
    let folderOfFile = (folder.url.path + "/" + name).utf8.split(separator: UInt8(ascii: "/"))
      .dropLast().map { String(decoding: $0, as: UTF8.self) }
    let listed = try FileManager.default.contentsOfDirectory(
      atPath: "/" + folderOfFile.joined(separator: "/"))
    #expect(listed.count == 1)  // no temporary file left beside it
  }

  // MARK: - Symbolic links

  /// A link whose file does not exist yet stays a link: the save creates the file it leads to,
  /// with its folder, and loading through the link reads it.
  @Test func saveThroughADanglingLinkCreatesTheFileItLeadsTo() throws {
    let folder = try TemporaryFolder("JSONFilePathTests")
    let link = folder.url.appending(path: "notes.json").path
    try FileManager.default.createSymbolicLink(
      atPath: link, withDestinationPath: "synced/notes.json")
    let file = JSONFile<Notebook>(url: URL(filePath: link))
    #expect(try file.load() == nil)
    try file.save(Notebook(notes: ["milk"]))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "synced/notes.json")
    #expect(
      try JSONFile<Notebook>(url: folder.url.appending(path: "synced/notes.json")).load()
        == Notebook(notes: ["milk"]))
    #expect(try file.load() == Notebook(notes: ["milk"]))
    try file.save(Notebook(notes: ["eggs"]))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "synced/notes.json")
    #expect(try file.load() == Notebook(notes: ["eggs"]))
    #expect(try folder.names() == ["notes.json", "synced"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder.url.path + "/synced") == [
        "notes.json"
      ])
  }

  /// A chain of links, absolute and relative, is followed to its end.
  @Test func saveFollowsAChainOfLinksToItsEnd() throws {
    let folder = try TemporaryFolder("JSONFilePathTests")
    let base = folder.url.path
    try FileManager.default.createDirectory(
      atPath: base + "/b", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: base + "/a.json", withDestinationPath: base + "/b/link.json")
    try FileManager.default.createSymbolicLink(
      atPath: base + "/b/link.json", withDestinationPath: "../c/final.json")
    try JSONFile<Notebook>(url: URL(filePath: base + "/a.json")).save(Notebook(notes: ["x"]))
    #expect(
      try JSONFile<Notebook>(url: URL(filePath: base + "/c/final.json")).load()
        == Notebook(notes: ["x"]))
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: base + "/a.json") != "")
  }

  /// Links that lead to each other are an error that says so, and change nothing.
  @Test func aLoopOfLinksIsAnError() throws {
    let folder = try TemporaryFolder("JSONFilePathTests")
    let base = folder.url.path
    try FileManager.default.createSymbolicLink(
      atPath: base + "/a.json", withDestinationPath: "b.json")
    try FileManager.default.createSymbolicLink(
      atPath: base + "/b.json", withDestinationPath: "a.json")
    let error = try #require(throws: JSONFileError.self) {
      try JSONFile<Notebook>(url: URL(filePath: base + "/a.json")).save(Notebook(notes: []))
    }
    #expect("\(error)".contains("too many links"), "\(error)")
    #expect(try folder.names() == ["a.json", "b.json"])
  }

  // MARK: - Temporary files left behind

  /// The id of a process that has ended.
  private func goneProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(filePath: "/bin/sh")
    process.arguments = ["-c", "exit 0"]
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
  }

  /// Makes a file at `name` in `folder`, last changed `secondsAgo`.
  private func leave(_ name: String, in folder: TemporaryFolder, secondsAgo: TimeInterval) throws {
    let path = folder.url.path + "/" + name
    try Data("{\"formatVersion\": 1, \"val".utf8).write(to: URL(filePath: path))
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -secondsAgo)], ofItemAtPath: path)
  }

  /// A save removes what saves of the same file left when their process ended in the middle, and
  /// nothing else: not a file of a process still running, not one that changed in the last ten
  /// minutes, not another file's.
  @Test func aSaveRemovesTheTemporaryFilesOfGoneProcessesAndNothingElse() throws {
    let folder = try TemporaryFolder("JSONFilePathTests")
    let gone = try goneProcessID()
    let me = ProcessInfo.processInfo.processIdentifier
    let stale = [
      ".notes.json.\(gone)-123.tmp",  // its process is gone, long ago
      ".notes.json.\(gone)-18446744073709551615.tmp",
      ".notes.json.\(me)-77.tmp",  // this process's, and no save of it is in flight
    ]
    let kept = [
      ".notes.json.\(gone)-124.tmp",  // its process is gone, but it changed a moment ago
      ".notes.json.1-5.tmp",  // process 1 runs
      ".other.json.\(gone)-1.tmp",  // another file's
      ".notes.json.\(gone)-1.tmp.bak",
      ".notes.json.\(gone)-x.tmp",
      ".notes.json.tmp",
      "notes.json.\(gone)-1.tmp",
    ]
    for name in stale + kept where name != ".notes.json.\(gone)-124.tmp" {
      try leave(name, in: folder, secondsAgo: 3_600)
    }
    try leave(".notes.json.\(gone)-124.tmp", in: folder, secondsAgo: 0)
    try JSONFile<Notebook>(url: folder.url.appending(path: "notes.json")).save(
      Notebook(notes: ["milk"]))
    #expect(try folder.names() == (kept + ["notes.json"]).sorted())
  }

  /// Saves at once in one process never remove each other's temporary files in flight.
  @Test func savesAtOnceKeepEachOthersTemporaryFiles() async throws {
    let folder = try TemporaryFolder("JSONFilePathTests")
    let file = JSONFile<Notebook>(url: folder.url.appending(path: "notes.json"))
    try file.save(Notebook(notes: []))
    let failures = await withTaskGroup(of: [String].self) { group in
      for writer in 0..<4 {
        group.addTask {
          var failures: [String] = []
          for round in 0..<150 {
            do {
              try file.save(Notebook(notes: ["\(writer)", "\(round)"]))
            } catch {
              failures.append("\(error)")
            }
          }
          return failures
        }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    #expect(failures == [])
    #expect(try folder.names() == ["notes.json"])
  }

  // MARK: - Messages

  @Test func aValueThatCannotBeEncodedSaysSoInOneSentence() throws {
    let folder = try TemporaryFolder("JSONFilePathTests")
    let file = JSONFile<Reading>(url: folder.url.appending(path: "reading.json"))
    let error = try #require(throws: JSONFileError.self) { try file.save(Reading(celsius: .nan)) }
    #expect(!error.description.hasSuffix(".."), "\(error)")
    #expect(error.description.hasSuffix("."), "\(error)")
  }
}
