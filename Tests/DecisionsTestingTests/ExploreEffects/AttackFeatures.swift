// Small features written the way a user would, to attack the promises of explore-with-effects
// (ExploreAttackTests).

import Decisions
import DecisionsTesting
import Foundation

/// A refresh that loads two slots at once, with the same arguments: the two calls differ only in
/// the work that makes them.
enum TwinLoads: Feature {
  struct State: Hashable, Sendable {
    var refreshed = false
    /// The slots whose answers arrived, in order.
    var order: [String] = []
  }

  enum Event: Equatable, Sendable {
    case refresh
    case loaded(slot: String, value: String)
  }

  enum Decision: Equatable, Sendable {
    case load(slot: String)
  }

  struct Deps: Sendable {
    var load: @Sendable (Int) async throws -> String
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .refresh:
      state.refreshed = true
      return [.load(slot: "a"), .load(slot: "b")]
    case .loaded(let slot, _):
      state.order.append(slot)
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load(let slot):
      effects.run(id: slot) { send in
        await send(.loaded(slot: slot, value: try await deps.load(1)))
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value("x")]))
  }

  static func refreshing(_ state: State) -> [Event] {
    state.refreshed ? [] : [.refresh]
  }
}

/// Two waits started together, for the same length: their deadlines are the same instant.
enum TwinTimers: Feature {
  struct State: Hashable, Sendable {
    var started = false
    /// The waits that ended, in order.
    var order: [String] = []
  }

  enum Event: Equatable, Sendable {
    case start
    case woke(String)
  }

  enum Decision: Equatable, Sendable {
    case wait(String)
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.started = true
      return [.wait("a"), .wait("b")]
    case .woke(let name):
      state.order.append(name)
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .wait(let name):
      effects.run(id: name) { send in
        try await deps.clock.sleep(for: .seconds(1))
        await send(.woke(name))
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(clock: effects.clock)
  }

  static func starting(_ state: State) -> [Event] {
    state.started ? [] : [.start]
  }
}

/// A load whose request gets a fresh `UUID` in the core: a core that is not a function of its
/// state and event, as users write it when they do not inject ids.
enum FreshRequestIDs: Feature {
  struct State: Hashable, Sendable {
    var requestID: UUID?
    var total = 0
  }

  enum Event: Equatable, Sendable {
    case load
    case loaded(Int)
  }

  enum Decision: Equatable, Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> Int
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .load:
      state.requestID = UUID()
      return [.load]
    case .loaded(let amount):
      state.requestID = nil
      state.total += amount
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "load") { send in
      await send(.loaded(try await deps.load()))
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value(1), .value(2)]))
  }

  static func loading(_ state: State) -> [Event] {
    state.requestID == nil && state.total < 2 ? [.load] : []
  }
}

/// A progress that starts as "unknown", as `Double.nan`: a state that is not equal to itself.
enum NaNProgress: Feature {
  struct State: Hashable, Sendable {
    var progress = Double.nan
    var steps = 0
  }

  enum Event: Equatable, Sendable {
    case step
    case loaded(Int)
  }

  enum Decision: Equatable, Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> Int
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .step:
      state.steps += 1
      return [.load]
    case .loaded:
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "load") { send in
      await send(.loaded(try await deps.load()))
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value(1), .value(2)]))
  }

  static func stepping(_ state: State) -> [Event] {
    state.steps < 2 ? [.step] : []
  }
}

/// One piece of work that loads two things at once with `async let`, and fails if either fails.
enum PairLoader: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var sum: Int?
    var failed = false
  }

  enum Event: Equatable, Sendable {
    case start
    case loaded(Int)
    case failed
  }

  enum Decision: Equatable, Sendable {
    case loadPair
  }

  struct Deps: Sendable {
    var load: @Sendable (Int) async throws -> Int
  }

  struct Offline: Error {}

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.started = true
      return [.loadPair]
    case .loaded(let sum):
      state.sum = sum
      return []
    case .failed:
      state.failed = true
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "pair") { send in
      async let first = deps.load(1)
      async let second = deps.load(2)
      let sum = try await first + second
      await send(.loaded(sum))
    } catch: { _ in
      .failed
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value(10), .failure(Offline())]))
  }

  static func starting(_ state: State) -> [Event] {
    state.started ? [] : [.start]
  }
}

/// A load the user can cancel; the work reports the cancellation to an explored log, from the
/// cancelled task.
enum CancelLogger: Feature {
  struct State: Hashable, Sendable {
    var loading = false
    var started = false
  }

  enum Event: Equatable, Sendable {
    case load
    case cancel
    case loaded(String)
  }

