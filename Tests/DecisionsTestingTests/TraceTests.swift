import Foundation
import Testing

@testable import DecisionsTesting

@Suite struct TraceTests {
  /// The story checked into `__Traces__/TraceTests/loader-session.trace.txt`.
  private let session: [Loader.Event] = [.tap, .failed("offline"), .tap, .tap, .finished("hi")]

  @Test func aSessionMatchesItsCheckedInTrace() {
    expectTrace(Loader.self, from: .idle, events: session, named: "loader-session")
  }

  @Test func theTraceFormatIsStableAndReadable() {
    let text = traceText(
      of: Loader.self, named: "demo", from: .idle,
      steps: replay(Loader.self, from: .idle, events: [.tap, .tap, .finished("hi")]))
    #expect(
      text == """
        Trace of Loader "demo"
        start: .idle

        1. event: .tap
           state: .loading(previous: nil)
           decisions:
           - .track("tap")
           - .load

        2. event: .tap
           state: unchanged
           decisions:
           - .track("tap")

        3. event: .finished("hi")
           state: .loaded("hi")
           decisions:
           - .log("hi")

        """)
  }

  @Test func aChangedStoryFailsWithALineDiff() throws {
    // NB: compares against a scratch copy of the checked-in trace, so this test never writes it.
    let checkedIn = traceFile(named: "loader-session", besideTestAt: "\(#filePath)")
    let copy = traceFile(named: "changed", besideTestAt: Self.scratchTestFile)
    try FileManager.default.createDirectory(
      at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? FileManager.default.removeItem(at: copy)
    try FileManager.default.copyItem(at: checkedIn, to: copy)
    let failures = withCapturedFailures {
      expectTrace(
        Loader.self, from: .idle, events: [.tap, .failed("offline"), .tap, .tap, .finished("bye")],
        named: "changed", filePath: "/tmp/DecisionsTraceScratch/ScratchTests.swift")
    }
    let message = failures.first?.message ?? ""
    #expect(failures.count == 1)
    #expect(message.hasPrefix("The trace \"changed\" differs from the recorded one at "))
    #expect(
      message.contains(
        """
        − 5. event: .finished("hi")
        −    state: .loaded("hi")
        + 5. event: .finished("bye")
        +    state: .loaded("bye")
             decisions:
        −    - .log("hi")
        +    - .log("bye")
        """))
  }

  @Test func aMissingTraceIsRecordedAndFails() throws {
    let file = traceFile(named: "new story", besideTestAt: Self.scratchTestFile)
    try? FileManager.default.removeItem(at: file)
    let failures = withCapturedFailures {
      expectTrace(
        Loader.self, from: .idle, events: [.tap], named: "new story",
        filePath: "/tmp/DecisionsTraceScratch/ScratchTests.swift")
    }
    #expect(failures.count == 1)
    #expect(
      failures.first?.message.hasPrefix("There was no recorded trace: recorded one at ") == true)
    let written = try String(contentsOf: file, encoding: .utf8)
    #expect(written.hasPrefix("Trace of Loader \"new story\"\nstart: .idle\n"))

    // The next run compares against what was recorded, and passes.
    let again = withCapturedFailures {
      expectTrace(
        Loader.self, from: .idle, events: [.tap], named: "new story",
        filePath: "/tmp/DecisionsTraceScratch/ScratchTests.swift")
    }
    #expect(again.isEmpty)
    try FileManager.default.removeItem(at: file)
  }

  @Test func recordModeRewritesTheTraceAndFails() throws {
    let file = traceFile(named: "recorded", besideTestAt: Self.scratchTestFile)
    try FileManager.default.createDirectory(
      at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
    try "stale\n".write(to: file, atomically: true, encoding: .utf8)
    let failures = withCapturedFailures {
      expectTrace(
        Loader.self, from: .idle, events: [.tap], named: "recorded", record: true,
        filePath: "/tmp/DecisionsTraceScratch/ScratchTests.swift")
    }
    #expect(failures.first?.message.hasPrefix("Record mode is on: recorded the trace at ") == true)
    #expect(try String(contentsOf: file, encoding: .utf8).hasPrefix("Trace of Loader"))
    try FileManager.default.removeItem(at: file)
  }

  @Test func traceNamesBecomeSafeFileNames() {
    let file = traceFile(named: "tap, fail / retry", besideTestAt: "/x/FooTests.swift")
    #expect(file.path == "/x/__Traces__/FooTests/tap--fail---retry.trace.txt")
  }

  private static let scratchTestFile = "/tmp/DecisionsTraceScratch/ScratchTests.swift"
}
