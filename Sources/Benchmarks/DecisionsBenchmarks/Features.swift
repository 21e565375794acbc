import Decisions
import Synchronization

// MARK: - The flat feature

/// The trivial counter that most cases run: `increment` decides nothing, `tap` one quick decision.
enum Counter: Feature {
  /// The counter's state.
  struct State: Equatable, Sendable {
    /// How many events the core has handled.
    var count = 0
  }

  /// The counter's events.
  enum Event: Equatable, Sendable {
    /// Counts, and decides nothing.
    case increment
    /// Counts, and decides to log the value.
    case tap(Int)
  }

  /// The counter's one decision.
  enum Decision: Equatable, Sendable {
    /// Log the value: quick work, performed in place.
    case log(Int)
  }

  /// The counter's one dependency.
  struct Deps: Sendable {
    /// Logs a value; the benchmark's version adds it to a total.
    var log: @Sendable (Int) -> Void

    /// Deps that do nothing, for cases whose events decide nothing.
    static let none = Deps(log: { _ in })
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .increment:
      state.count += 1
      return []
    case .tap(let value):
      state.count += 1
      return [.log(value)]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .log(let value):
      deps.log(value)
    }
  }
}

/// A thread-safe running total that `Deps` closures add to, so a case can check its quick work.
final class Total: Sendable {
  private let storage = Atomic<Int>(0)

  /// The sum so far.
  var value: Int { storage.load(ordering: .relaxed) }

  /// Adds `amount` to the total.
  func add(_ amount: Int) {
    storage.add(amount, ordering: .relaxed)
  }
}

// MARK: - Three levels of composition

/// The middle level of the composed feature: it embeds ``Counter``.
enum Middle: Feature {
  /// The middle state: the embedded counter's.
  struct State: Equatable, Sendable {
    /// The child's state.
    var counter = Counter.State()
  }

  /// The middle events.
  enum Event: Equatable, Sendable {
    /// An event for the child.
    case counter(Counter.Event)
  }

  /// The middle decisions.
  enum Decision: Equatable, Sendable {
    /// A decision of the child.
    case counter(Counter.Decision)
  }

  /// The middle deps: the child's, derived from them.
  struct Deps: Sendable {
    /// The child's deps.
    var counter: Counter.Deps
  }

  /// The embedded counter, declared once.
  static let counter = embed(
    Counter.self, state: \.counter, event: Event.counter, decision: Decision.counter)
  static let childWork = [counter.work]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .counter(let event):
      return counter.makeDecisions(event: event, in: &state)
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .counter(let decision):
      counter.execute(decision, deps: deps.counter, effects: effects)
    }
  }
}

/// The top level of the composed feature: parent → child (``Middle``) → grandchild (``Counter``).
enum Top: Feature {
  /// The top state: the embedded middle level's.
  struct State: Equatable, Sendable {
    /// The child's state.
    var middle = Middle.State()
  }

  /// The top events.
  enum Event: Equatable, Sendable {
    /// An event for the child.
    case middle(Middle.Event)
  }

  /// The top decisions.
  enum Decision: Equatable, Sendable {
    /// A decision of the child.
    case middle(Middle.Decision)
  }

  /// The top deps: the child's, derived from them.
  struct Deps: Sendable {
    /// The child's deps.
    var middle: Middle.Deps
  }

  /// The embedded middle level, declared once.
  static let middle = embed(
    Middle.self, state: \.middle, event: Event.middle, decision: Decision.middle)
  static let childWork = [middle.work]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .middle(let event):
      return middle.makeDecisions(event: event, in: &state)
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .middle(let decision):
      middle.execute(decision, deps: deps.middle, effects: effects)
    }
  }
}

// MARK: - Long work

/// A feature whose every answer starts the next request: a chain of effect round trips.
///
/// `start(rounds:)` decides one `request`; the executor runs it as long work that calls the `echo`
/// dependency and sends the answer back; each answer counts and decides the next request, until
/// `rounds` answers have arrived. One link of the chain is one round trip.
enum PingPong: Feature {
  /// Progress through the chain.
  struct State: Equatable, Sendable {
    /// How many answers have arrived.
    var answers = 0
    /// How many answers the chain needs.
    var rounds = 0
    /// The sum of the answers, to check that each arrived once.
    var sum = 0
  }

