// Attacks on the explorer taking a step back (helper-37's, on 3c50655): the work a step started
// ends, the work it moved on starts again from its beginning (at first the same closure; now its
// decision performed again, with the same token, at the time it first waited), and the core moves
// back. Each test explores a feature with and without steps taken back
// (`StepsTakenBack.$areTaken`) and compares what they find. The five bugs they found are fixed;
// each test failed before its fix.

import Decisions
import Synchronization
import Testing

@testable import DecisionsTesting

// MARK: - Helpers

/// The states one exploration found and the other did not, as text.
private func difference<F: Feature>(
  _ one: FeatureExploration<F>, _ other: FeatureExploration<F>
) -> [String] {
  let states = Set(one.snapshots.map { "\($0)" })
  return other.snapshots.map { "\($0)" }.filter { !states.contains($0) }.sorted()
}

/// Waits, for something the explorer does not control, until the task is cancelled.
private func untilCancelled() async {
  let waiting = Mutex<CheckedContinuation<Void, Never>?>(nil)
  await withTaskCancellationHandler {
    await withCheckedContinuation { continuation in
      waiting.withLock { $0 = continuation }
      if Task.isCancelled { waiting.withLock { $0.take() }?.resume() }
    }
  } onCancel: {
    waiting.withLock { $0.take() }?.resume()
  }
}

// MARK: - A value the work's closure shares with its decision

/// A count shared by a piece of work and the decision that started it.
private final class Tries: Sendable {
  private let count = Mutex(0)

  /// Counts one more try.
  func add() {
    count.withLock { $0 += 1 }
  }

  var value: Int { count.withLock { $0 } }
}

/// A load that counts its tries in an object its decision made, before it calls: it calls once,
/// so every `loaded` says one try, in a store.
///
/// Started again from its beginning as the same closure, it counted a second try in the same
/// object; its decision performed again makes a new one.
private enum CountedLoad: Feature {
  struct State: Hashable, Sendable {
    var loading = false
    var result: String?
    var tries = 0
  }

  enum Event: Equatable, Sendable {
    case load
    case loaded(String, tries: Int)
  }

  enum Decision: Equatable, Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> String
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .load:
      state.loading = true
      return [.load]
    case .loaded(let value, let tries):
      state.loading = false
      state.result = value
      state.tries = tries
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    let tries = Tries()
    effects.run(id: "load") { send in
      tries.add()
      let value = try await deps.load()
      await send(.loaded(value, tries: tries.value))
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value("a"), .value("b"), .value("c")]))
  }

  static func using(_ state: State) -> [Event] {
    state.loading || state.result != nil ? [] : [.load]
  }
}

extension ExplorationRule<CountedLoad> {
  /// Each load is tried once.
  fileprivate static var triedOnce: Self {
    Self("each load is tried once") { $0.state.result == nil || $0.state.tries == 1 }
  }
}

// MARK: - Two naps that end together

/// Two naps of one second, "a" and "b", started by one event in that order, or "b" alone.
///
/// "a" can be cancelled, and the user can flag the state once. Each nap rings when it ends. A
/// store on the printed test's doubles (`ExploredEffects()`, whose clock wakes sleeps earliest
/// first, in the order they began) rings "a" first, as the exploration without steps taken back
/// does. Cancelling "a" reaches the state "b" alone reaches, a known state, so the step is taken
/// back: "a" starts again, and its nap must wait where it waited, before "b"'s.
private enum TwoNaps: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var flagged = false
    var rung: [String] = []
  }

  enum Event: Equatable, Sendable {
    case startBoth, startB, cancelA, flag
    case rang(String)
  }

  enum Decision: Equatable, Sendable {
    case nap(String)
    case cancel(String)
  }

  struct Deps: Sendable {
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .startBoth:
      state.started = true
      return [.nap("a"), .nap("b")]
    case .startB:
      state.started = true
      return [.nap("b")]
    case .cancelA:
      return [.cancel("a")]
    case .flag:
      state.flagged = true
      return []
    case .rang(let name):
      state.rung.append(name)
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .nap(let name):
      effects.run(id: name) { send in
        try await deps.clock.sleep(for: .seconds(1))
        await send(.rang(name))
      }
    case .cancel(let name):
      effects.cancel(id: name)
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(clock: effects.clock)
  }

  static func using(_ state: State) -> [Event] {
    if !state.started { return [.startBoth, .startB] }
    if state.flagged || !state.rung.isEmpty { return [] }
    return [.cancelA, .flag]
  }
}

