// A poller whose timer ticks every second while it is on. With `stopsAfterOneTick`, the first
// tick turns it off; without, it polls for ever, flipping between two phases.

import Decisions
import DecisionsTesting

enum Poller: Feature {
  struct State: Hashable, Sendable {
    var isOn = false
    var phase = 0
    var stopsAfterOneTick = false
  }

  enum Event: Equatable, Sendable {
    case start
    case ticked
  }

  enum Decision: Equatable, Sendable {
    case startTimer
    case stopTimer
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      guard !state.isOn else { return [] }
      state.isOn = true
      return [.startTimer]
    case .ticked:
      state.phase = 1 - state.phase
      guard state.stopsAfterOneTick else { return [] }
      state.isOn = false
      return [.stopTimer]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .startTimer:
      effects.timer(id: "poll", every: .seconds(1), on: deps.clock, send: .ticked)
    case .stopTimer:
      effects.cancel(id: "poll")
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(clock: effects.clock)
  }

  static func starting(_ state: State) -> [Event] {
    state.isOn ? [] : [.start]
  }
}
