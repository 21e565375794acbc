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

/// Two pieces of work that call two dependencies: the first sleeps a second before its call, the
/// second calls at once, so paths to one state can make the two calls in either order.
enum TwoCalls: Feature {
  struct State: Hashable, Sendable {
    var flag = false
    var startedA = false
    var startedB = false
    var a: Int?
    var b: Int?
  }

  enum Event: Sendable {
    case startA, startB, flip
    case gotA(Int)
    case gotB(Int)
  }

  enum Decision: Sendable {
    case a, b
  }

  struct Deps: Sendable {
    var a: @Sendable () async throws -> Int
    var b: @Sendable () async throws -> Int
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .startA:
      guard !state.startedA else { return [] }
      state.startedA = true
      return [.a]
    case .startB:
      guard !state.startedB else { return [] }
      state.startedB = true
      return [.b]
    case .flip:
      state.flag.toggle()
      return []
    case .gotA(let value):
      state.a = value
      return []
    case .gotB(let value):
      state.b = value
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .a:
      effects.run(id: "a") { send in
        try await deps.clock.sleep(for: .seconds(1))
        await send(.gotA(try await deps.a()))
      }
    case .b:
      effects.run(id: "b") { send in await send(.gotB(try await deps.b())) }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      a: effects.dependency("a", answers: [.value(1)]),
      b: effects.dependency("b", answers: [.value(2)]), clock: effects.clock)
  }
}

/// Work that keeps its decision's value to itself: the state does not show which value started
/// it, and the call it waits for has no arguments, so two starts lead to one explored state.
enum KeepsAValue: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var result: Int?
  }

  enum Event: Sendable {
    case start(Int)
    case done(Int)
  }

  typealias Decision = Int

  struct Deps: Sendable {
    var wait: @Sendable () async throws -> Int
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start(let value):
      state.started = true
      return [value]
    case .done(let value):
      state.result = value
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "wait") { send in
      _ = try await deps.wait()
      await send(.done(decision))
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(wait: effects.dependency("wait", answers: [.value(0)]))
  }
}

/// A delivery whose value the work keeps to itself, started while the start's boot is in flight
/// or after it: two paths to one explored state, whose work will deliver different values.
enum Courier: Feature {
  struct State: Hashable, Sendable {
    var booted = false
    var sent = false
    var result: Int?
  }

  enum Event: Sendable {
    case booted
    case send(Int)
    case delivered(Int)
    case acked
  }

  enum Decision: Sendable {
    case boot
    case deliver(Int)
    case ack
  }

  struct Deps: Sendable {
    var boot: @Sendable () async throws -> Int
    var deliver: @Sendable () async throws -> Int
    var ack: @Sendable () async throws -> Int
  }

  static func makeStartDecisions(state: inout State) -> [Decision] { [.boot] }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .booted:
      state.booted = true
      return []
    case .send(let value):
      guard !state.sent else { return [] }
      state.sent = true
      return [.deliver(value)]
    case .delivered(let value):
      state.result = value
      return [.ack]
    case .acked:
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .boot:
      effects.run(id: "boot") { send in
        _ = try await deps.boot()
        await send(.booted)
      }
    case .deliver(let value):
      effects.run(id: "deliver") { send in
        _ = try await deps.deliver()
        await send(.delivered(value))
      }
    case .ack:
      effects.run(id: "ack") { send in
        _ = try await deps.ack()
        await send(.acked)
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      boot: effects.dependency("boot", answers: [.value(0)]),
      deliver: effects.dependency("deliver", answers: [.value(0)]),
      ack: effects.dependency("ack", answers: [.value(0), .value(1)]))
  }

  /// Before the boot, 1 then 2; after it, 2 then 1: the quiet state after the boot reaches the
  /// sent state first with 2.
  static func events(_ state: State) -> [Event] {
    guard !state.sent else { return [] }
    return state.booted ? [.send(2), .send(1)] : [.send(1), .send(2)]
  }
}