extension ExplorationRule<TwoNaps> {
  /// Naps that end together ring in the order they began.
  fileprivate static var aRingsFirst: Self {
    Self("a rings before b") { $0.state.rung != ["b", "a"] }
  }
}

// MARK: - A value one piece of work reads before it waits, which another writes

/// A flag one piece of work writes and another reads.
private final class Written: Sendable {
  private let flag = Mutex(false)

  func write() {
    flag.withLock { $0 = true }
  }

  var isWritten: Bool { flag.withLock { $0 } }
}

/// A save, and a watch that notes, as it starts, whether the save was written, and reports it a
/// second later: it starts with the save, before it, so in a store it always notes "not yet".
///
/// The watch started again, after the save's answer, notes "written".
private enum SaveAndWatch: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var saved = false
    var watchCancelled = false
    /// What the watch noted, once it reported.
    var watchSawSave: Bool?
  }

  enum Event: Equatable, Sendable {
    case start, cancelWatch, saved
    case watched(sawSave: Bool)
  }

  enum Decision: Equatable, Sendable {
    case start
    case cancelWatch
  }

  struct Deps: Sendable {
    var save: @Sendable () async throws -> Void
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.started = true
      return [.start]
    case .cancelWatch:
      state.watchCancelled = true
      return [.cancelWatch]
    case .saved:
      state.saved = true
      return []
    case .watched(let sawSave):
      state.watchSawSave = sawSave
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .start:
      let written = Written()
      effects.run(id: "watch") { send in
        let sawSave = written.isWritten
        try await deps.clock.sleep(for: .seconds(1))
        await send(.watched(sawSave: sawSave))
      }
      effects.run(id: "save") { send in
        try await deps.save()
        written.write()
        await send(.saved)
      }
    case .cancelWatch:
      effects.cancel(id: "watch")
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(save: effects.dependency("save", answers: [.value(())]), clock: effects.clock)
  }

  /// The user may cancel the watch once the save is in.
  static func using(_ state: State) -> [Event] {
    if !state.started { return [.start] }
    return state.saved && !state.watchCancelled ? [.cancelWatch] : []
  }
}

extension ExplorationRule<SaveAndWatch> {
  /// The watch starts before the save: it never sees it.
  fileprivate static var watchStartsBeforeTheSave: Self {
    Self("the watch never sees the save") { $0.state.watchSawSave != true }
  }
}

// MARK: - Two calls, one of them started again

/// Two loads, "a" and "b", started by one event in that order, or "b" alone; "a" can be
/// cancelled, and the user can flag the state once.
///
/// Cancelling "a" reaches the state "b" alone reaches: the step is taken back, and "a"'s call,
/// made again, now waits after "b"'s. The flagged state, found from that loop, lists its
/// choices in the other order.
private enum TwoLoads: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var flagged = false
    var got: [String] = []
  }

  enum Event: Equatable, Sendable {
    case startBoth, startB, cancelA, flag
    case got(String)
  }

  enum Decision: Equatable, Sendable {
    case load(String)
    case cancel(String)
  }

  struct Deps: Sendable {
    var a: @Sendable () async throws -> Void
    var b: @Sendable () async throws -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .startBoth:
      state.started = true
      return [.load("a"), .load("b")]
    case .startB:
      state.started = true
      return [.load("b")]
    case .cancelA:
      return [.cancel("a")]
    case .flag:
      state.flagged = true
      return []
    case .got(let name):
      state.got.append(name)
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load(let name):
      effects.run(id: name) { send in
        try await (name == "a" ? deps.a : deps.b)()
        await send(.got(name))
      }
    case .cancel(let name):
      effects.cancel(id: name)
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      a: effects.dependency("a", answers: [.value(())]),
      b: effects.dependency("b", answers: [.value(())]))
  }

  static func using(_ state: State) -> [Event] {
    if !state.started { return [.startBoth, .startB] }
    if state.flagged || !state.got.isEmpty { return [] }
    return [.cancelA, .flag]
  }
}

