import Foundation

/// Compares `text` with the snapshot file at `file`, or records it: the one mechanism behind trace
/// snapshots (``expectTrace(_:from:events:named:record:fileID:filePath:line:column:)``) and diagram
/// snapshots (``Exploration/expectDiagram(_:named:projection:edgeLabel:record:fileID:filePath:line:column:)``).
///
/// When the file does not exist, or in record mode (`record`, or the environment variable
/// `DECISIONS_RECORD_TRACES=1`), it writes the file and fails, asking for a review. Otherwise it
/// fails with a line diff (`−` recorded, `+` now) if the text changed.
/// - Parameters:
///   - text: The text the test produced.
///   - kind: What the snapshot is, for the messages: "trace" or "diagram".
///   - name: The snapshot's name.
///   - file: Where the snapshot is stored.
///   - record: Whether to write the snapshot instead of comparing.
///   - location: Where to report a failure.
func expectSnapshot(
  _ text: String, kind: String, named name: String, at file: URL, record: Bool,
  location: Location
) {
  let recordMode = record || ProcessInfo.processInfo.environment["DECISIONS_RECORD_TRACES"] == "1"
  let recorded = try? String(contentsOf: file, encoding: .utf8)

  guard let recorded, !recordMode else {
    do {
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: file, atomically: true, encoding: .utf8)
    } catch {
      reportFailure("Could not write the \(kind) \(file.path): \(error)", at: location)
      return
    }
    let reason =
      recordMode
      ? "Record mode is on: recorded the \(kind)"
      : "There was no recorded \(kind): recorded one"
    reportFailure(
      "\(reason) at \(file.path). Review it, commit it, and run the test again without "
        + "record mode to compare.",
      at: location)
    return
  }
  if let diff = lineDiff(expected: recorded, actual: text) {
    // NB: a trace is a story; the wording of its message predates diagrams.
    let what = kind == "trace" ? "story" : kind
    reportFailure(
      """
      The \(kind) "\(name)" differs from the recorded one at \(file.path) (− recorded, + now):
      \(diff)
      If the new \(what) is right, record it again (record: true or DECISIONS_RECORD_TRACES=1).
      """,
      at: location)
  }
}

/// Returns where the snapshot named `name` is stored for the test file at `testFilePath`:
/// `__Traces__/<test file name>/<name>.<pathExtension>` beside the test file.
func snapshotFile(named name: String, pathExtension: String, besideTestAt testFilePath: String)
  -> URL
{
  let testFile = URL(fileURLWithPath: testFilePath)
  let safeName = String(
    name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "-" })
  return testFile.deletingLastPathComponent()
    .appendingPathComponent("__Traces__")
    .appendingPathComponent(testFile.deletingPathExtension().lastPathComponent)
    .appendingPathComponent(safeName + "." + pathExtension)
}
