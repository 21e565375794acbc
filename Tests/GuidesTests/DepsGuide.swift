// The examples of Docs/Deps.md, compiled.

import DecisionsTesting
import Foundation

// MARK: - Test values: a factory of failing deps

extension Counter.Deps {
  /// Deps whose every closure fails the test that calls it; a test replaces the ones its path uses.
  ///
  /// Failures are reported at the caller's line, not here.
  static func unused(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    Self(
      loadFact: unimplemented(
        "loadFact", fileID: fileID, filePath: filePath, line: line, column: column),
      log: unimplemented("log", fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

// MARK: - A stream and a clock as deps

// `Thermometer`, the stream and clock example, is in Thermometer.swift, which the SwiftUI
// stand-in fixture compiles too (Tests/Fixtures/SwiftUIStandIn).

// MARK: - A service you already have, behind the closures

/// A service written before the feature, behind a protocol.
protocol NumberService: Sendable {
  func fact(about number: Int) async throws -> String
}

extension Counter.Deps {
  /// Live deps over an existing service: its methods become the closures.
  static func live(service: some NumberService, log: @escaping @Sendable (String) -> Void) -> Self {
    Self(loadFact: service.fact(about:), log: log)
  }
}
