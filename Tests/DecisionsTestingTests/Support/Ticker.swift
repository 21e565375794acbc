import Decisions

/// A small feature with time in it: a debounced query, a repeating tick, and a chain of delays.
enum Ticker: Feature {
  struct State: Equatable, Sendable {
    var query = ""
    var searched: [String] = []
    var ticks = 0
    var steps = 0
  }

  enum Event: Equatable, Sendable {
    case typed(String)
    case quietPeriodEnded(String)
    case start
    case stop
    case tick
    case chain(Int)
    case stepped(Int)
    case wake(Int)
    case woke(Int)
  }

  enum Decision: Equatable, Sendable {
    case debounce(String)
    case startTicking
    case stopTicking
    case step(Int)
    case sleep(Int)
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .typed(let query):
      state.query = query
      return [.debounce(query)]
    case .quietPeriodEnded(let query):
      state.searched.append(query)
      return []
    case .start:
      return [.startTicking]
    case .stop:
      return [.stopTicking]
    case .tick:
      state.ticks += 1
      return []
    case .chain(let count):
      return count > 0 ? [.step(count)] : []
    case .stepped(let left):
      state.steps += 1
      return left > 1 ? [.step(left - 1)] : []
    case .wake(let seconds):
      return [.sleep(seconds)]
    case .woke(let seconds):
      state.searched.append("woke \(seconds)")
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .debounce(let query):
      effects.run(id: "debounce") { send in
        try await deps.clock.sleep(for: .milliseconds(300))
        await send(.quietPeriodEnded(query))
      }
    case .startTicking:
      effects.run(id: "ticker") { send in
        while true {
          try await deps.clock.sleep(for: .seconds(1))
          await send(.tick)
        }
      }
    case .stopTicking:
      effects.cancel(id: "ticker")
    case .step(let left):
      effects.run { send in
        try await deps.clock.sleep(for: .seconds(1))
        await send(.stepped(left))
      }
    case .sleep(let seconds):
      effects.run { send in
        try await deps.clock.sleep(for: .seconds(seconds))
        await send(.woke(seconds))
      }
    }
  }
}
