// The stream-and-clock example of Docs/Deps.md: a feature that reads a stream of temperatures
// while its screen is visible. A file of its own, with no test support, so that the SwiftUI
// stand-in fixture (Tests/Fixtures/SwiftUIStandIn) compiles it beside the view that shows it.

import Decisions
import Foundation

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
