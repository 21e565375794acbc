import Decisions
import Foundation

extension Persisted.Deps {
  /// Deps of a persisted value whose file closures fail the test if called, for a test that does
  /// not touch the file: each throws a ``Decisions/JSONFileError/unreadable(path:reason:)`` that
  /// names the closure, after the failure.
  ///
  /// ```swift
  /// let test = StoreTest<Notes>(
  ///   state: .init(notes: .init([], status: .loaded)),
  ///   deps: .init(file: .unimplemented(clock: clock)))
  /// ```
  /// - Parameters:
  ///   - name: The value's name in failures: `"file"` unless given (`"file.save"` is reported).
  ///   - clock: The clock of the quiet period: a new `TestClock` unless given.
  ///   - fileID: The caller's file id, where a call is reported.
  ///   - filePath: The caller's file path, where a call is reported.
  ///   - line: The caller's line, where a call is reported.
  ///   - column: The caller's column, where a call is reported.
  /// - Returns: The deps.
  public static func unimplemented(
    _ name: String = "file", clock: any Clock<Duration> = TestClock(),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    func error(_ closure: String) -> JSONFileError {
      .unreadable(path: "\(name).\(closure)", reason: "an unimplemented dependency was called")
    }
    return Self(
      clock: clock,
      load: DecisionsTesting.unimplemented(
        "\(name).load", throwing: error("load"), fileID: fileID, filePath: filePath, line: line,
        column: column),
      save: DecisionsTesting.unimplemented(
        "\(name).save", throwing: error("save"), fileID: fileID, filePath: filePath, line: line,
        column: column),
      moveAside: DecisionsTesting.unimplemented(
        "\(name).moveAside", throwing: error("moveAside"), fileID: fileID, filePath: filePath,
        line: line, column: column))
  }
}