  /// The chain's events.
  enum Event: Equatable, Sendable {
    /// Starts a chain of `rounds` round trips.
    case start(rounds: Int)
    /// The answer to request number `value`.
    case answer(Int)
  }

  /// The chain's decision.
  enum Decision: Equatable, Sendable {
    /// Send request number `value`: long work.
    case request(Int)
  }

  /// The chain's dependency.
  struct Deps: Sendable {
    /// Answers a request; the benchmark's version returns its argument.
    var echo: @Sendable (Int) async -> Int
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .start(let rounds):
      state = State(rounds: rounds)
      return rounds > 0 ? [.request(0)] : []
    case .answer(let value):
      state.answers += 1
      state.sum += value
      return state.answers < state.rounds ? [.request(state.answers)] : []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .request(let value):
      effects.run { send in
        await send(.answer(await deps.echo(value)))
      }
    }
  }
}

// MARK: - A list of children (case 12)

/// A list of counters, one per row, each found by id: in an `IdentifiedArray` (O(1)), or in a plain
/// array (a linear search), to show what each costs as the list grows.
enum Rows: Feature {
  /// One row: a counter with an id.
  struct Row: Identifiable, Equatable, Sendable {
    /// The row's id.
    var id: Int
    /// The row's counter.
    var counter = Counter.State()
  }

  /// The rows, kept both ways; a store uses one of them.
  struct State: Equatable, Sendable {
    /// The rows by id.
    var identified: IdentifiedArray<Row> = []
    /// The same rows in a plain array.
    var array: [Row] = []

    /// Creates `count` rows, numbered from 0, in the chosen collection.
    init(count: Int, identified: Bool) {
      let rows = (0..<count).map { Row(id: $0) }
      if identified {
        self.identified = IdentifiedArray(uniqueElements: rows)
      } else {
        array = rows
      }
    }
  }

  /// Events for one row.
  enum Event: Equatable, Sendable {
    /// An event for the row with `id`, in the `IdentifiedArray`.
    case identified(id: Int, Counter.Event)
    /// An event for the row with `id`, in the plain array.
    case array(id: Int, Counter.Event)
  }

  /// The rows decide nothing in this case.
  typealias Decision = Never
  /// No deps.
  typealias Deps = Void

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .identified(let id, let event):
      _ = RowCounter.makeDecisions(event: event, id: id, in: &state.identified) { _, _ in () }
    case .array(let id, let event):
      _ = RowCounter.makeDecisions(event: event, id: id, in: &state.array) { _, _ in () }
    }
    return []
  }

  static func execute(_ decision: Never, deps: Void, effects: Effects<Event>) {}
}

/// The rows of case 12 embedded with one declaration, `embed(_:list:event:)`, instead of the
/// composition helper: what the declaration's forwarding costs next to the helper's.
enum EmbeddedRows: Feature {
  /// The rows by id.
  struct State: Equatable, Sendable {
    /// The rows.
    var rows: IdentifiedArray<Rows.Row>

    /// Creates `count` rows, numbered from 0.
    init(count: Int) {
      rows = IdentifiedArray(uniqueElements: (0..<count).map { Rows.Row(id: $0) })
    }
  }

  /// An event for one row.
  enum Event: Equatable, Sendable {
    /// An event for the row with `id`.
    case row(id: Int, Counter.Event)
  }

  /// The rows decide nothing in this case.
  typealias Decision = Never

  /// The rows, declared once.
  static let rows = embed(CountingRow.self, list: \.rows, event: Event.row)

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    switch event {
    case .row(let id, let event): rows.makeDecisions(event: event, id: id, in: &state)
    }
  }
}

/// The counter on a row, as a feature without work.
enum CountingRow: Feature {
  typealias State = Rows.Row
  typealias Event = Counter.Event
  typealias Decision = Never

