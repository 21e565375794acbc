// Attacks on the explorer taking a step back (helper-38's, on ac2004b): each test explores a
// feature with and without steps taken back (`StepsTakenBack.$areTaken`) and compares what they
// find, as TakeBackAttackTests does: work started again from its decision with a scratch registry,
// child scopes and lifetimes, timers, start decisions, deadlines read from the clock, `async let`.
// The two bugs they found are fixed (a report made again; the task-locals and the priority of the
// work whose event started the work), and each test failed before its fix.

import Decisions
import Synchronization
import Testing

@testable import DecisionsTesting

// The helpers (`both`, `Sweep`, `differences`) are in TakeBackComparison.swift.

// MARK: - A presented child whose work no declaration covers

/// A grandchild with no work.
private enum Sub: Feature {
  struct State: Hashable, Sendable { var x = 0 }
  enum Event: Equatable, Sendable { case nothing }
  enum Decision: Equatable, Sendable { case nothing }
  struct Deps: Sendable {}
  static func makeDecisions(event: Event, state: inout State) -> [Decision] { [] }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {}
}

/// A row that may present a `Sub`: it declares child work, so the list of rows has no
/// fingerprint, and every check of the parent's child work looks at all of it.
private enum SubRow: Feature {
  struct State: Hashable, Sendable, Identifiable {
    var id: Int
    @Presented var sub: Sub.State?
  }
  enum Event: Equatable, Sendable { case sub(Sub.Event) }
  enum Decision: Equatable, Sendable { case sub(Sub.Decision) }
  struct Deps: Sendable {}
  static let sub = embed(Sub.self, presented: \.$sub, event: Event.sub, decision: Decision.sub)
  static let childWork = [sub.work]
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .sub(let event): return sub.makeDecisions(event: event, in: &state)
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .sub(let decision): sub.execute(decision, deps: Sub.Deps(), effects: effects)
    }
  }
}

/// A panel that loads, and can cancel its load.
private enum LoadingPanel: Feature {
  struct State: Hashable, Sendable { var value: Int? }
  enum Event: Equatable, Sendable { case loaded(Int) }
  enum Decision: Equatable, Sendable { case load, cancel }
  struct Deps: Sendable {
    var load: @Sendable () async throws -> Int
  }
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .loaded(let value):
      state.value = value
      return []
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { send in await send(.loaded(try await deps.load())) }
    case .cancel:
      effects.cancel(id: "load")
    }
  }
}

/// A parent that forgot its panel's `work` in `childWork` (only the rows' is there): the
/// panel's load runs in a scope no lifetime covers, which the loop reports once, when it starts.
private enum ForgetfulHost: Feature {
  struct State: Hashable, Sendable {
    var rows: IdentifiedArray<SubRow.State> = [SubRow.State(id: 1)]
    @Presented var panel: LoadingPanel.State?
    var opened = false
    var cancelled = false
    var pokes = 0
  }
  enum Event: Equatable, Sendable {
    case open, cancel, poke
    case panel(LoadingPanel.Event)
    case row(Int, SubRow.Event)
  }
  enum Decision: Equatable, Sendable {
    case panel(LoadingPanel.Decision)
    case row(Int, SubRow.Decision)
  }
  typealias Deps = LoadingPanel.Deps

  static let rows = embed(SubRow.self, list: \.rows, event: Event.row, decision: Decision.row)
  static let panel = embed(
    LoadingPanel.self, presented: \.$panel, event: Event.panel, decision: Decision.panel)
  // NB: `panel.work` left out (the bug a store reports).
  static let childWork = [rows.work]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .open:
      state.opened = true
      state.panel = LoadingPanel.State()
      return [.panel(.load)]
    case .cancel:
      state.cancelled = true
      return [.panel(.cancel)]
    case .poke:
      state.pokes += 1
      return []
    case .panel(let event):
      return panel.makeDecisions(event: event, in: &state)
    case .row(let id, let event):
      return rows.makeDecisions(event: event, id: id, in: &state)
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .panel(let decision): panel.execute(decision, deps: deps, effects: effects)
    case .row(let id, let decision):
      rows.execute(decision, id: id, deps: SubRow.Deps(), effects: effects)
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value(1)]))
  }

  static func using(_ state: State) -> [Event] {
    guard state.opened else { return [.open] }
    guard state.panel?.value == nil, !state.cancelled else { return [] }
    return state.pokes < 2 ? [.cancel, .poke] : [.cancel]
  }
}