// MARK: - An upload that says it began, fails or is retried

private struct UploadFailed: Error, Equatable {}

/// An upload that tells the store it began before it calls, turns a failure into an event with
/// `catch:`, and is replaced by a retry (keyed work) or cancelled by the user.
private enum Uploader: Feature {
  struct State: Hashable, Sendable {
    var began = 0
    var tries = 0
    var uploaded = false
    var failed = false
  }

  enum Event: Equatable, Sendable {
    case upload, cancel, began, uploaded, failed
  }

  enum Decision: Equatable, Sendable {
    case upload, cancel
  }

  struct Deps: Sendable {
    var upload: @Sendable () async throws -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .upload:
      state.tries += 1
      state.failed = false
      return [.upload]
    case .cancel:
      return [.cancel]
    case .began:
      state.began += 1
      return []
    case .uploaded:
      state.uploaded = true
      return []
    case .failed:
      state.failed = true
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .upload:
      effects.run(id: "upload") { send in
        await send(.began)
        try await deps.upload()
        await send(.uploaded)
      } catch: { _ in
        .failed
      }
    case .cancel:
      effects.cancel(id: "upload")
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(upload: effects.dependency("upload", answers: [.value(()), .failure(UploadFailed())]))
  }

  static func using(_ state: State) -> [Event] {
    state.uploaded || state.tries >= 3 ? [] : [.upload, .cancel]
  }
}

// MARK: - A child whose work ends with it

/// A child that loads, in its own scope, and can be closed, reopened, or replaced.
private enum Panel: Feature {
  struct State: Hashable, Sendable {
    var version: Int
    var value: Int?
  }

  enum Event: Equatable, Sendable {
    case loaded(Int)
  }

  enum Decision: Equatable, Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> Int
    var clock: any Clock<Duration>
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .loaded(let value):
      state.value = value
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(id: "load") { send in
      try await deps.clock.sleep(for: .seconds(1))
      await send(.loaded(try await deps.load()))
    }
  }
}

/// The parent of a `Panel`, presented; the user opens it, closes it, or replaces it with a new
/// version, up to three times.
private enum PanelHost: Feature {
  struct State: Hashable, Sendable {
    @Presented var panel: Panel.State?
    var opened = 0
  }

  enum Event: Equatable, Sendable {
    case open, close, replace
    case panel(Panel.Event)
  }

  enum Decision: Equatable, Sendable {
    case panel(Panel.Decision)
  }

  typealias Deps = Panel.Deps

  static let panel = embed(
    Panel.self, presented: \.$panel, event: Event.panel, decision: Decision.panel)
  static let childWork = [panel.work]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .open, .replace:
      state.opened += 1
      state.panel = Panel.State(version: state.opened)
      return [.panel(.load)]
    case .close:
      state.panel = nil
      return []
    case .panel(let event):
      return panel.makeDecisions(event: event, in: &state)
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .panel(let decision):
      panel.execute(decision, deps: deps, effects: effects)
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value(1), .value(2)]), clock: effects.clock)
  }

  static func using(_ state: State) -> [Event] {
    guard state.opened < 3 else { return state.panel == nil ? [] : [.close] }
    return state.panel == nil ? [.open] : [.close, .replace]
  }
}

// MARK: - A task-local value bound around the start of the work

/// A value the executor binds around `effects.run`, as a dependency library's `withDependencies`
/// does: the work's task inherits it.
private enum RequestTag {
  @TaskLocal static var value = "none"
}

/// A load whose work reads the tag its decision bound: in a store, always the load's own.
///
/// Started again by the explorer as the same closure, from the explorer's own context, the task
/// had no such binding; its decision performed again binds it.
private enum TaggedLoad: Feature {
  struct State: Hashable, Sendable {
    var loading = false
    var result: String?
    var tag: String?
  }

  enum Event: Equatable, Sendable {
    case load
    case loaded(String, tag: String)
  }

