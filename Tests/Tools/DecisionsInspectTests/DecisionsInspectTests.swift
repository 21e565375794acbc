import DecisionsTesting
import FactFeature
import Foundation
import SearchFeature
import SyncUps
import TestSupport
import Testing

/// Runs the built `decisions-inspect` command as a process, as a user would, on good and bad
/// recordings.
@Suite(.timeLimit(.minutes(3))) struct DecisionsInspectTests {
  /// A short search session, as `search --record` writes one.
  static let session = FlightRecording<SearchFeature>(
    trigger: .requested(note: "search --record"), capacity: 10_000, checkpointInterval: 100,
    initialState: .init(),
    events: [
      .view(.queryChanged("c")), .view(.queryChanged("cube")), .model(.quietPeriodEnded("c")),
      .model(.quietPeriodEnded("cube")),
      .model(.searchFinished(SearchResults(query: "cube", matches: ["27 is the cube of 3."]))),
    ],
    finalState: .init(query: "cube", phase: .loaded(["27 is the cube of 3."])))

  @Test func aRecordingBecomesAPageNextToIt() throws {
    let folder = try TemporaryFolder()
    let file = try folder.write("session.json", Self.session.json())
    let run = try runInspect([file])
    #expect(run.errors == "")
    #expect(run.status == 0)
    let pagePath = folder.path("session.html")
    #expect(
      run.output == "Wrote \(pagePath): 5 steps of SearchFeature.SearchFeature, "
        + "\(try Data(contentsOf: URL(fileURLWithPath: pagePath)).count) bytes.\n")
    let page = try String(contentsOfFile: pagePath, encoding: .utf8)
    #expect(page.contains("<body data-steps=\"5\">"))
    #expect(page.contains("<p id=\"shown\">5 steps</p>"))
    #expect(page.contains("<dt>Final state</dt><dd>matches the replay</dd>"))
    #expect(page.contains("<dt>Trigger</dt><dd>requested: &quot;search --record&quot;</dd>"))
    #expect(page.contains(#"\n+   .loaded([\"27 is the cube of 3.\"])""#))
  }

  @Test func aFactFeatureRecordingIsKnownToo() throws {
    let folder = try TemporaryFolder()
    let recording = FlightRecording<FactFeature>(
      trigger: .requested(note: "tap"), capacity: 10, checkpointInterval: 5,
      initialState: .idle, events: [.view(.didTapButton)], finalState: .loading(previous: nil))
    let file = try folder.write("facts.json", recording.json())
    let out = folder.path("out/page.html")
    try FileManager.default.createDirectory(
      atPath: folder.path("out"), withIntermediateDirectories: true)
    let run = try runInspect([file, "--out", out])
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("Wrote \(out): 1 step of FactFeature.FactFeature"))
    #expect(try String(contentsOfFile: out, encoding: .utf8).contains("data-steps=\"1\""))
  }

  @Test func aSyncUpsRecordingIsKnownToo() throws {
    let folder = try TemporaryFolder()
    let recording = FlightRecording<SyncUpsApp>(
      trigger: .requested(note: "syncups --record"), capacity: 10, checkpointInterval: 5,
      initialState: .init(file: .loading), events: [.file(.loaded(nil))], finalState: .init())
    let file = try folder.write("syncups.json", recording.json())
    let run = try runInspect([file, "--out", "-"])
    #expect(run.status == 0)
    #expect(run.output.contains("data-steps=\"1\""))
    #expect(run.output.contains(".file(.loaded(nil))"))
  }

  @Test func aDashWritesThePageToStandardOutput() throws {
    let folder = try TemporaryFolder()
    let file = try folder.write("session.json", Self.session.json())
    let run = try runInspect([file, "--out", "-"])
    #expect(run.status == 0)
    #expect(run.errors == "")
    #expect(run.output.hasPrefix("<!DOCTYPE html>\n"))
    #expect(run.output.hasSuffix("</html>\n"))
    #expect(!FileManager.default.fileExists(atPath: folder.path("session.html")))
  }

  @Test func hostileStringsInARecordingAreEscapedInThePage() throws {
    let folder = try TemporaryFolder()
    let hostile = "</script><script>alert(1)</script>\"'<img src=x onerror=alert(2)>"
    let recording = FlightRecording<SearchFeature>(
      trigger: .requested(note: hostile), capacity: 10, checkpointInterval: 5,
      initialState: .init(), events: [.view(.queryChanged(hostile))],
      finalState: .init(query: hostile, phase: .debouncing))
    let file = try folder.write("hostile.json", recording.json())
    let out = folder.path("hostile.html")
    let run = try runInspect([file, "--out", out])
    #expect(run.status == 0)
    let page = try String(contentsOfFile: out, encoding: .utf8).lowercased()
    #expect(page.components(separatedBy: "<script").count - 1 == 1)
    #expect(page.components(separatedBy: "</script").count - 1 == 1)
    #expect(!page.contains("<img"))
    #expect(page.contains("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
    #expect(!page.contains("http://") && !page.contains("https://"))
  }

  // MARK: - Bad input: one line on standard error, exit status 1

  @Test func aMissingFileIsReported() throws {
    let run = try runInspect(["/nonexistent-folder/session.json"])
    #expect(run.status == 1)
    #expect(
      run.errors
        == "decisions-inspect: cannot read /nonexistent-folder/session.json: no such file\n")
    #expect(run.output == "")
  }

  @Test func aFolderIsNotARecording() throws {
    let folder = try TemporaryFolder()
    let run = try runInspect([folder.url.path])
    #expect(run.status == 1)
    #expect(run.errors == "decisions-inspect: \(folder.url.path) is a folder, not a recording\n")
  }

  @Test func aDeviceIsNotARecording() throws {
    let run = try runInspect(["/dev/null"])
    #expect(run.status == 1)
    #expect(run.errors == "decisions-inspect: /dev/null is not a regular file\n")
  }

  @Test func aTruncatedRecordingIsReported() throws {
    let folder = try TemporaryFolder()
    let json = try Self.session.json()
    let file = try folder.write("cut.json", String(json.prefix(json.count / 2)))
    let run = try runInspect([file])
    #expect(run.status == 1)
    try expectOneLine(
      run,
      startingWith:
        "decisions-inspect: \(file): The flight recording is not valid JSON, or is cut short")
    #expect(!FileManager.default.fileExists(atPath: folder.path("cut.html")))
  }

  @Test func aHostileRecordingIsReported() throws {
    let folder = try TemporaryFolder()
    let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    let deep = try folder.write("deep.json", nested)
    let deepRun = try runInspect([deep])
    #expect(deepRun.status == 1)
    #expect(!deepRun.wasSignalled)
    try expectOneLine(deepRun, startingWith: "decisions-inspect: \(deep): The flight recording")

    let json = try Self.session.json()
    let badEvent = try folder.write(
      "event.json",
      json.replacingOccurrences(of: #"{"_0":"cube"}"#, with: #"{"_0":["\u001b[2J<script>"]}"#))
    let eventRun = try runInspect([badEvent])
    #expect(eventRun.status == 1)
    try expectOneLine(
      eventRun,
      startingWith: "decisions-inspect: \(badEvent): The flight recording's value at .events[1]")
    #expect(!eventRun.errors.unicodeScalars.contains("\u{1B}"))
  }

  @Test func aHugeRecordingIsRefusedBeforeItIsRead() throws {
    let folder = try TemporaryFolder()
    let file = folder.path("huge.json")
    #expect(FileManager.default.createFile(atPath: file, contents: nil))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
    // A sparse file: 2 GiB long, no disk used.
    try handle.truncate(atOffset: 2 << 30)
    try handle.close()
    let run = try runInspect([file])
    #expect(run.status == 1)
    #expect(
      run.errors
        == "decisions-inspect: \(file): The flight recording is \(2 << 30) bytes, more than the "
        + "limit of 67108864 bytes.\n")

    let small = try folder.write("small.json", Self.session.json())
    let limited = try runInspect([small, "--max-bytes", "100"])
    #expect(limited.status == 1)
    try expectOneLine(
      limited, startingWith: "decisions-inspect: \(small): The flight recording is ")
    #expect(limited.errors.hasSuffix("bytes, more than the limit of 100 bytes.\n"))
  }

  @Test func aRecordingOfAnotherVersionIsReported() throws {
    let folder = try TemporaryFolder()
    let json = try Self.session.json().replacingOccurrences(
      of: #""version":1"#, with: #""version":2"#)
    let file = try folder.write("v2.json", json)
    let run = try runInspect([file])
    #expect(run.status == 1)
    #expect(
      run.errors
        == "decisions-inspect: \(file): The flight recording has format version 2; this library "
        + "reads version 1.\n")
  }

  @Test func aRecordingOfAnUnknownFeatureListsTheKnownOnes() throws {
    let folder = try TemporaryFolder()
    let json = try Self.session.json().replacingOccurrences(
      of: #""feature":"SearchFeature.SearchFeature""#, with: #""feature":"MyApp.Checkout""#)
    let file = try folder.write("other.json", json)
    let run = try runInspect([file])
    #expect(run.status == 1)
    #expect(
      run.errors
        == "decisions-inspect: \(file) is a recording of \"MyApp.Checkout\", a feature this "
        + "command does not know; it knows SearchFeature.SearchFeature, FactFeature.FactFeature, "
        + "SyncUps.SyncUpsApp\n")
  }

  @Test func aRecordingWhoseContentsAreAnotherFeaturesIsReported() throws {
    let folder = try TemporaryFolder()
    let facts = FlightRecording<FactFeature>(
      feature: "SearchFeature.SearchFeature", trigger: .requested(note: ""), capacity: 10,
      checkpointInterval: 5, initialState: .idle, events: [.view(.didTapButton)],
      finalState: .loading(previous: nil))
    let file = try folder.write("mislabelled.json", facts.json())
    let run = try runInspect([file])
    #expect(run.status == 1)
    try expectOneLine(
      run, startingWith: "decisions-inspect: \(file): The flight recording's value at .initialState"
    )
  }

  @Test func aFileThatIsNotARecordingIsReported() throws {
    let folder = try TemporaryFolder()
    let file = try folder.write("other.json", #"{"name": "a package manifest"}"#)
    let run = try runInspect([file])
    #expect(run.status == 1)
    #expect(
      run.errors
        == "decisions-inspect: \(file): The file is not a flight recording: it has no \"format\": "
        + "\"decisions.flight-recording\" and \"version\" fields.\n")
  }

  @Test func anUnwritablePageIsReported() throws {
    let folder = try TemporaryFolder()
    let file = try folder.write("session.json", Self.session.json())
    let run = try runInspect([file, "--out", "/nonexistent-folder/page.html"])
    #expect(run.status == 1)
    try expectOneLine(
      run,
      startingWith: "decisions-inspect: cannot write the page to /nonexistent-folder/page.html: ")
    #expect(run.output == "")

    let folderAsPage = try runInspect([file, "--out", folder.url.path])
    #expect(folderAsPage.status == 1)
    try expectOneLine(folderAsPage, startingWith: "decisions-inspect: cannot write the page to ")
  }

  @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
  func aFullDiskForThePageIsReported() throws {
    let folder = try TemporaryFolder()
    let file = try folder.write("session.json", Self.session.json())
    let run = try runInspect([file, "--out", "/dev/full"])
    #expect(run.status == 1)
    #expect(!run.wasSignalled)
    try expectOneLine(run, startingWith: "decisions-inspect: cannot write the page to /dev/full: ")
    #expect(FileManager.default.fileExists(atPath: "/dev/full"))
  }

  @Test func aPageIsNeverWrittenOverItsRecording() throws {
    let folder = try TemporaryFolder()
    let json = try Self.session.json()
    let file = try folder.write("session.json", json)
    let run = try runInspect([file, "--out", folder.url.path + "/./session.json"])
    #expect(run.status == 2)
    #expect(run.errors.hasSuffix("/./session.json is the recording itself\n"))
    #expect(try String(contentsOfFile: file, encoding: .utf8) == json)
  }

  // MARK: - The command line

  @Test(arguments: [
    ([], "give the recording to read"),
    (["--what"], "unknown option --what"),
    (["a.json", "b.json"], "one recording at a time, not also b.json"),
    (["a.json", "--out"], "--out needs a value"),
    (["a.json", "--out", "dir/"], "--out takes the path of a file, not dir/"),
    (
      ["a.json", "--max-bytes", "0"],
      #"--max-bytes takes a whole number of bytes from 1 to 1073741824, not "0""#
    ),
  ])
  func badArgumentsFailWithAClearMessage(arguments: [String], message: String) throws {
    let run = try runInspect(arguments)
    #expect(run.status == 2)
    // One line, as the docs promise, pointing to the usage rather than printing it.
    #expect(run.errors == "decisions-inspect: \(message) (see decisions-inspect --help)\n")
    #expect(run.output == "")
  }

  @Test func helpPrintsTheUsageAndTheKnownFeatures() throws {
    let run = try runInspect(["--help"])
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("USAGE: decisions-inspect RECORDING.json [--out PAGE.html]"))
    #expect(run.output.contains("SearchFeature.SearchFeature, FactFeature.FactFeature"))
  }
}

// MARK: - Helpers

/// Runs the `decisions-inspect` command.
private func runInspect(_ arguments: [String]) throws -> ProductRun {
  try runProduct("decisions-inspect", arguments, timeLimit: .seconds(60))
}

/// Expects a run's standard error to be one line that starts with `prefix`.
private func expectOneLine(
  _ run: ProductRun, startingWith prefix: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  #expect(run.errors.hasPrefix(prefix), "\(run.errors)", sourceLocation: sourceLocation)
  #expect(run.errors.hasSuffix("\n"), sourceLocation: sourceLocation)
  #expect(run.errors.count { $0 == "\n" } == 1, "\(run.errors)", sourceLocation: sourceLocation)
}

/// A folder of its own under the temporary folder, removed when the value goes.
private final class TemporaryFolder {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("decisions-inspect-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// The path of `name` in the folder.
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes `text` to `name` in the folder and returns its path.
  func write(_ name: String, _ text: String) throws -> String {
    let path = path(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }
}
