import Decisions

/// Explores every state a core can reach from `state`, breadth first, and returns the graph.
///
/// A core is a pure function, so the states it can reach are a graph that a test can walk whole:
/// from each state, every event that `events` lists is sent once through the core, and each new
/// state is explored in turn, nearest first. The result holds each distinct state once, every
/// transition with its event and decisions, and the shortest path to each state, which checks such
/// as ``Exploration/expectInvariant(_:fileID:filePath:line:column:_:)`` print as a counterexample.
///
/// ```swift
/// let exploration = explore(FactFeature.self, from: .idle) { _ in
///   [.view(.didTapButton), .model(.finishLoading(Fact(text: "A"))), .model(.failedLoading("x"))]
/// }
/// exploration.expectInvariant("a fact stays on screen while loading") { state in
///   state != .loading(previous: nil) || state.text == nil
/// }
/// ```
///
/// States are told apart by `key`. When the state has parts that grow without bound (a counter, a
/// next id, a log), pass a key that leaves them out, so that states differing only there count as
/// one and the search ends; see the overload for `Hashable` states to use the state itself.
///
/// - Complexity: O(*t*) calls of the core, `events` and `key`, where *t* is the number of
///   transitions explored, at most `limits.states` times the events per state; memory is O(*s* + *t*)
///   for *s* states kept.
/// - Parameters:
///   - core: The core.
///   - state: The initial state.
///   - key: What identifies a state: two states with the same key are one node of the graph, and
///     only the first one reached is explored.
///   - limits: The most states to keep and the most events from the initial state.
///   - events: The events to try in a state. Return the same events for equal keys, in a stable
///     order: the order decides which of two equally short paths a counterexample shows.
/// - Returns: The graph of reachable states, and whether a limit cut it.
public func explore<C: Core, Key: Hashable>(
  _ core: C.Type,
  from state: C.State,
  key: @escaping @Sendable (C.State) -> Key,
  limits: ExplorationLimits = .standard,
  events: (C.State) -> [C.Event]
) -> Exploration<C, Key> {
  exploration(from: state, key: key, limits: limits, events: events)
}

/// Explores every state a core can reach from `state`, breadth first, telling states apart by
/// their own value.
///
/// See ``explore(_:from:key:limits:events:)`` for the search, and pass a `key` there when the state
/// holds values that grow without bound.
/// - Parameters:
///   - core: The core.
///   - state: The initial state.
///   - limits: The most states to keep and the most events from the initial state.
///   - events: The events to try in a state, in a stable order.
/// - Returns: The graph of reachable states, and whether a limit cut it.
///
/// The search runs on the caller's isolation and asks nothing more of the state than `Hashable`,
/// so a main-actor feature's state uses its own `Hashable`, isolated to the main actor as it is.
public func explore<C: Core>(
  _ core: C.Type,
  from state: C.State,
  limits: ExplorationLimits = .standard,
  events: (C.State) -> [C.Event]
) -> Exploration<C, C.State> where C.State: Hashable {
  exploration(from: state, key: { $0 }, limits: limits, events: events)
}

/// Explores every state a core can reach from `state`, breadth first, with the events to try given
/// by a main-actor function, such as a static function of a test in a module with default
/// main-actor isolation.
///
/// It is ``explore(_:from:key:limits:events:)``, on the main actor: Swift converts a main-actor
/// function to the nonisolated `events` of that one only inside a function, not in the initializer
/// of a `static let`.
/// - Parameters:
///   - core: The core.
///   - state: The initial state.
///   - key: What identifies a state.
///   - limits: The most states to keep and the most events from the initial state.
///   - events: The events to try in a state, in a stable order.
/// - Returns: The graph of reachable states, and whether a limit cut it.
@MainActor
public func explore<C: Core, Key: Hashable>(
  _ core: C.Type,
  from state: C.State,
  key: @escaping @Sendable (C.State) -> Key,
  limits: ExplorationLimits = .standard,
  events: @MainActor (C.State) -> [C.Event]
) -> Exploration<C, Key> {
  exploration(from: state, key: key, limits: limits, events: events)
}

/// Explores every state a core can reach from `state`, breadth first, telling states apart by
/// their own value, with the events to try given by a main-actor function.
///
/// It is ``explore(_:from:limits:events:)``, on the main actor: Swift converts a main-actor
/// function to the nonisolated `events` of that one only inside a function, not in the initializer
/// of a `static let`.
/// - Parameters:
///   - core: The core.
///   - state: The initial state.
///   - limits: The most states to keep and the most events from the initial state.
///   - events: The events to try in a state, in a stable order.
/// - Returns: The graph of reachable states, and whether a limit cut it.
@MainActor
public func explore<C: Core>(
  _ core: C.Type,
  from state: C.State,
  limits: ExplorationLimits = .standard,
  events: @MainActor (C.State) -> [C.Event]
) -> Exploration<C, C.State> where C.State: Hashable {
  exploration(from: state, key: { $0 }, limits: limits, events: events)
}

/// The one search behind every `explore`: synchronous, on the caller's isolation, with no
/// `Sendable` asked of the core's types.
private func exploration<C: Core, Key: Hashable>(
  from state: C.State,
  key: @escaping (C.State) -> Key,
  limits: ExplorationLimits,
  events: (C.State) -> [C.Event]
) -> Exploration<C, Key> {
  var graph = Exploration<C, Key>(initialState: state, key: key)
  graph.search(events: events, limits: limits)
  return graph
}
