import Decisions
import DecisionsTesting

// MARK: - 13e-f. Exploring a whole feature with its effects

/// A feed of rows: each row loads when it appears, from a dependency that answers a value or
/// fails; a failed row can be retried; a filter field, debounced on the clock, reloads every row
/// that appeared for the new filter (case 13e).
enum ExploredFeed: Feature {
  enum Row: Hashable, Sendable {
    case idle, loading
    case loaded(Int)
    case failed
  }

  struct State: Hashable, Sendable {
    var rows: [Row]
    /// The filter the rows are loaded for.
    var filter = 0
    /// The filter typed, while its debounce waits.
    var typedFilter: Int?
  }

  enum Event: Sendable {
    case appeared(Int)
    case retried(Int)
    case loaded(row: Int, value: Int)
    case failed(row: Int)
    case filterTyped(Int)
    case filterSettled(Int)
  }

  enum Decision: Sendable {
    case load(Load)
    case debounce(filter: Int)
  }

  /// The arguments of a row's load.
  struct Load: Hashable, Sendable {
    var row: Int
    var filter: Int
  }

  struct Deps: Sendable {
    var load: @Sendable (Load) async throws -> Int
    var clock: any Clock<Duration>
  }

  /// The error the load's failing sample throws.
  struct Offline: Error {}

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .appeared(let row):
      guard state.rows[row] == .idle else { return [] }
      state.rows[row] = .loading
      return [.load(Load(row: row, filter: state.filter))]
    case .retried(let row):
      guard state.rows[row] == .failed else { return [] }
      state.rows[row] = .loading
      return [.load(Load(row: row, filter: state.filter))]
    case .loaded(let row, let value):
      state.rows[row] = .loaded(value)
      return []
    case .failed(let row):
      state.rows[row] = .failed
      return []
    case .filterTyped(let filter):
      state.typedFilter = filter
      return [.debounce(filter: filter)]
    case .filterSettled(let filter):
      state.typedFilter = nil
      state.filter = filter
      var decisions: [Decision] = []
      for row in state.rows.indices where state.rows[row] != .idle {
        state.rows[row] = .loading
        decisions.append(.load(Load(row: row, filter: filter)))
      }
      return decisions
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load(let load):
      // NB: keyed by the row, so a reload for a new filter replaces the row's load in flight.
      effects.run(id: load.row) { send in
        await send(.loaded(row: load.row, value: try await deps.load(load)))
      } catch: { _ in
        .failed(row: load.row)
      }
    case .debounce(let filter):
      effects.run(id: "filter") { send in
        try await deps.clock.sleep(for: .milliseconds(300))
        await send(.filterSettled(filter))
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      load: effects.dependency("load", answers: [.value(1), .failure(Offline())]),
      clock: effects.clock)
  }

  /// The user's actions: a row that has not appeared appears, a failed row is retried, and the
  /// filter is switched to the other of two.
  static func events(_ state: State) -> [Event] {
    var events: [Event] = []
    for (index, row) in state.rows.enumerated() {
      switch row {
      case .idle: events.append(.appeared(index))
      case .failed: events.append(.retried(index))
      case .loading, .loaded: break
      }
    }
    events.append(.filterTyped(1 - (state.typedFilter ?? state.filter)))
    return events
  }
}

/// The walker of case 13 as a feature whose every move is a piece of work that ends at once.
///
/// The work sends the move back, and the core makes it. No work is in flight between the
/// explorer's steps, so it never runs a step again (case 13f).
enum WorkingWalker: Feature {
  struct State: Hashable, Sendable {
    var x: UInt8 = 0
    var y: UInt8 = 0
    /// The side of the grid: 1 to 255, or 0 for 256.
    var side: UInt8
  }

  enum Event: Sendable {
    case step(Direction)
    case moved(Direction)
  }

  typealias Direction = Move

  static func makeDecisions(event: Event, state: inout State) -> [Direction] {
    switch event {
    case .step(let direction):
      return [direction]
    case .moved(let direction):
      direction.move(x: &state.x, y: &state.y, side: state.side)
      return []
    }
  }

  static func execute(_ decision: Direction, deps: Void, effects: Effects<Event>) {
    effects.run { send in await send(.moved(decision)) }
  }

  static let events: [Event] = Direction.allCases.map { .step($0) }
}