// MARK: - Rows replaced with the same id, reloaded with the same key

private enum LoadRow: Feature {
  struct State: Hashable, Sendable, Identifiable {
    var id: Int
    var version: Int
    var value: String?
  }
  enum Event: Equatable, Sendable { case loaded(String) }
  enum Decision: Equatable, Sendable { case load(version: Int) }
  struct Deps: Sendable {
    var load: @Sendable (Int) async throws -> String
  }
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .loaded(let value):
      state.value = value
      return []
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load(let version):
      effects.run(id: "load") { send in await send(.loaded(try await deps.load(version))) }
    }
  }
}

/// Two rows; a row can be replaced by a new version with the same id (a new child), or reloaded
/// in place (keyed work replaced); the list can be emptied and refilled.
private enum ReplacedRows: Feature {
  struct State: Hashable, Sendable {
    var rows: IdentifiedArray<LoadRow.State> = []
    var steps = 0
  }
  enum Event: Equatable, Sendable {
    case fill, clear
    case replace(Int)
    case reload(Int)
    case row(Int, LoadRow.Event)
  }
  enum Decision: Equatable, Sendable { case row(Int, LoadRow.Decision) }
  typealias Deps = LoadRow.Deps
  static let rows = embed(LoadRow.self, list: \.rows, event: Event.row, decision: Decision.row)
  static let childWork = [rows.work]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .fill:
      state.steps += 1
      state.rows = [LoadRow.State(id: 1, version: 0), LoadRow.State(id: 2, version: 0)]
      return [.row(1, .load(version: 0)), .row(2, .load(version: 0))]
    case .replace(let id):
      state.steps += 1
      guard let position = state.rows.index(id: id), let old = state.rows.remove(id: id) else {
        return []
      }
      state.rows.insert(LoadRow.State(id: id, version: old.version + 1), at: position)
      return [.row(id, .load(version: old.version + 1))]
    case .reload(let id):
      state.steps += 1
      guard let version = state.rows[id: id]?.version else { return [] }
      return [.row(id, .load(version: version))]
    case .clear:
      state.steps += 1
      state.rows = []
      return []
    case .row(let id, let event):
      return rows.makeDecisions(event: event, id: id, in: &state)
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .row(let id, let decision): rows.execute(decision, id: id, deps: deps, effects: effects)
    }
  }
  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value("x")]))
  }
  static func using(_ state: State) -> [Event] {
    guard state.steps < 3 else { return [] }
    if state.rows.isEmpty { return [.fill] }
    return [.replace(1), .reload(2), .clear]
  }
}

// MARK: - A decision that does more than start one piece of work

private enum Busy: Feature {
  struct State: Hashable, Sendable {
    var went = 0
    var done: [String] = []
    var steps = 0
  }
  enum Event: Equatable, Sendable {
    case startOther, go, poke
    case went
    case done(String)
  }
  enum Decision: Equatable, Sendable { case other, go }
  struct Deps: Sendable {
    var load: @Sendable (String) async throws -> String
    var clock: any Clock<Duration>
  }
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .startOther:
      state.steps += 1
      return [.other]
    case .go:
      state.steps += 1
      return [.go]
    case .poke:
      state.steps += 1
      return []
    case .went:
      state.went += 1
      return []
    case .done(let name):
      state.done.append(name)
      return []
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .other:
      effects.run(id: "other") { send in
        try await deps.clock.sleep(for: .seconds(1))
        await send(.done("other"))
      }
    case .go:
      // Sends, cancels other work, replaces itself, and starts one piece of work.
      effects.send(.went)
      effects.cancel(id: "other")
      effects.run(id: "main") { send in
        await send(.done("main-began"))
        await send(.done(try await deps.load("main")))
      } catch: { _ in
        .done("failed")
      }
    }
  }
  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      load: effects.dependency("load", answers: [.value("a"), .failure(CancellationError())]),
      clock: effects.clock)
  }
  static func using(_ state: State) -> [Event] {
    state.steps < 4 ? [.startOther, .go, .poke] : []
  }
}

