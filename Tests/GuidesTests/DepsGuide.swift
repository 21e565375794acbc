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

/// Shows the temperature while the screen is visible, stamped with the time it was measured.
enum Thermometer: Feature {
  struct State: Equatable, Sendable {
    var celsius: Double?
    var measuredAt: Date?
    var isWatching = false
  }

  enum Event: Equatable, Sendable {
    case appeared
    case disappeared
    case measured(Double, at: Date)
  }

  enum Decision: Equatable, Sendable {
    case watch
    case stopWatching
  }

  struct Deps: Sendable {
    var readings: @Sendable () -> AsyncStream<Double>
    var now: @Sendable () -> Date
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .appeared:
      guard !state.isWatching else { return [] }
      state.isWatching = true
      return [.watch]
    case .disappeared:
      guard state.isWatching else { return [] }
      state.isWatching = false
      return [.stopWatching]
    case .measured(let celsius, let date):
      state.celsius = celsius
      state.measuredAt = date
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .watch:
      effects.run(id: "readings") { send in
        for await celsius in deps.readings() {
          await send(.measured(celsius, at: deps.now()))
        }
      }
    case .stopWatching:
      effects.cancel(id: "readings")
    }
  }
}

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
