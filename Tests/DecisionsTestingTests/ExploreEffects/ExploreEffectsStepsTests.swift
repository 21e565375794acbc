// How many steps the explorer of effects runs, and the stepped loop it runs them on: a loop that
// found a state with work in flight is kept until the state is expanded, and a loop with no work
// in flight is moved to the next such state rather than made again.

import Testing

@testable import Decisions
@testable import DecisionsTesting

/// A counter whose load is always in flight, until the count reaches 3.
///
/// The start loads, and each answer adds to the count and loads again. Its only state with no work
/// in flight is the last.
enum AlwaysLoading: Feature {
  struct State: Hashable, Sendable {
    var count = 0
  }

  enum Event: Sendable {
    case loaded(Int)
  }

  enum Decision: Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> Int
  }

  static func makeStartDecisions(state: inout State) -> [Decision] { [.load] }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .loaded(let amount):
      state.count = min(3, state.count + amount)
      return state.count < 3 ? [.load] : []
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
}

/// A load and a flag: the flag can be flipped while the load is in flight.
///
/// The state with the flag up and the load in flight is found by flipping it during the load (two
/// steps from the start), and is one step from the quiet state with the flag up.
enum LoadAndFlag: Feature {
  struct State: Hashable, Sendable {
    var flag = false
    var isLoading = false
    var loaded = 0
  }

  enum Event: Sendable {
    case load, flip
    case loaded(Int)
  }

  enum Decision: Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> Int
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .load:
      guard !state.isLoading, state.loaded == 0 else { return [] }
      state.isLoading = true
      return [.load]
    case .flip:
      state.flag.toggle()
      return []
    case .loaded(let value):
      state.isLoading = false
      state.loaded = value
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
}

@Suite struct ExploreEffectsStepsTests {
  /// The explorer returns to a state with work in flight along the shortest path it knows from
  /// a state with none, not only along the path that found it.
  @Test func aReturnTakesTheShortestPathKnownFromAQuietState() throws {
    let exploration = explore(
      LoadAndFlag.self, from: .init(), deps: LoadAndFlag.deps, events: { _ in [.load, .flip] })
    exploration.expectComplete()
    let flippedWhileLoading = try #require(
      exploration.snapshots.firstIndex { $0.state == .init(flag: true, isLoading: true) })
    #expect(exploration.depth(of: flippedWhileLoading) == 2)
    #expect(exploration.returnSteps[flippedWhileLoading] == 1)
    // Each state's first choice runs one step; each other, its return and one step.
    let expected = exploration.snapshots.indices.reduce(0) { steps, number in
      let choices = exploration.transitions(from: number).count
      guard choices > 0 else { return steps }
      return steps + 1 + (choices - 1) * (exploration.returnSteps[number] + 1)
    }
    #expect(exploration.stepsRun == expected)
    #expect(exploration.transitions(from: flippedWhileLoading).count == 4)
  }

  /// Each state's first choice runs one step: the loop that found the state still runs there.
  ///
  /// Every other choice returns to it from the start (no state before it is without work), so
  /// it runs the state's depth in steps, and then its own.
  @Test func aStatesFirstChoiceRunsOneStep() {
    let exploration = explore(
      AlwaysLoading.self, from: .init(), deps: AlwaysLoading.deps, events: { _ in [] })
    exploration.expectComplete()
    #expect(exploration.snapshots.map(\.state.count) == [0, 1, 2, 3])
    let expected = exploration.snapshots.indices.reduce(0) { steps, number in
      let choices = exploration.transitions(from: number).count
      guard choices > 0 else { return steps }
      return steps + 1 + (choices - 1) * (exploration.depth(of: number) + 1)
    }
    #expect(exploration.transitions.count == 6)
    #expect(exploration.stepsRun == expected)
  }

  /// A loop with work in flight cannot be moved to another state; one without can, and then runs
  /// as a loop made from that state does; so can one whose work was cancelled and has ended.
  @Test func onlyALoopWithNoWorkInFlightMovesToAnotherState() {
    let pump = ExplorePump()
    let effects = ExploredEffects(exploring: ())
    let deps = AlwaysLoading.deps(effects)
    let isolation = ExploreIsolation(pump: pump)
    func makeLoop(_ state: AlwaysLoading.State, runsStart: Bool) -> SteppedLoop<AlwaysLoading> {
      SteppedLoop(
        state: state, deps: deps, runsStart: runsStart, isolation: isolation,
        reportsOnlyProblems: true, diagnostics: { _ in },
        startTask: { token, priority, body in
          Task(executorPreference: pump, priority: priority) {
            await ExploredWorkToken.$current.withValue(token) { await body() }
          }
        })
    }
    effects.world = ExploredWorld(now: .zero)
    defer { effects.world = nil }

    let loading = makeLoop(.init(count: 0), runsStart: true)
    loading.start()
    pump.drain()
    #expect(!loading.isQuiet)
    #expect(!loading.reset(to: .init(count: 2)))
    #expect(loading.state.count == 0)
    loading.stop()
    pump.drain()

    // A loop made at 1, with nothing in flight, is moved to 2: an answer then ends the count.
    let moved = makeLoop(.init(count: 1), runsStart: false)
    #expect(moved.isQuiet)
    #expect(moved.reset(to: .init(count: 2)))
    moved.send(.loaded(1))
    pump.drain()
    #expect(moved.state.count == 3)
    #expect(moved.isQuiet)
    moved.stop()
    pump.drain()

    // A loop whose work in flight is cancelled, without stopping it, has none once the work has
    // ended: it moves to another state and starts work there.
    let cancelled = makeLoop(.init(count: 0), runsStart: true)
    cancelled.start()
    pump.drain()
    #expect(effects.world?.calls.count == 1)
    cancelled.cancelAllWork()
    pump.drain()
    #expect(effects.world?.calls.isEmpty == true)
    #expect(cancelled.isQuiet)
    #expect(cancelled.reset(to: .init(count: 1)))
    cancelled.send(.loaded(1))
    pump.drain()
    #expect(cancelled.state.count == 2)
    #expect(effects.world?.calls.count == 1)
    #expect(!cancelled.isQuiet)
    cancelled.stop()
    pump.drain()
  }

  /// A loop that hears only problems still hears work that failed with an error no handler took,
  /// and nothing else.
  @Test func aLoopThatHearsOnlyProblemsHearsAFailure() {
    struct Offline: Error {}
    let pump = ExplorePump()
    let effects = ExploredEffects(exploring: ())
    let deps = AlwaysLoading.Deps(load: effects.dependency("load", answers: [.failure(Offline())]))
    let isolation = ExploreIsolation(pump: pump)
    let heard = ProblemLog()
    effects.world = ExploredWorld(now: .zero)
    defer { effects.world = nil }
    let loop = SteppedLoop<AlwaysLoading>(
      state: .init(), deps: deps, runsStart: true, isolation: isolation,
      reportsOnlyProblems: true,
      diagnostics: { report in heard.found.append("\(report)") },
      startTask: { token, priority, body in
        Task(executorPreference: pump, priority: priority) {
          await ExploredWorkToken.$current.withValue(token) { await body() }
        }
      })
    loop.start()
    pump.drain()
    #expect(heard.found.isEmpty)
    effects.world?.answer(0, sample: 0)
    pump.drain()
    #expect(heard.found.count == 1)
    #expect(heard.found.first?.hasPrefix("workFailed") == true)
    loop.stop()
    pump.drain()
  }
}