/// Cases 13e and 13f: `explore` of a whole feature, its work's answers and deadlines included.
///
/// Each row's "events" are the transitions explored. To go back to a state with work in flight,
/// the explorer runs the steps to it again from the nearest state without any, so it runs more
/// steps than it explores transitions: the note gives both rates and their ratio.
func exploreEffectsRows(_ plan: Plan) async -> [Row] {
  let rows = plan.quick ? 3 : 4
  let feed = await exploreFeatureRow(
    "13e", "explore+effects: \(rows) rows, loads, debounce", plan: plan,
    detail: "\(rows) rows, each a keyed load answering a value or failing, a debounced filter"
  ) {
    explore(
      ExploredFeed.self, from: .init(rows: Array(repeating: .idle, count: rows)),
      deps: ExploredFeed.deps, events: ExploredFeed.events)
  } checks: { exploration in
    // Every row loaded for the second filter, with nothing in flight, was reached.
    let last = ExploredFeed.State(rows: Array(repeating: .loaded(1), count: rows), filter: 1)
    check(
      exploration.snapshots.contains { $0.state == last && $0.work.isEmpty },
      "no state has every row loaded for filter 1 with no work in flight")
    check(
      exploration.snapshots.contains { $0.work.count == rows + 1 },
      "no state has every row loading while the filter's debounce waits")
  }
  let side = plan.quick ? 32 : 64
  let walker = await exploreFeatureRow(
    "13f", "explore+effects: no work between steps", plan: plan,
    detail: "the walker of 13a on a \(side) × \(side) grid, each move a piece of work"
  ) {
    explore(
      WorkingWalker.self, from: .init(side: UInt8(side % 256)), deps: { _ in () },
      events: { _ in WorkingWalker.events })
  } checks: { exploration in
    check(
      exploration.snapshots.count == side * side,
      "found \(exploration.snapshots.count) of \(side * side) states")
    check(
      exploration.transitions.count == side * side * 4,
      "found \(exploration.transitions.count) of \(side * side * 4) transitions")
    check(
      exploration.stepsRun == exploration.transitions.count,
      "ran \(exploration.stepsRun) steps for \(exploration.transitions.count) transitions")
  }
  return [feed, walker]
}

/// Explores with `run` once to count its transitions and check it, then times it; the note gives
/// states, transitions, steps run and both rates.
///
/// The first run counts as one of the plan's warm-up runs.
func exploreFeatureRow<F: Feature>(
  _ id: String, _ title: String, plan: Plan, detail: String,
  _ run: () -> FeatureExploration<F>,
  checks: (FeatureExploration<F>) -> Void
) async -> Row where F.State: Hashable {
  guard plan.selects(id) else { return Row(id: id, title: title, events: 0, nanos: []) }
  let first = timedExploration(run)
  let exploration = first.exploration
  check(exploration.isComplete, "the search was cut after \(exploration.snapshots.count) states")
  check(
    exploration.statesWithUncontrolledWork.isEmpty,
    "\(exploration.statesWithUncontrolledWork.count) states have work the explorer does not control"
  )
  checks(exploration)
  let states = exploration.snapshots.count
  let transitions = exploration.transitions.count
  let steps = exploration.stepsRun
  // NB: the run that counted was a warm-up: a run of 13e takes seconds.
  var timed = plan
  timed.warmup = max(0, plan.warmup - 1)
  var row = await measure(id, title, events: transitions, plan: timed) { _ in
    let (elapsed, again) = timedExploration(run)
    check(
      again.snapshots.count == states && again.transitions.count == transitions
        && again.stepsRun == steps,
      "a run found \(again.snapshots.count) states, \(again.transitions.count) transitions and "
        + "ran \(again.stepsRun) steps, not \(states), \(transitions) and \(steps)")
    return elapsed
  }
  let seconds = row.median * Double(transitions) / 1e9
  row.note =
    "\(detail): \(grouped(states)) states, \(grouped(transitions)) transitions, "
    + "\(grouped(steps)) steps run (\(fixed(Double(steps) / Double(transitions), 2)) per "
    + "transition; \(grouped(exploration.stepsTakenBack.steps)) taken back, starting "
    + "\(grouped(exploration.stepsTakenBack.workStartedAgain)) pieces of work again): "
    + "\(rate(Double(transitions) / seconds)) transitions/s, "
    + "\(rate(Double(steps) / seconds)) steps run/s"
  return row
}

/// Runs an exploration and returns the time it took with its result.
///
/// NB: synchronous and never inlined, as `exploreWalker` is: the explorer runs the work's jobs on
/// this thread.
@inline(never)
func timedExploration<F: Feature>(
  _ run: () -> FeatureExploration<F>
) -> (elapsed: Duration, exploration: FeatureExploration<F>) where F.State: Hashable {
  let clock = ContinuousClock()
  let began = clock.now
  let exploration = run()
  return (clock.now - began, exploration)
}
