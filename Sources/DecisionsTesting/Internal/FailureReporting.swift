// swift-format-ignore-file: AmbiguousTrailingClosureOverload
// NB: `withCapturedFailures` has a sync and an async overload, like `withKnownIssue`; the context
// picks one, so the lint rule against that pattern is off for this file.

import Testing

#if canImport(XCTest)
  import XCTest
#endif

/// Where in a test file a failure belongs: the caller's location, captured by default arguments.
package struct Location: Sendable {
  /// The file's id, `Module/File.swift`.
  package var fileID: StaticString
  /// The file's full path.
  package var filePath: StaticString
  /// The line.
  package var line: UInt
  /// The column.
  package var column: UInt

  /// Creates a location from the caller's magic literals.
  package init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }

  /// The location as Swift Testing's `SourceLocation`.
  var sourceLocation: SourceLocation {
    SourceLocation(
      fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  }
}

/// A failure that a helper reported, as captured by ``withCapturedFailures(_:)``.
package struct CapturedFailure: Sendable, Equatable {
  /// The failure message.
  package var message: String
  /// The line it was reported at.
  package var line: UInt
  /// The file it was reported in, as a file id.
  package var fileID: String
}

/// Collects failures instead of reporting them, for tests of the helpers themselves.
enum FailureCollector {
  /// The collector of the current task, if a test of the helpers set one.
  @TaskLocal static var current: SharedLog<CapturedFailure>?
}

/// Runs `body` and returns the failures DecisionsTesting helpers reported in it, instead of failing.
package func withCapturedFailures(
  _ body: () async throws -> Void
) async rethrows -> [CapturedFailure] {
  let collector = SharedLog<CapturedFailure>()
  try await FailureCollector.$current.withValue(collector) { try await body() }
  return collector.all
}

/// Runs `body` and returns the failures DecisionsTesting helpers reported in it, instead of failing.
package func withCapturedFailures(_ body: () throws -> Void) rethrows -> [CapturedFailure] {
  let collector = SharedLog<CapturedFailure>()
  try FailureCollector.$current.withValue(collector) { try body() }
  return collector.all
}

/// Reports a test failure to whichever test framework is running the current test.
///
/// Under Swift Testing the failure is an issue at `location`; under XCTest it is an `XCTFail` at the
/// same file and line.
func reportFailure(_ message: String, at location: Location) {
  if let collector = FailureCollector.current {
    collector.append(
      CapturedFailure(message: message, line: location.line, fileID: "\(location.fileID)"))
    return
  }
  if Test.current != nil {
    Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
    return
  }
  #if canImport(XCTest)
    XCTFail(message, file: location.filePath, line: location.line)
  #else
    print("\(location.fileID):\(location.line): error: \(message)")
  #endif
}