  enum Decision: Equatable, Sendable {
    case load(tag: String)
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> String
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .load:
      state.loading = true
      return [.load(tag: "mine")]
    case .loaded(let value, let tag):
      state.loading = false
      state.result = value
      state.tag = tag
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load(let tag):
      RequestTag.$value.withValue(tag) {
        effects.run(id: "load") { send in
          let value = try await deps.load()
          await send(.loaded(value, tag: RequestTag.value))
        }
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value("a"), .value("b")]))
  }

  static func using(_ state: State) -> [Event] {
    state.loading || state.result != nil ? [] : [.load]
  }
}

// MARK: - Work that spins once cancelled

/// A load that retries at once on any error, its cancellation included.
///
/// Once cancelled, it runs for ever without waiting for the explorer. The user can poke the
/// state, or cancel the load.
private enum SpinsWhenCancelled: Feature {
  struct State: Hashable, Sendable {
    var started = false
    var pokes = 0
  }

  enum Event: Equatable, Sendable {
    case start, poke, cancel
  }

  enum Decision: Equatable, Sendable {
    case load, cancel
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> Int
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start:
      state.started = true
      return [.load]
    case .poke:
      state.pokes += 1
      return []
    case .cancel:
      return [.cancel]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { _ in
        while true {
          do { _ = try await deps.load() } catch { await Task.yield() }
        }
      }
    case .cancel:
      effects.cancel(id: "load")
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value(1)]))
  }

  static func using(_ state: State) -> [Event] {
    guard state.started else { return [.start] }
    return state.pokes < 2 ? [.poke, .cancel] : [.cancel]
  }
}

// MARK: - Tests

@Suite struct TakeBackAttackTests {
  /// Work started again runs a closure of its decision performed again, not the same closure,
  /// which counted a second try in the object its decision made (the second answer's state said
  /// two tries, which no store reaches).
  @Test func workStartedAgainKeepsWhatItsClosureShares() {
    let (takenBack, returned) = both {
      explore(
        CountedLoad.self, from: .init(), deps: CountedLoad.deps, events: CountedLoad.using)
    }
    returned.expectComplete()
    returned.expectInvariant(.triedOnce)
    #expect(returned.snapshots.allSatisfy { $0.state.tries <= 1 })
    #expect(takenBack.snapshots.map(\.state.tries) == returned.snapshots.map(\.state.tries))
    #expect(statesEndingElsewhere(takenBack) == [])
    #expect(takenBack.stepsTakenBack.workStartedAgain > 0)
  }

  /// A nap started again waits where it waited, not behind the naps that did not move: naps that
  /// end together ring in the order they began, "a" first, as in the store.
  @Test func workStartedAgainWakesAfterWorkThatBeganLater() {
    let (takenBack, returned) = both {
      explore(TwoNaps.self, from: .init(), deps: TwoNaps.deps, events: TwoNaps.using)
    }
    returned.expectComplete()
    returned.expectInvariant(.aRingsFirst)
    #expect(takenBack.snapshots.map(\.state.rung) == returned.snapshots.map(\.state.rung))
    #expect(statesEndingElsewhere(takenBack) == [])
  }

  /// Work whose decision started other work too is not started again: the watch, started with
  /// the save, would share the save's object, and note the save written, which no store does.
  @Test func workStartedAgainReadsWhatOtherWorkWroteSince() {
    let (takenBack, returned) = both {
      explore(
        SaveAndWatch.self, from: .init(), deps: SaveAndWatch.deps, events: SaveAndWatch.using)
    }
    returned.expectComplete()
    returned.expectInvariant(.watchStartsBeforeTheSave)
    #expect(takenBack.snapshots.filter { $0.state.watchSawSave == true }.count == 0)
    #expect(statesEndingElsewhere(takenBack) == [])
  }