  static func makeDecisions(event: Event, state: inout Rows.Row) -> [Never] {
    _ = Counter.makeDecisions(event: event, state: &state.counter)
    return []
  }
}

/// The counter core on a row.
enum RowCounter: Core {
  typealias State = Rows.Row
  typealias Event = Counter.Event
  typealias Decision = Counter.Decision

  static func makeDecisions(event: Event, state: inout Rows.Row) -> [Decision] {
    Counter.makeDecisions(event: event, state: &state.counter)
  }
}

// MARK: - Rows with loads in flight (cases 15 and 16)

/// A list of rows, each with a load in flight in the scope of its id: the store cancels a row's load
/// when the row leaves the list, by ``childWork``.
enum LoadingRows: Feature {
  /// The rows, and the id of the next row to add.
  struct State: Equatable, Sendable {
    /// The rows by id.
    var rows: IdentifiedArray<LoadingRow.State>
    /// The id the next added row gets.
    var nextID: Int

    /// Creates `count` rows, numbered from 0, none of them loading yet.
    init(count: Int) {
      rows = IdentifiedArray(uniqueElements: (0..<count).map { LoadingRow.State(id: $0) })
      nextID = count
    }
  }

  /// The list's events.
  enum Event: Equatable, Sendable {
    /// Starts every row's load.
    case loadAll
    /// An event for the row with `id`.
    case row(id: Int, LoadingRow.Event)
    /// Removes the row with `id`; the store cancels its load.
    case remove(id: Int)
    /// Adds a row at the end, with the next id, and starts its load.
    case addLoading
  }

  /// The list's decisions: its rows'.
  enum Decision: Equatable, Sendable {
    /// A decision of the row with `id`.
    case row(id: Int, LoadingRow.Decision)
  }

  /// The list's deps: the rows'.
  struct Deps: Sendable {
    /// The rows' deps.
    var row: LoadingRow.Deps
  }

  static let childWork: [ChildWork<State>] = [.children(LoadingRow.self, in: \.rows)]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .loadAll:
      var decisions: [Decision] = []
      decisions.reserveCapacity(state.rows.count)
      for id in state.rows.ids {
        decisions += LoadingRow.makeDecisions(
          event: .load, id: id, in: &state.rows, embed: Decision.row)
      }
      return decisions
    case .row(let id, let event):
      return LoadingRow.makeDecisions(event: event, id: id, in: &state.rows, embed: Decision.row)
    case .remove(let id):
      state.rows.remove(id: id)
      return []
    case .addLoading:
      let id = state.nextID
      state.nextID += 1
      state.rows.append(LoadingRow.State(id: id))
      return LoadingRow.makeDecisions(event: .load, id: id, in: &state.rows, embed: Decision.row)
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .row(let id, let decision):
      LoadingRow.execute(decision, deps: deps.row, effects: effects, scope: id) {
        Event.row(id: id, $0)
      }
    }
  }
}

/// One row of ``LoadingRows``: a counter that loads.
enum LoadingRow: Feature {
  /// The row's state.
  struct State: Identifiable, Equatable, Sendable {
    /// The row's id.
    var id: Int
    /// How many increments the row counted.
    var count = 0
    /// Whether its load is in flight.
    var isLoading = false
  }

  /// The row's events.
  enum Event: Equatable, Sendable {
    /// Counts, and decides nothing: the event the cases time.
    case increment
    /// Starts the load.
    case load
    /// The load finished.
    case loaded
  }

  /// The row's one decision.
  enum Decision: Equatable, Sendable {
    /// Load: long work, keyed `"load"` in the row's scope.
    case load
  }

  /// The row's one dependency.
  struct Deps: Sendable {
    /// Loads; the benchmark's version waits until its work is cancelled.
    var load: @Sendable () async -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .increment:
      state.count += 1
      return []
    case .load:
      state.isLoading = true
      return [.load]
    case .loaded:
      state.isLoading = false
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { send in
        await deps.load()
        await send(.loaded)
      }
    }
  }
}
