import Decisions
import Foundation

/// Asserts a core's whole story against a trace file checked in next to the test.
///
/// The trace lists each event, the state after it and its decisions, in a stable text format meant
/// for review in a pull request:
///
/// ```
/// Trace of FactFeature "tap, fail, retry"
/// start: .idle
///
/// 1. event: .view(.didTapButton)
///    state: .loading
///    decisions:
///    - .track(.view(.didTapButton))
///    - .load
///
/// 2. event: .model(.failedLoading("offline"))
///    state: .failed
///    decisions:
///    - .showSnackbar("Went wrong")
/// ```
///
/// The file lives at `__Traces__/<test file name>/<name>.trace.txt` beside the test file. When it does
/// not exist, the helper writes it and fails, asking you to review and commit it. When it exists, the
/// helper compares and fails with a line diff (`−` recorded, `+` now) if the story changed. To accept
/// a change, record again: pass `record: true`, or set the environment variable
/// `DECISIONS_RECORD_TRACES=1` for the test run.
/// - Parameters:
///   - core: The core.
///   - state: The state before the first event.
///   - events: The events of the story, in order.
///   - name: The trace's name; it names the file, so keep it unique within the test file.
///   - record: Whether to write the trace instead of comparing.
///   - fileID: The caller's file id, for the failure's location.
///   - filePath: The caller's file path; the trace is stored beside this file.
///   - line: The caller's line, for the failure's location.
///   - column: The caller's column, for the failure's location.
public func expectTrace<C: Core>(
  _ core: C.Type,
  from state: C.State,
  events: [C.Event],
  named name: String,
  record: Bool = false,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
  let text = traceText(
    of: C.self, named: name, from: state, steps: replay(C.self, from: state, events: events))
  let file = traceFile(named: name, besideTestAt: "\(filePath)")
  expectSnapshot(text, kind: "trace", named: name, at: file, record: record, location: location)
}

/// Returns the text of a trace: a header, then one numbered block per step.
func traceText<C: Core>(
  of core: C.Type, named name: String, from start: C.State, steps: [TraceStep<C>]
) -> String {
  var lines = ["Trace of \(typeName(C.self)) \"\(name)\"", "start: " + describe(start)]
  var previous = describe(start)
  for (index, step) in steps.enumerated() {
    let number = "\(index + 1). "
    let indent = String(repeating: " ", count: number.count)
    let state = describe(step.state, indent: indent)
    lines.append("")
    lines.append(number + "event: " + describe(step.event, indent: indent))
    lines.append(indent + "state: " + (state == previous ? "unchanged" : state))
    if step.decisions.isEmpty {
      lines.append(indent + "decisions: none")
    } else {
      lines.append(indent + "decisions:")
      lines += step.decisions.map { indent + "- " + describe($0, indent: indent + "  ") }
    }
    previous = state
  }
  return lines.joined(separator: "\n") + "\n"
}

/// Returns where the trace named `name` is stored for the test file at `testFilePath`.
func traceFile(named name: String, besideTestAt testFilePath: String) -> URL {
  snapshotFile(named: name, pathExtension: "trace.txt", besideTestAt: testFilePath)
}