  /// Work started again has the task-local values its executor bound around `effects.run` (as a
  /// dependency library's `withDependencies` does): its decision is performed again. (Run as the
  /// same closure from the explorer's context, it read the default.)
  @Test func workStartedAgainLosesTheTaskLocalsItsTaskInherited() {
    let (takenBack, returned) = both {
      explore(TaggedLoad.self, from: .init(), deps: TaggedLoad.deps, events: TaggedLoad.using)
    }
    returned.expectComplete()
    #expect(returned.snapshots.allSatisfy { $0.state.tag == nil || $0.state.tag == "mine" })
    #expect(takenBack.snapshots.map(\.state.tag) == returned.snapshots.map(\.state.tag))
    #expect(statesEndingElsewhere(takenBack) == [])
  }

  /// A call made again waits where it waited, not after the calls that did not move: a state
  /// found from that loop lists its answers in the same order, and the states after it are
  /// numbered alike.
  @Test func workStartedAgainReordersTheChoicesOfTheStatesFoundAfter() {
    let (takenBack, returned) = both {
      explore(TwoLoads.self, from: .init(), deps: TwoLoads.deps, events: TwoLoads.using)
    }
    returned.expectComplete()
    takenBack.expectComplete()
    #expect(shape(of: takenBack) == shape(of: returned))
    /// The answers in the flagged state with both loads waiting, in order.
    func answersWhenFlagged(_ exploration: FeatureExploration<TwoLoads>) -> [String] {
      guard
        let flagged = exploration.snapshots.firstIndex(where: {
          $0.state.flagged && $0.work.count == 2
        })
      else { return [] }
      return exploration.transitions(from: flagged).map {
        guard case .answer(let dependency, _, _) = $0.choice else { return "\($0.choice)" }
        return dependency
      }
    }
    #expect(answersWhenFlagged(returned) == ["a", "b"])
    #expect(answersWhenFlagged(takenBack) == answersWhenFlagged(returned))
    #expect(graph(of: takenBack) == graph(of: returned), "the graph, in order")
  }

  /// Work that sends before it waits, fails into `catch:`, is replaced by a retry and cancelled;
  /// and a child's work in its scope, ended by a close or a replacement: the same exploration,
  /// with steps taken back (work started again) and without.
  @Test func sendsBeforeTheFirstWaitCatchAndChildScopesExploreAlike() {
    var sweep = Sweep()
    sweep.check("Uploader") {
      explore(Uploader.self, from: .init(), deps: Uploader.deps, events: Uploader.using)
    }
    sweep.check("PanelHost") {
      explore(PanelHost.self, from: .init(), deps: PanelHost.deps, events: PanelHost.using)
    }
    #expect(sweep.found == [])
    #expect(sweep.workStartedAgain > 0)
  }

  /// The rule API does not report a broken rule on a path that, in a store, keeps it (it did
  /// when work started again ran its first closure, which counted a second try).
  @Test func aRuleBrokenOnlyInAStateTakenBackIsReported() {
    let exploration = explore(
      CountedLoad.self, from: .init(), deps: CountedLoad.deps, events: CountedLoad.using)
    exploration.expectComplete()
    exploration.expectInvariant(.triedOnce)
  }

