// Small features written the way a user would, to attack the explorer's returns along the
// shortest known path, its answer steps named by work, and its clock shifts
// (ExploreReturnAttackTests).

import Decisions
import DecisionsTesting
import Synchronization

/// A repeating timer that counts its ticks once a flag is up; the flag comes from the user at
/// once, or from a delay of two seconds started with the timer.
///
/// The state "flag up, ticking, no tick counted" is found at two seconds (the delay and the first
/// tick end together), and is one step from the quiet state "flag up" at zero seconds.
enum LateTimer: Feature {
  struct State: Hashable, Sendable {
    var ticking = false
    var flag = false
    var ticks = 0
    var poked = false
  }

  enum Event: Equatable, Sendable {
    case both, start, setFlag, poke, tick, delayed
  }

  enum Decision: Equatable, Sendable {
    case timer, delay
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .both:
      state.ticking = true
      return [.timer, .delay]
    case .start:
      state.ticking = true
      return [.timer]
    case .setFlag:
      state.flag = true
      return []
    case .poke:
      state.poked = true
      return []
    case .tick:
      if state.flag { state.ticks = min(state.ticks + 1, 3) }
      return []
    case .delayed:
      state.flag = true
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .timer:
      effects.timer(id: "tick", every: .seconds(2), on: deps.clock, send: .tick)
    case .delay:
      effects.run(id: "delay") { send in
        try await deps.clock.sleep(for: .seconds(2))
        await send(.delayed)
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(clock: effects.clock)
  }

  static func using(_ state: State) -> [Event] {
    if state.ticking { return state.poked ? [] : [.poke] }
    return [.both, .start] + (state.flag ? [] : [.setFlag])
  }
}

/// One piece of work that loads three things at once in a task group, each reported as it comes.
///
/// Started by `.prefetch`, it first loads a config, then x, y, z; started by `.direct`
/// (after `.arm`), it loads x, z, y at once: the order is the work's own.
enum TrioLoader: Feature {
  struct State: Hashable, Sendable {
    var armed = false
    var started = false
    var got: [String] = []
  }

  enum Event: Equatable, Sendable {
    case prefetch, arm, direct
    case got(String)
  }

  enum Decision: Equatable, Sendable {
    case load(names: [String], config: Bool)
  }

  struct Deps: Sendable {
    var config: @Sendable () async throws -> Int
    var x: @Sendable () async throws -> Int
    var y: @Sendable () async throws -> Int
    var z: @Sendable () async throws -> Int
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .prefetch:
      state.started = true
      return [.load(names: ["x", "y", "z"], config: true)]
    case .arm:
      state.armed = true
      return []
    case .direct:
      state.armed = false
      state.started = true
      return [.load(names: ["x", "z", "y"], config: false)]
    case .got(let name):
      state.got.append(name)
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load(let names, let config):
      effects.run(id: "trio") { send in
        if config { _ = try await deps.config() }
        try await withThrowingTaskGroup(of: Void.self) { group in
          for name in names {
            let load = name == "x" ? deps.x : name == "y" ? deps.y : deps.z
            group.addTask {
              _ = try await load()
              await send(.got(name))
            }
          }
          try await group.waitForAll()
        }
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      config: effects.dependency("config", answers: [.value(0)]),
      x: effects.dependency("x", answers: [.value(1)]),
      y: effects.dependency("y", answers: [.value(2)]),
      z: effects.dependency("z", answers: [.value(3)]))
  }

  static func using(_ state: State) -> [Event] {
    guard !state.started else { return [] }
    return state.armed ? [.direct] : [.prefetch, .arm]
  }
}

/// `TwinLoads` with its two loads started without an id: the two calls differ only in the work
/// that makes them, which has no name.
enum UnkeyedTwins: Feature {
  typealias State = TwinLoads.State
  typealias Event = TwinLoads.Event
  typealias Decision = TwinLoads.Decision
  typealias Deps = TwinLoads.Deps

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    TwinLoads.makeDecisions(event: event, state: &state)
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load(let slot):
      effects.run { send in
        await send(.loaded(slot: slot, value: try await deps.load(1)))
      }
    }
  }

  static let deps = TwinLoads.deps
  static let refreshing = TwinLoads.refreshing
}

