import Decisions
import DecisionsTesting

// MARK: - 13. Exploring a core's states

/// A move of the walkers of cases 13a–f, one square on a grid that wraps around.
enum Move: Sendable, CaseIterable {
  case right, left, up, down

  /// Moves the walker at (`x`, `y`) on a grid of `side` squares (0 for 256).
  func move(x: inout UInt8, y: inout UInt8, side: UInt8) {
    // NB: the modulo wraps a grid smaller than 256.
    let side = side == 0 ? 256 : Int(side)
    switch self {
    case .right: x = UInt8((Int(x) + 1) % side)
    case .left: x = UInt8((Int(x) + side - 1) % side)
    case .up: y = UInt8((Int(y) + 1) % side)
    case .down: y = UInt8((Int(y) + side - 1) % side)
    }
  }
}

/// A walker on a square grid that wraps around, carrying a payload that only makes the state
/// bigger: `side × side` states, four transitions each.
enum Walker<Payload: Hashable & Sendable>: Core {
  struct State: Hashable, Sendable {
    var x: UInt8 = 0
    var y: UInt8 = 0
    /// The side of the grid: 1 to 255, or 0 for 256.
    var side: UInt8
    var payload: Payload
  }

  typealias Event = Move

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    event.move(x: &state.x, y: &state.y, side: state.side)
    return []
  }

  static var events: [Event] { [.right, .left, .up, .down] }
}

/// 64 bytes of payload.
struct Bytes64: Hashable, Sendable {
  var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
    0, 0, 0, 0, 0, 0, 0, 0
  )

  static func == (lhs: Self, rhs: Self) -> Bool {
    withUnsafeBytes(of: lhs.words) { left in
      withUnsafeBytes(of: rhs.words) { right in left.elementsEqual(right) }
    }
  }

  func hash(into hasher: inout Hasher) {
    withUnsafeBytes(of: words) { hasher.combine(bytes: $0) }
  }
}

/// 512 bytes of payload.
struct Bytes512: Hashable, Sendable {
  var parts = (
    Bytes64(), Bytes64(), Bytes64(), Bytes64(), Bytes64(), Bytes64(), Bytes64(), Bytes64()
  )

  static func == (lhs: Self, rhs: Self) -> Bool {
    withUnsafeBytes(of: lhs.parts) { left in
      withUnsafeBytes(of: rhs.parts) { right in left.elementsEqual(right) }
    }
  }

  func hash(into hasher: inout Hasher) {
    withUnsafeBytes(of: parts) { hasher.combine(bytes: $0) }
  }
}

/// Case 13: `explore` over every state of a walker on a grid, with states of three sizes.
///
/// The walker's state is 3 bytes (a), or carries a 64- or 512-byte payload (b, c), to show how
/// the cost grows with the size of the state.
/// Each row's "events" are transitions; its note gives the bytes the graph keeps per state.
func exploreCase(_ plan: Plan) async -> [Row] {
  let side = plan.quick ? 128 : 256
  var rows: [Row] = []
  rows.append(
    await exploreRow("13a", "explore: 3-byte states", side: side, plan: plan, payload: 0 as UInt8))
  rows.append(
    await exploreRow("13b", "explore: 67-byte states", side: side, plan: plan, payload: Bytes64()))
  rows.append(
    await exploreRow(
      "13c", "explore: 515-byte states", side: side, plan: plan,
      payload: Bytes512()))
  rows.append(await MainThread.run { mainActorExploreRow(side: side, plan: plan) })
  rows += await exploreEffectsRows(plan)
  return rows
}

/// The walker of 13a with its conformances isolated to the main actor, as a feature written with
/// no annotation in a module with default main-actor isolation has them (case 13d).
@MainActor enum MainActorWalker: @MainActor Core {
  struct State: @MainActor Hashable, Sendable {
    var x: UInt8 = 0
    var y: UInt8 = 0
    /// The side of the grid: 1 to 255, or 0 for 256.
    var side: UInt8
  }

  typealias Event = Move

  static func makeDecisions(event: Event, state: inout State) -> [Never] {
    event.move(x: &state.x, y: &state.y, side: state.side)
    return []
  }

  /// The events tried in every state: a main-actor function, as a test passes it.
  static func events(_ state: State) -> [Event] { [.right, .left, .up, .down] }
}

/// Case 13d: the main-actor walker explored on the main actor, with the state's own main-actor
/// `Hashable` and a main-actor `events` function: the same search as 13a.
@MainActor func mainActorExploreRow(side: Int, plan: Plan) -> Row {
  let states = side * side
  let transitions = states * 4
  let start = MainActorWalker.State(side: UInt8(side % 256))
  return measureOnThisThread(
    "13d", "explore: 3-byte states, main-actor conformances", events: transitions, plan: plan
  ) { _ in
    let clock = ContinuousClock()
    let began = clock.now
    let graph = explore(MainActorWalker.self, from: start, events: MainActorWalker.events)
    let elapsed = clock.now - began
    check(graph.isComplete, "the search was cut: \(graph)")
    check(graph.states.count == states, "found \(graph.states.count) of \(states) states")
    check(
      graph.transitions.count == transitions,
      "found \(graph.transitions.count) of \(transitions) transitions")
    return elapsed
  }
}

/// Explores a `side × side` walker with `payload` in every state, checks the graph, and returns
/// its row: nanoseconds per transition, and resident bytes per state in the note.
func exploreRow<Payload: Hashable & Sendable>(
  _ id: String, _ title: String, side: Int, plan: Plan, payload: Payload
) async -> Row {
  let states = side * side
  let transitions = states * Walker<Payload>.events.count
  let start = Walker<Payload>.State(side: UInt8(side % 256), payload: payload)
  let row = await measure(id, title, events: transitions, plan: plan) { _ in
    exploreWalker(from: start, states: states, transitions: transitions).elapsed
  }
  // NB: a row the command line did not pick comes back without runs, and explores nothing.
  guard plan.selects(id) else { return row }
  let bytesPerState =
    exploreWalker(from: start, states: states, transitions: transitions)
    .storageBytes / states
  var noted = row
  noted.note =
    "\(grouped(states)) states of \(MemoryLayout<Walker<Payload>.State>.size) B, "
    + "\(grouped(bytesPerState)) B per state kept, with its transitions and index"
  return noted
}

/// Explores a walker from `start`, checks the graph's size, and returns the time the search took
/// and the bytes its graph holds.
///
/// NB: synchronous and never inlined: in the async caller, the generic exploration of large states
/// tripped the task allocator ("freed pointer was not the last allocation").
@inline(never)
func exploreWalker<Payload: Hashable & Sendable>(
  from start: Walker<Payload>.State, states: Int, transitions: Int
) -> (elapsed: Duration, storageBytes: Int) {
  let clock = ContinuousClock()
  let began = clock.now
  let events = Walker<Payload>.events
  let graph = explore(Walker<Payload>.self, from: start) { _ in events }
  let elapsed = clock.now - began
  check(graph.isComplete, "the search was cut: \(graph)")
  check(graph.states.count == states, "found \(graph.states.count) of \(states) states")
  check(
    graph.transitions.count == transitions,
    "found \(graph.transitions.count) of \(transitions) transitions")
  return (elapsed, graph.storageBytes)
}