  /// Limits, work the explorer does not control, a core that is not a function of its state,
  /// sleeps for no time: the same exploration with steps taken back and without.
  @Test func limitsAndUncontrolledWorkExploreAlike() {
    var sweep = Sweep()
    for limits in [
      ExplorationLimits(states: 1), ExplorationLimits(states: 4), ExplorationLimits(states: 9),
      ExplorationLimits(depth: 1), ExplorationLimits(depth: 2), ExplorationLimits(depth: 4),
    ] {
      sweep.check("DebouncedSearch \(limits)") {
        explore(
          DebouncedSearch.self, from: .init(), deps: DebouncedSearch.deps, limits: limits,
          events: DebouncedSearch.typing)
      }
      sweep.check("TwoCalls \(limits)") {
        explore(
          TwoCalls.self, from: .init(), deps: TwoCalls.deps, limits: limits,
          events: { _ in [.startA, .startB, .flip] })
      }
    }
    // NB: a step into the last layer a depth limit allows is taken back (its state's loop is not
    // kept): timers and naps replaced or cancelled at later times than they started.
    for depth in 2...6 {
      let limits = ExplorationLimits(depth: depth)
      sweep.check("LateTimer \(limits)") {
        explore(
          LateTimer.self, from: .init(), deps: LateTimer.deps, limits: limits,
          events: LateTimer.using)
      }
      sweep.check("NapThenTimer \(limits)") {
        explore(
          NapThenTimer.self, from: .init(), deps: NapThenTimer.deps, limits: limits,
          events: NapThenTimer.using)
      }
      sweep.check("TwinTimers \(limits)") {
        explore(
          TwinTimers.self, from: .init(), deps: TwinTimers.deps, limits: limits,
          events: TwinTimers.starting)
      }
      sweep.check("ClockMix \(limits)") {
        explore(
          ClockMix.self, from: .init(), deps: ClockMix.deps, limits: limits,
          events: ClockMix.using)
      }
      sweep.check("Poller \(limits)") {
        explore(
          Poller.self, from: .init(), deps: Poller.deps, limits: limits, events: Poller.starting)
      }
      sweep.check("PanelHost \(limits)") {
        explore(
          PanelHost.self, from: .init(), deps: PanelHost.deps, limits: limits,
          events: PanelHost.using)
      }
      sweep.check("Uploader \(limits)") {
        explore(
          Uploader.self, from: .init(), deps: Uploader.deps, limits: limits,
          events: Uploader.using)
      }
    }
    sweep.check("UncontrolledWaiter") {
      explore(
        UncontrolledWaiter.self, from: .init(),
        deps: { _ in UncontrolledWaiter.Deps(wait: { await untilCancelled() }) },
        events: UncontrolledWaiter.using)
    }
    for duration in [Duration.zero, .seconds(-1)] {
      sweep.check("ZeroSleeper \(duration)") {
        explore(
          ZeroSleeper.self, from: .init(), deps: ZeroSleeper.deps,
          events: { $0.started ? [] : [.start(duration)] })
      }
    }
    #expect(sweep.found == [])
  }

  /// A core that is not a function of its state (a fresh `UUID` per load) cannot be returned to
  /// along a path, which `expectComplete()` says; a step taken back moves the core back to the
  /// state's own UUID, so with steps taken back the search is complete, and the printed paths
  /// that end elsewhere when taken again say it (a diagnostic the returns gave, kept as a known
  /// difference: a core must be a function of its state and event).
  @Test func aCoreThatIsNotAFunctionOfItsStateIsSaidByItsPrintedPaths() {
    let (takenBack, returned) = both {
      explore(
        FreshRequestIDs.self, from: .init(), deps: FreshRequestIDs.deps,
        events: FreshRequestIDs.loading)
    }
    #expect(!returned.isComplete)
    #expect(returned.statesNotReturnedTo == [1, 3])
    #expect(statesEndingElsewhere(takenBack) != [])
    #expect(takenBack.isComplete)
  }