/// A list that opens an item's screen, which loads its text in its own work "load", and
/// prefetches the same item in a work of its own, also "load": two equal calls, from work with
/// one id in two scopes.
enum PrefetchingList: Feature {
  struct State: Hashable, Sendable {
    @Presented var screen: ItemScreen.State?
    /// The item the list prefetched, once its answer arrived.
    var prefetched: Int?
  }

  enum Event: Equatable, Sendable {
    case open(Int)
    case prefetched(Int)
    case screen(ItemScreen.Event)
  }

  enum Decision: Equatable, Sendable {
    case screen(ItemScreen.Decision)
    case prefetch(Int)
  }

  typealias Deps = ItemScreen.Deps

  static let screen = embed(
    ItemScreen.self, presented: \.$screen, event: Event.screen, decision: Decision.screen)
  static let childWork = [screen.work]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .open(let item):
      state.screen = ItemScreen.State(item: item)
      return [.screen(.load(item)), .prefetch(item)]
    case .prefetched(let item):
      state.prefetched = item
      return []
    case .screen(let event):
      return screen.makeDecisions(event: event, in: &state)
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .screen(let decision):
      screen.execute(decision, deps: deps, effects: effects)
    case .prefetch(let item):
      effects.run(id: "load") { send in
        _ = try await deps.load(item)
        await send(.prefetched(item))
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value("text")]))
  }

  static func opening(_ state: State) -> [Event] {
    state.screen == nil ? [.open(1)] : []
  }
}

/// A timer that can be started again (replacing its work), stopped, and a nap of three seconds
/// beside it: deadlines of two periods meet at other times on other paths.
enum ClockMix: Feature {
  struct State: Hashable, Sendable {
    var ticking = false
    var phase = 0
    var napping = false
    var napped = false
  }

  enum Event: Equatable, Sendable {
    case start, stop, nap, tick, napped
  }

  enum Decision: Equatable, Sendable {
    case start, stop, nap
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.ticking = true
      return [.start]
    case .stop:
      state.ticking = false
      return [.stop]
    case .nap:
      state.napping = true
      return [.nap]
    case .tick:
      state.phase = 1 - state.phase
      return []
    case .napped:
      state.napping = false
      state.napped = true
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .start:
      effects.timer(id: "tick", every: .seconds(2), on: deps.clock, send: .tick)
    case .stop:
      effects.cancel(id: "tick")
    case .nap:
      effects.run(id: "nap") { send in
        try await deps.clock.sleep(for: .seconds(3))
        await send(.napped)
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(clock: effects.clock)
  }

  static func using(_ state: State) -> [Event] {
    [.start] + (state.ticking ? [.stop] : []) + (state.napping || state.napped ? [] : [.nap])
  }
}

/// One piece of work that loads two values at once with `async let` and shows both.
enum PairValues: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var pair: [Int]?
  }

  enum Event: Equatable, Sendable {
    case start
    case loaded([Int])
  }

  enum Decision: Equatable, Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable (Int) async throws -> Int
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.started = true
      return [.load]
    case .loaded(let pair):
      state.pair = pair
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "pair") { send in
      async let first = deps.load(1)
      async let second = deps.load(2)
      let pair = try await [first, second]
      await send(.loaded(pair))
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value(1), .value(2)]))
  }

  static func starting(_ state: State) -> [Event] {
    state.started ? [] : [.start]
  }
}

/// A save that tries twice, counting its tries to itself, and reports that it gave up; each
/// failure leaves the state as it was.
enum TwoTries: Feature {
  struct State: Hashable, Sendable {
    var saving = false
    var outcome: String?
  }

  enum Event: Equatable, Sendable {
    case save
    case saved
    case gaveUp
  }

  enum Decision: Equatable, Sendable {
    case save
  }

  struct Deps: Sendable {
    var save: @Sendable () async throws -> Void
  }