// MARK: - A timer, and a nap whose deadline is read from the clock in execute

private enum NapTicker: Feature {
  struct State: Hashable, Sendable {
    var on = false
    var ticks = 0
    var pokes = 0
    var limit = 4
    var naps = 0
  }
  enum Event: Equatable, Sendable {
    case start, stop, restart, poke, nap
    case tick, napped
  }
  enum Decision: Equatable, Sendable { case start, stop, nap }
  struct Deps: Sendable {
    var clock: ExploredClock
  }
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start, .restart:
      state.on = true
      return [.start]
    case .stop:
      state.on = false
      return [.stop]
    case .poke:
      state.pokes = (state.pokes + 1) % 2
      return []
    case .nap:
      state.naps += 1
      return [.nap]
    case .tick:
      state.ticks += 1
      if state.ticks >= state.limit {
        state.on = false
        return [.stop]
      }
      return []
    case .napped:
      state.naps -= 1
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
      let deadline = deps.clock.now.advanced(by: .seconds(3))
      effects.run(id: "nap") { send in
        try await deps.clock.sleep(until: deadline, tolerance: nil)
        await send(.napped)
      }
    }
  }
  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(clock: effects.clock)
  }
  static func using(_ state: State) -> [Event] {
    if state.ticks >= state.limit { return [] }
    var events: [Event] = state.on ? [.stop, .restart, .poke] : [.start, .poke]
    if state.naps == 0 { events.append(.nap) }
    return events
  }
}

// MARK: - Work started by the start decisions

private enum Starter: Feature {
  struct State: Hashable, Sendable {
    var got: [String] = []
    var steps = 0
  }
  enum Event: Equatable, Sendable {
    case cancelA, restartA, poke
    case got(String)
  }
  enum Decision: Equatable, Sendable {
    case load(String)
    case cancel(String)
  }
  struct Deps: Sendable {
    var load: @Sendable (String) async throws -> String
  }
  static func makeStartDecisions(state: inout State) -> [Decision] {
    [.load("a"), .load("b")]
  }
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .cancelA:
      state.steps += 1
      return [.cancel("a")]
    case .restartA:
      state.steps += 1
      return [.load("a")]
    case .poke:
      state.steps += 1
      return []
    case .got(let value):
      state.got.append(value)
      return []
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load(let name):
      effects.run(id: name) { send in await send(.got(try await deps.load(name))) }
    case .cancel(let name):
      effects.cancel(id: name)
    }
  }
  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value("1"), .value("2")]))
  }
  static func using(_ state: State) -> [Event] {
    state.steps < 3 ? [.cancelA, .restartA, .poke] : []
  }
}

// MARK: - Work that waits for two calls at once

private enum Pair: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var result: String?
    var steps = 0
  }
  enum Event: Equatable, Sendable {
    case start, cancel, poke
    case got(String)
  }
  enum Decision: Equatable, Sendable { case start, cancel }
  struct Deps: Sendable {
    var a: @Sendable () async throws -> String
    var b: @Sendable () async throws -> String
  }
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.started = true
      state.steps += 1
      return [.start]
    case .cancel:
      state.steps += 1
      return [.cancel]
    case .poke:
      state.steps += 1
      return []
    case .got(let value):
      state.result = value
      return []
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .start:
      effects.run(id: "pair") { send in
        async let a = deps.a()
        async let b = deps.b()
        let (x, y) = try await (a, b)
        await send(.got(x + y))
      }
    case .cancel:
      effects.cancel(id: "pair")
    }
  }
  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      a: effects.dependency("a", answers: [.value("a1"), .value("a2")]),
      b: effects.dependency("b", answers: [.value("b1")]))
  }
  static func using(_ state: State) -> [Event] {
    guard state.steps < 4 else { return [] }
    return state.started ? [.cancel, .poke, .start] : [.start, .poke]
  }
}

// MARK: - Work started by an event that other work sent, inside its task-local values

/// A value the first load binds around its work, as a dependency library's `withDependencies`
/// does: an event it sends is processed on its task, so work that event's decision starts
/// inherits the value.
private enum Tenant {
  @TaskLocal static var value = "none"
}