  /// Work that spins once cancelled stops the search after the cancel, with steps taken back (the
  /// take back's own cancellations and drains must not overrun first) and without. (Without its
  /// `Task.yield()`, the spin never leaves its job, and either exploration hangs in a drain.)
  @Test func workThatSpinsOnceCancelledIsBlamedOnTheCancel() {
    let (takenBack, returned) = both {
      explore(
        SpinsWhenCancelled.self, from: .init(), deps: SpinsWhenCancelled.deps,
        events: SpinsWhenCancelled.using)
    }
    #expect(!takenBack.isComplete)
    #expect(!returned.isComplete)
    #expect(
      takenBack.stopped?.contains(#"after "send .cancel""#) == true, "\(takenBack.stopped ?? "")")
    #expect(returned.stopped == takenBack.stopped, "\(returned.stopped ?? "")")
  }

  /// The fixtures of the other suites explore alike with steps taken back and without: the same
  /// graph, in the same order, the same problems, stops and printed paths.
  @Test func theOtherSuitesFixturesExploreAlike() {
    var sweep = Sweep()
    sweep.check("AlwaysLoading") {
      explore(AlwaysLoading.self, from: .init(), deps: AlwaysLoading.deps, events: { _ in [] })
    }
    sweep.check("LoadAndFlag") {
      explore(
        LoadAndFlag.self, from: .init(), deps: LoadAndFlag.deps, events: { _ in [.load, .flip] })
    }
    sweep.check("TwoCalls") {
      explore(
        TwoCalls.self, from: .init(), deps: TwoCalls.deps,
        events: { _ in [.startA, .startB, .flip] })
    }
    sweep.check("KeepsAValue") {
      explore(
        KeepsAValue.self, from: .init(), deps: KeepsAValue.deps,
        events: { $0.started ? [] : [.start(1), .start(2)] })
    }
    sweep.check("Courier") {
      explore(Courier.self, from: .init(), deps: Courier.deps, events: Courier.events)
    }
    sweep.check("DebouncedSearch") {
      explore(
        DebouncedSearch.self, from: .init(), deps: DebouncedSearch.deps,
        events: DebouncedSearch.typing)
    }
    sweep.check("DebouncedSearch fixed") {
      explore(
        DebouncedSearch.self, from: .init(fixed: true), deps: DebouncedSearch.deps,
        events: DebouncedSearch.typing)
    }
    sweep.check("ItemList") {
      explore(ItemList.self, from: .init(), deps: ItemList.deps, events: ItemList.browsing)
    }
    sweep.check("ItemList fixed") {
      explore(
        ItemList.self, from: .init(fixed: true), deps: ItemList.deps, events: ItemList.browsing)
    }
    sweep.check("Poller") {
      explore(Poller.self, from: .init(), deps: Poller.deps, events: Poller.starting)
    }
    sweep.check("Poller one tick") {
      explore(
        Poller.self, from: .init(stopsAfterOneTick: true), deps: Poller.deps,
        events: Poller.starting)
    }
    sweep.check("Retrier") {
      explore(Retrier.self, from: .init(), deps: Retrier.deps, events: Retrier.saving)
    }
    sweep.check("Retrier ignoring success") {
      explore(
        Retrier.self, from: .init(ignoresSuccess: true), deps: Retrier.deps,
        events: Retrier.saving)
    }
    sweep.check("RefreshedRows") {
      explore(
        RefreshedRows.self, from: .init(), deps: RefreshedRows.deps,
        events: RefreshedRows.refreshing)
    }
    sweep.check("RefreshedRows fixed") {
      explore(
        RefreshedRows.self, from: .init(fixed: true), deps: RefreshedRows.deps,
        events: RefreshedRows.refreshing)
    }
    sweep.check("TwinLoads") {
      explore(TwinLoads.self, from: .init(), deps: TwinLoads.deps, events: TwinLoads.refreshing)
    }
    sweep.check("TwinTimers") {
      explore(TwinTimers.self, from: .init(), deps: TwinTimers.deps, events: TwinTimers.starting)
    }
    sweep.check("PairLoader") {
      explore(PairLoader.self, from: .init(), deps: PairLoader.deps, events: PairLoader.starting)
    }
    sweep.check("CancelLogger") {
      explore(
        CancelLogger.self, from: .init(), deps: CancelLogger.deps, events: CancelLogger.using)
    }
    sweep.check("QuotedSearch") {
      explore(
        QuotedSearch.self, from: .init(), deps: QuotedSearch.deps,
        events: QuotedSearch.searching)
    }
    sweep.check("LongNap") {
      explore(LongNap.self, from: .init(), deps: LongNap.deps, events: LongNap.starting)
    }
    sweep.check("TaskForker") {
      explore(TaskForker.self, from: .init(), deps: TaskForker.deps, events: TaskForker.starting)
    }
    sweep.check("ZeroTimer") {
      explore(ZeroTimer.self, from: .init(), deps: ZeroTimer.deps, events: ZeroTimer.starting)
    }
    sweep.check("LateTimer") {
      explore(LateTimer.self, from: .init(), deps: LateTimer.deps, events: LateTimer.using)
    }
    sweep.check("TrioLoader") {
      explore(TrioLoader.self, from: .init(), deps: TrioLoader.deps, events: TrioLoader.using)
    }
    sweep.check("UnkeyedTwins") {
      explore(
        UnkeyedTwins.self, from: .init(), deps: UnkeyedTwins.deps,
        events: UnkeyedTwins.refreshing)
    }
    sweep.check("PrefetchingList") {
      explore(
        PrefetchingList.self, from: .init(), deps: PrefetchingList.deps,
        events: PrefetchingList.opening)
    }
    sweep.check("ClockMix") {
      explore(ClockMix.self, from: .init(), deps: ClockMix.deps, events: ClockMix.using)
    }
    sweep.check("PairValues") {
      explore(PairValues.self, from: .init(), deps: PairValues.deps, events: PairValues.starting)
    }
    sweep.check("TwoTries") {
      explore(TwoTries.self, from: .init(), deps: TwoTries.deps, events: TwoTries.saving)
    }
    sweep.check("TriesThenReport") {
      explore(
        TriesThenReport.self, from: .init(), deps: TriesThenReport.deps,
        events: TriesThenReport.saving)
    }
    sweep.check("NapThenTimer") {
      explore(
        NapThenTimer.self, from: .init(), deps: NapThenTimer.deps, events: NapThenTimer.using)
    }
    sweep.check("NapThenTimer relative") {
      explore(
        NapThenTimer.self, from: .init(relative: true), deps: NapThenTimer.deps,
        events: NapThenTimer.using)
    }
    #expect(sweep.found == [])
    #expect(sweep.stepsTakenBack > 0)
    #expect(sweep.workStartedAgain > 0)
  }
}

/// Two loads the user starts, each answered 1 or 2, as a main-actor feature: its answers are
/// taken back, its loads started again on the main actor.
@MainActor
private enum MainLoads: @MainActor Feature {
  struct State: Hashable, Sendable {
    var a: Int?
    var b: Int?
    var started: Set<String> = []
  }