  struct Offline: Error {}
  struct Busy: Error {}

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .save:
      state.saving = true
      return [.save]
    case .saved:
      state.saving = false
      state.outcome = "saved"
      return []
    case .gaveUp:
      state.saving = false
      state.outcome = "gave up"
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "save") { send in
      for _ in 0..<2 {
        do {
          try await deps.save()
          await send(.saved)
          return
        } catch {}
      }
      await send(.gaveUp)
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      save: effects.dependency(
        "save", answers: [.failure(Offline()), .failure(Busy()), .value(())]))
  }

  static func saving(_ state: State) -> [Event] {
    state.saving || state.outcome != nil ? [] : [.save]
  }
}

/// A save that tries twice, counting its tries to itself, and once it gave up, reports it and
/// shows the report's number.
enum TriesThenReport: Feature {
  struct State: Hashable, Sendable {
    var saving = false
    var gaveUp = false
    var report: Int?
  }

  enum Event: Equatable, Sendable {
    case save
    case gaveUp
    case reported(Int)
  }

  enum Decision: Equatable, Sendable {
    case save
  }

  struct Deps: Sendable {
    var save: @Sendable () async throws -> Void
    var report: @Sendable () async throws -> Int
  }

  struct Offline: Error {}
  struct Busy: Error {}

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .save:
      state.saving = true
      return [.save]
    case .gaveUp:
      state.gaveUp = true
      return []
    case .reported(let number):
      state.report = number
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "save") { send in
      for _ in 0..<2 {
        do {
          try await deps.save()
        } catch {}
      }
      await send(.gaveUp)
      await send(.reported(try await deps.report()))
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      save: effects.dependency("save", answers: [.failure(Offline()), .failure(Busy())]),
      report: effects.dependency("report", answers: [.value(1), .value(2)]))
  }

  static func saving(_ state: State) -> [Event] {
    state.saving ? [] : [.save]
  }
}

/// A nap of an hour that starts a fast timer (every 10 ms) when it ends; the user can also raise
/// the flag and start the timer at once.
///
/// "Flag up, ticking" is found at one hour (after the nap), and is one step from the quiet
/// "flag up" at zero.
enum NapThenTimer: Feature {
  struct State: Hashable, Sendable {
    var napping = false
    var flag = false
    var ticking = false
    var ticks = 0
    var poked = false
    /// Whether the timer is a loop of `sleep(for:)` rather than `Effects.timer`.
    var relative = false
  }

  enum Event: Equatable, Sendable {
    case nap, napped, setFlag, start, poke, tick
  }

  enum Decision: Equatable, Sendable {
    case nap
    case timer(relative: Bool)
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .nap:
      state.napping = true
      return [.nap]
    case .napped:
      state.napping = false
      state.flag = true
      state.ticking = true
      return [.timer(relative: state.relative)]
    case .setFlag:
      state.flag = true
      return []
    case .start:
      state.ticking = true
      return [.timer(relative: state.relative)]
    case .poke:
      state.poked = true
      return []
    case .tick:
      state.ticks = min(state.ticks + 1, 3)
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .nap:
      effects.run(id: "nap") { send in
        try await deps.clock.sleep(for: .seconds(3600))
        await send(.napped)
      }
    case .timer(relative: false):
      effects.timer(id: "tick", every: .milliseconds(10), on: deps.clock, send: .tick)
    case .timer(relative: true):
      effects.run(id: "tick") { send in
        while true {
          try await deps.clock.sleep(for: .milliseconds(10))
          await send(.tick)
        }
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(clock: effects.clock)
  }

  static func using(_ state: State) -> [Event] {
    if state.ticking { return state.poked ? [] : [.poke] }
    if state.napping { return [] }
    return [.nap] + (state.flag ? [.start] : [.setFlag])
  }
}

/// A load whose argument is a counter of the whole process, incremented by each start of the
/// work: taken again, the same steps make another call, and so does the work started again.
enum OutsideCounter: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var value: Int?
  }

  enum Event: Equatable, Sendable {
    case start
    case loaded(Int)
  }

  enum Decision: Equatable, Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable (Int) async throws -> Int
  }

  static let counter = Atomic<Int>(0)

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.started = true
      return [.load]
    case .loaded(let value):
      state.value = value
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "load") { send in
      let number = counter.add(1, ordering: .relaxed).newValue
      await send(.loaded(try await deps.load(number)))
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value(1), .value(2)]))
  }

  static func starting(_ state: State) -> [Event] {
    state.started ? [] : [.start]
  }
}