/// A load, bound to a tenant, whose answer starts a save: in a store, the save's task is made
/// while the load's task delivers its event, and inherits the tenant.
///
/// Started again by a step taken back, the save's decision is performed from the explorer's
/// context, where no tenant is bound.
private enum TenantSave: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var loaded = false
    var savedFor: String?
    var cancelled = false
    var pokes = 0
  }
  enum Event: Equatable, Sendable {
    case start, cancelSave, poke
    case loaded
    case saved(tenant: String)
  }
  enum Decision: Equatable, Sendable { case load, save, cancelSave }
  struct Deps: Sendable {
    var load: @Sendable () async throws -> Int
    var save: @Sendable () async throws -> Void
  }
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.started = true
      return [.load]
    case .loaded:
      state.loaded = true
      return [.save]
    case .cancelSave:
      state.cancelled = true
      return [.cancelSave]
    case .poke:
      state.pokes += 1
      return []
    case .saved(let tenant):
      state.savedFor = tenant
      return []
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { send in
        try await Tenant.$value.withValue("acme") {
          _ = try await deps.load()
          await send(.loaded)
        }
      }
    case .save:
      effects.run(id: "save") { send in
        try await deps.save()
        await send(.saved(tenant: Tenant.value))
      }
    case .cancelSave:
      effects.cancel(id: "save")
    }
  }
  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      load: effects.dependency("load", answers: [.value(1)]),
      save: effects.dependency("save", answers: [.value(())]))
  }
  static func using(_ state: State) -> [Event] {
    guard state.started else { return [.start] }
    guard state.loaded, state.savedFor == nil, !state.cancelled else { return [] }
    return state.pokes < 1 ? [.cancelSave, .poke] : [.cancelSave]
  }
}

/// As `TenantSave`, with the load at a low priority: the save, started without one while the
/// load delivers its event, inherits it in a store; started again from the explorer's context,
/// it has the explorer's.
private enum PrioritySave: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var loaded = false
    var savedAt: UInt8?
    var cancelled = false
    var pokes = 0
  }
  enum Event: Equatable, Sendable {
    case start, cancelSave, poke
    case loaded
    case saved(priority: UInt8)
  }
  enum Decision: Equatable, Sendable { case load, save, cancelSave }
  typealias Deps = TenantSave.Deps
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.started = true
      return [.load]
    case .loaded:
      state.loaded = true
      return [.save]
    case .cancelSave:
      state.cancelled = true
      return [.cancelSave]
    case .poke:
      state.pokes += 1
      return []
    case .saved(let priority):
      state.savedAt = priority
      return []
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load", priority: .background) { send in
        _ = try await deps.load()
        await send(.loaded)
      }
    case .save:
      effects.run(id: "save") { send in
        try await deps.save()
        await send(.saved(priority: Task.currentPriority.rawValue))
      }
    case .cancelSave:
      effects.cancel(id: "save")
    }
  }
  static func using(_ state: State) -> [Event] {
    guard state.started else { return [.start] }
    guard state.loaded, state.savedAt == nil, !state.cancelled else { return [] }
    return state.pokes < 1 ? [.cancelSave, .poke] : [.cancelSave]
  }
}

// MARK: - Tests