  @MainActor enum Event: @MainActor Equatable, Sendable {
    case start(String)
    case loaded(String, Int)
  }

  struct Deps: Sendable {
    var load: @Sendable (String) async throws -> Int
  }

  static func makeDecisions(event: Event, state: inout State) -> [String] {
    MainActor.preconditionIsolated("the core of a main-actor feature runs on the main actor")
    switch event {
    case .start(let name):
      state.started.insert(name)
      return [name]
    case .loaded(let name, let value):
      if name == "a" { state.a = value } else { state.b = value }
      return []
    }
  }

  static func execute(_ decision: String, deps: Deps, effects: Effects<Event>) {
    MainActor.preconditionIsolated("the executor of a main-actor feature runs on the main actor")
    effects.run(id: decision) { send in
      await send(.loaded(decision, try await deps.load(decision)))
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value(1), .value(2)]))
  }

  static func starting(_ state: State) -> [Event] {
    ["a", "b"].filter { !state.started.contains($0) }.map { .start($0) }
  }
}

/// A main-actor feature explores alike with steps taken back and without.
@MainActor
@Suite struct TakeBackMainActorAttackTests {
  @Test func aMainActorFeatureExploresAlike() {
    let takenBack = explore(
      MainActorSearch.self, from: .init(), deps: MainActorSearch.deps,
      events: MainActorSearch.typing)
    let returned = StepsTakenBack.$areTaken.withValue(false) {
      explore(
        MainActorSearch.self, from: .init(), deps: MainActorSearch.deps,
        events: MainActorSearch.typing)
    }
    // NB: its one step that could be taken back answers the search, which the debounce's event
    // started: such work is not started again (helper-38), so the explorer returns.
    #expect(takenBack.stepsTakenBack.workStartedAgain == 0)
    #expect(differences("MainActorSearch", takenBack, returned) == [])
  }

  /// A main-actor feature's work is started again on the main actor, and explores alike.
  @Test func aMainActorFeaturesWorkIsStartedAgain() {
    let takenBack = explore(
      MainLoads.self, from: .init(), deps: MainLoads.deps, events: MainLoads.starting)
    let returned = StepsTakenBack.$areTaken.withValue(false) {
      explore(MainLoads.self, from: .init(), deps: MainLoads.deps, events: MainLoads.starting)
    }
    takenBack.expectComplete()
    #expect(takenBack.stepsTakenBack.workStartedAgain > 0)
    #expect(takenBack.stepsRun < returned.stepsRun)
    #expect(differences("MainLoads", takenBack, returned) == [])
  }
}