@Suite struct ExploreEffectsStepsTests {
  /// A shorter path that reaches a state whose work keeps another value is not taken back: where
  /// the return ends in another state, the explorer returns along the path that found the state.
  ///
  /// The state "sent, booted" is found while the boot is in flight, with 1 sent, and is one step
  /// from the quiet booted state with 2 sent. The delivery of 1 is found from it; returning there
  /// through the shorter path would deliver 2.
  @Test func aReturnThatEndsElsewhereTakesThePathThatFoundTheState() throws {
    let exploration = explore(
      Courier.self, from: .init(), deps: Courier.deps, events: Courier.events)
    exploration.expectComplete()
    let delivered = try #require(
      exploration.snapshots.firstIndex {
        $0.state == .init(booted: true, sent: true, result: 1) && !$0.work.isEmpty
      })
    #expect(exploration.transitions(from: delivered).count == 2)
    for transition in exploration.transitions(from: delivered) {
      #expect(exploration.snapshots[transition.to].state.result == 1, "\(transition)")
    }
  }

  /// A path that ends elsewhere when taken again, because work keeps a value to itself, is
  /// printed with a comment that says so.
  @Test func aPathThatEndsElsewhereWhenTakenAgainSaysSo() throws {
    let exploration = explore(
      KeepsAValue.self, from: .init(), deps: KeepsAValue.deps,
      events: { $0.started ? [] : [.start(1), .start(2)] })
    exploration.expectComplete()
    #expect(exploration.snapshots.count == 3)
    let second = try #require(
      exploration.transitions.firstIndex {
        if case .event(.start(2)) = $0.choice { true } else { false }
      })
    let answer = try #require(
      exploration.transitions.firstIndex {
        if case .answer = $0.choice { true } else { false }
      })
    let done = exploration.transitions[answer].to
    #expect(exploration.snapshots[done].state.result == 1)
    let comment = "// Taken again, this path does not end in the state the exploration found"
    #expect(!exploration.storeTest(to: done).contains(comment))
    let printed = exploration.storeTest(of: [second, answer], deps: "deps")
    #expect(printed.contains(comment))
    #expect(printed.contains("await test.receive(.done(2))"))
  }

  /// An answer step names its call by the work that made it, not by its place among the calls
  /// waiting: paths to one state can make its calls in another order.
  @Test func anAnswerStepNamesItsCallByItsWork() throws {
    var exploration = FeatureExploration<TwoCalls>()
    let effects = ExploredEffects(exploring: ())
    let runner = FeatureExploration<TwoCalls>.Runner(effects: effects, deps: TwoCalls.deps(effects))
    let loop = runner.makeLoop(state: .init(), runsStart: false, now: .zero)
    defer { runner.tearDown(loop) }
    // "a" starts first and sleeps; "b" calls at once; then "a" calls: the calls wait as b, a.
    let startA = exploration.step(sending: .startA)
    exploration.take(startA, in: loop, runner: runner)
    let startB = exploration.step(sending: .startB)
    exploration.take(startB, in: loop, runner: runner)
    exploration.take(.advance(by: .seconds(1)), in: loop, runner: runner)
    #expect(effects.world?.calls.map { effects.dependencies[$0.dependency].name } == ["b", "a"])
    func name(_ dependency: String) throws -> CallName {
      let call = try #require(
        effects.world?.calls.first { effects.dependencies[$0.dependency].name == dependency })
      return CallName(dependency: call.dependency, arguments: call.arguments, rank: 0)
    }
    exploration.take(.answer(work: 0, call: try name("a"), sample: 0), in: loop, runner: runner)
    #expect(loop.state.a == 1)
    #expect(loop.state.b == nil)
    // "a" has ended: "b" is the work at 0 now.
    exploration.take(.answer(work: 0, call: try name("b"), sample: 0), in: loop, runner: runner)
    #expect(loop.state.b == 2)
  }

  /// Equal lists of work keys hash alike, and lists that differ in one field, a time left
  /// included, mostly do not (a state is found by the hash, then compared).
  @Test func listsOfWorkKeysHashByEveryField() {
    typealias Exploration = FeatureExploration<TwoCalls>
    let key = ExploredWorkKey(
      place: 1, kind: 1, dependency: 0, arguments: 2, remaining: .milliseconds(300),
      others: [ExploredWaitKey(dependency: 1, arguments: 0, remaining: .seconds(-2))])
    #expect(Exploration.listHash([key, key]) == Exploration.listHash([key, key]))
    var variants = [[key], [key, key], []]
    for change in 0..<7 {
      var other = key
      switch change {
      case 0: other.place = 2
      case 1: other.kind = 0
      case 2: other.dependency = 1
      case 3: other.arguments = 3
      case 4: other.remaining = .milliseconds(301)
      case 5: other.remaining = .seconds(300)
      default: other.others[0].remaining = .seconds(-3)
      }
      variants.append([other])
    }
    #expect(Set(variants.map(Exploration.listHash)).count == variants.count)
  }

  /// The answers a world keeps for the key (those of work that still waits) are dropped once
  /// their work has ended: a world lives as long as its loop, for thousands of steps.
  @Test func theAnswersOfEndedWorkAreDropped() {
    var exploration = FeatureExploration<TwoCalls>()
    let effects = ExploredEffects(exploring: ())
    let runner = FeatureExploration<TwoCalls>.Runner(effects: effects, deps: TwoCalls.deps(effects))
    let loop = runner.makeLoop(state: .init(), runsStart: false, now: .zero)
    defer { runner.tearDown(loop) }
    let startB = exploration.step(sending: .startB)
    exploration.take(startB, in: loop, runner: runner)
    let call = effects.world?.calls.first
    exploration.take(
      .answer(
        work: 0,
        call: CallName(dependency: call?.dependency ?? 0, arguments: call?.arguments ?? 0, rank: 0),
        sample: 0),
      in: loop, runner: runner)
    #expect(loop.state.b == 2)
    #expect(effects.world?.answers.count == 1)
    _ = exploration.workKeys(of: loop, runner: runner)
    #expect(effects.world?.answers.isEmpty == true)
  }

  /// Every answer explored reaches the call it names, whatever path the explorer returned along.
  @Test func everyAnswerExploredReachesTheCallItNames() {
    let exploration = explore(
      TwoCalls.self, from: .init(), deps: TwoCalls.deps,
      events: { _ in [.startA, .startB, .flip] })
    exploration.expectComplete()
    var answers = 0
    for transition in exploration.transitions {
      guard case .answer(let dependency, _, _) = transition.choice else { continue }
      answers += 1
      let before = exploration.snapshots[transition.from].state
      let after = exploration.snapshots[transition.to].state
      if dependency == "a" {
        #expect(after.a == 1 && after.b == before.b, "\(transition)")
      } else {
        #expect(after.b == 2 && after.a == before.a, "\(transition)")
      }
    }
    #expect(answers > 10)
  }

  /// The explorer returns to a state with work in flight along the shortest path it knows from
  /// a state with none, not only along the path that found it.
  @Test func aReturnTakesTheShortestPathKnownFromAQuietState() throws {
    let exploration = StepsTakenBack.$areTaken.withValue(false) {
      explore(
        LoadAndFlag.self, from: .init(), deps: LoadAndFlag.deps, events: { _ in [.load, .flip] })
    }
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
    let exploration = StepsTakenBack.$areTaken.withValue(false) {
      explore(AlwaysLoading.self, from: .init(), deps: AlwaysLoading.deps, events: { _ in [] })
    }
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

  /// A step is taken back, not returned to along a path: each choice runs one step.
  ///
  /// An answer's work is started again (it waited where it first waited), the work the step
  /// started ends, and the core moves back; the graph is the one the returns find.
  @Test func stepsTakenBackRunOneStepEach() {
    func check<F: Feature>(returns: Int, _ explored: () -> FeatureExploration<F>) {
      let takenBack = explored()
      let returned = StepsTakenBack.$areTaken.withValue(false) { explored() }
      takenBack.expectComplete()
      #expect(takenBack.stepsRun == takenBack.transitions.count + returns)
      #expect(takenBack.stepsRun < returned.stepsRun)
      #expect(graph(of: takenBack) == graph(of: returned))
    }
    // NB: one return of one step: flipping the flag during the load finds a state with work in
    // flight, whose loop is kept for it; the load's answers then return along a path.
    check(returns: 1) {
      explore(
        LoadAndFlag.self, from: .init(), deps: LoadAndFlag.deps, events: { _ in [.load, .flip] })
    }
    // NB: a reload starts in the task of the load whose event decided it, and inherits its
    // task-locals and priority: it is not started again, and the explorer returns to its states
    // (the first load, a start decision's, is answered in the first state, returned to for free).
    let takenBack = explore(
      AlwaysLoading.self, from: .init(), deps: AlwaysLoading.deps, events: { _ in [] })
    let returned = StepsTakenBack.$areTaken.withValue(false) {
      explore(AlwaysLoading.self, from: .init(), deps: AlwaysLoading.deps, events: { _ in [] })
    }
    #expect(takenBack.stepsTakenBack.workStartedAgain == 0)
    #expect(takenBack.stepsRun == returned.stepsRun)
    #expect(graph(of: takenBack) == graph(of: returned))
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