@Suite struct TakeBackAttack2Tests {
  /// Work in a scope no lifetime covers (a child's `work` left out of `childWork`) is reported
  /// once, when it starts, and not again once a step taken back starts it again from a scratch
  /// registry (its entry said it was not reported, and the next full check of the children's
  /// work, here every check, reported it again on a step where a store reports nothing).
  @Test func workWithoutALifetimeStartedAgainIsNotReportedAgain() {
    let (takenBack, returned) = both {
      explore(
        ForgetfulHost.self, from: .init(), deps: ForgetfulHost.deps, events: ForgetfulHost.using)
    }
    #expect(takenBack.stepsTakenBack.workStartedAgain > 0)
    #expect(returned.problems.count == 1)
    #expect(
      takenBack.problems.map(\.transition) == returned.problems.map(\.transition),
      "\(takenBack.problems.map { "\($0.transition): \($0.reports.first?.prefix(60) ?? "")" })")
  }

  /// Work started by an event that other work sent is not started again by a step taken back.
  ///
  /// It inherits that work's task-local values, in a store as in the exploration without steps
  /// taken back (the save is saved for "acme"). Its decision performed again would run in the
  /// explorer's context, and the save, started again, saved for "none", a state no store
  /// reaches.
  @Test func workStartedByAnotherWorksEventKeepsItsTaskLocals() {
    let (takenBack, returned) = both {
      explore(TenantSave.self, from: .init(), deps: TenantSave.deps, events: TenantSave.using)
    }
    returned.expectComplete()
    #expect(returned.snapshots.allSatisfy { ($0.state.savedFor ?? "acme") == "acme" })
    #expect(
      takenBack.snapshots.map(\.state.savedFor) == returned.snapshots.map(\.state.savedFor))
  }

  /// The same with the priority the save's task inherits from the load's.
  @Test func workStartedByAnotherWorksEventKeepsItsPriority() {
    let (takenBack, returned) = both {
      explore(
        PrioritySave.self, from: .init(), deps: TenantSave.deps, events: PrioritySave.using)
    }
    #expect(takenBack.snapshots.map(\.state.savedAt) == returned.snapshots.map(\.state.savedAt))
  }

  /// Child scopes with rows replaced by new rows with the same id, keyed work replaced in place,
  /// decisions that send, cancel and start at once, a `catch:` handler, timers and naps whose
  /// deadlines are read from the clock, the start decisions' work, `async let`: the same
  /// exploration with steps taken back and without.
  @Test func decisionsThatDoMoreExploreAlike() {
    var sweep = Sweep()
    sweep.check("ReplacedRows") {
      explore(
        ReplacedRows.self, from: .init(), deps: ReplacedRows.deps, events: ReplacedRows.using)
    }
    sweep.check("Busy") {
      explore(Busy.self, from: .init(), deps: Busy.deps, events: Busy.using)
    }
    sweep.check("NapTicker") {
      explore(NapTicker.self, from: .init(), deps: NapTicker.deps, events: NapTicker.using)
    }
    sweep.check("Starter") {
      explore(Starter.self, from: .init(), deps: Starter.deps, events: Starter.using)
    }
    sweep.check("Pair") {
      explore(Pair.self, from: .init(), deps: Pair.deps, events: Pair.using)
    }
    for depth in [2, 3, 5] {
      let limits = ExplorationLimits(depth: depth)
      sweep.check("NapTicker \(limits)") {
        explore(
          NapTicker.self, from: .init(), deps: NapTicker.deps, limits: limits,
          events: NapTicker.using)
      }
      sweep.check("ReplacedRows \(limits)") {
        explore(
          ReplacedRows.self, from: .init(), deps: ReplacedRows.deps, limits: limits,
          events: ReplacedRows.using)
      }
    }
    #expect(sweep.found == [])
    #expect(sweep.workStartedAgain > 0)
  }

  /// State limits cut the same explorations alike.
  @Test func stateLimitsExploreAlike() {
    var sweep = Sweep()
    for states in [2, 3, 5, 8, 13] {
      let limits = ExplorationLimits(states: states)
      sweep.check("NapTicker \(limits)") {
        explore(
          NapTicker.self, from: .init(), deps: NapTicker.deps, limits: limits,
          events: NapTicker.using)
      }
      sweep.check("ReplacedRows \(limits)") {
        explore(
          ReplacedRows.self, from: .init(), deps: ReplacedRows.deps, limits: limits,
          events: ReplacedRows.using)
      }
      sweep.check("Busy \(limits)") {
        explore(Busy.self, from: .init(), deps: Busy.deps, limits: limits, events: Busy.using)
      }
      sweep.check("Starter \(limits)") {
        explore(
          Starter.self, from: .init(), deps: Starter.deps, limits: limits, events: Starter.using)
      }
      sweep.check("Pair \(limits)") {
        explore(Pair.self, from: .init(), deps: Pair.deps, limits: limits, events: Pair.using)
      }
    }
    #expect(sweep.found == [])
    #expect(sweep.stepsTakenBack > 0)
  }

  /// A long chain of timer ticks, with events taken back at each state.
  @Test func aLongTimerChainExploresAlike() {
    var sweep = Sweep()
    sweep.check("NapTicker 40") {
      explore(NapTicker.self, from: .init(limit: 40), deps: NapTicker.deps, events: NapTicker.using)
    }
    #expect(sweep.found == [])
    #expect(sweep.stepsTakenBack > 0)
  }
}