  enum Decision: Equatable, Sendable {
    case load
    case cancel
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> String
    var log: @Sendable (String) async throws -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .load:
      state.loading = true
      state.started = true
      return [.load]
    case .cancel:
      state.loading = false
      return [.cancel]
    case .loaded:
      state.loading = false
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { send in
        do {
          await send(.loaded(try await deps.load()))
        } catch is CancellationError {
          try await deps.log("cancelled")
        }
      }
    case .cancel:
      effects.cancel(id: "load")
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      load: effects.dependency("load", answers: [.value("text")]),
      log: effects.dependency("log", answers: [.value(())]))
  }

  static func using(_ state: State) -> [Event] {
    state.loading ? [.cancel] : state.started ? [] : [.load]
  }
}

/// Work that waits for the clock for no time at all, or for a negative time.
enum ZeroSleeper: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var woke = 0
  }

  enum Event: Equatable, Sendable {
    case start(Duration)
    case woke
  }

  enum Decision: Equatable, Sendable {
    case sleep(Duration)
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start(let duration):
      state.started = true
      return [.sleep(duration)]
    case .woke:
      state.woke += 1
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .sleep(let duration):
      effects.run(id: "sleep") { send in
        try await deps.clock.sleep(for: duration)
        await send(.woke)
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(clock: effects.clock)
  }
}

/// A search whose queries hold quotes, a backslash and a line break.
enum QuotedSearch: Feature {
  struct State: Hashable, Sendable {
    var query: String?
    var results: String?
  }

  enum Event: Equatable, Sendable {
    case search(String)
    case found(String)
  }

  enum Decision: Equatable, Sendable {
    case search(String)
  }

  struct Deps: Sendable {
    var search: @Sendable (String) async throws -> String
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .search(let query):
      state.query = query
      return [.search(query)]
    case .found(let results):
      state.results = results
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .search(let query):
      effects.run(id: "search") { send in
        await send(.found(try await deps.search(query)))
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(search: effects.dependency("search", answers: [.value("hit")]))
  }

  static let query = "say \"hi\"\\\nbye"

  static func searching(_ state: State) -> [Event] {
    state.query == nil ? [.search(query)] : []
  }
}

/// Work that waits for something the explorer does not control: a real sleep, or a stream.
enum UncontrolledWaiter: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var woke = false
    var taps = 0
  }

  enum Event: Equatable, Sendable {
    case start
    case tap
    case woke
  }

  enum Decision: Equatable, Sendable {
    case wait
  }

  struct Deps: Sendable {
    var wait: @Sendable () async throws -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.started = true
      return [.wait]
    case .tap:
      state.taps += 1
      return []
    case .woke:
      state.woke = true
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "wait") { send in
      try await deps.wait()
      await send(.woke)
    }
  }

  static func using(_ state: State) -> [Event] {
    (state.started ? [] : [.start]) + (state.taps < 3 ? [.tap] : [])
  }
}

/// A nap of an hour that ends the feature: the whole wait is one deadline.
enum LongNap: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var ended = false
  }

  enum Event: Equatable, Sendable {
    case start
    case ended
  }

  enum Decision: Equatable, Sendable {
    case nap
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.started = true
      return [.nap]
    case .ended:
      state.ended = true
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "nap") { send in
      try await deps.clock.sleep(for: .seconds(3600))
      await send(.ended)
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(clock: effects.clock)
  }

  static func starting(_ state: State) -> [Event] {
    state.started ? [] : [.start]
  }
}

/// Work that loads in an unstructured task of its own (`Task { … }.value`), which does not run on
/// the explorer's executor.
enum TaskForker: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var text: String?
  }

  enum Event: Equatable, Sendable {
    case start
    case loaded(String)
  }

  enum Decision: Equatable, Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> String
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.started = true
      return [.load]
    case .loaded(let text):
      state.text = text
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "load") { send in
      let text = try await Task { try await deps.load() }.value
      await send(.loaded(text))
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value("text")]))
  }

  static func starting(_ state: State) -> [Event] {
    state.started ? [] : [.start]
  }
}

/// A timer whose period, from some setting, is zero.
enum ZeroTimer: Feature {
  struct State: Hashable, Sendable {
    var on = false
    var ticks = 0
  }

  enum Event: Equatable, Sendable {
    case start
    case tick
  }

  enum Decision: Equatable, Sendable {
    case start
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.on = true
      return [.start]
    case .tick:
      state.ticks += 1
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.timer(id: "tick", every: .zero, on: deps.clock, send: .tick)
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(clock: effects.clock)
  }

  static func starting(_ state: State) -> [Event] {
    state.on ? [] : [.start]
  }
}
