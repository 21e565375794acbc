/// A feature's logic as one pure function from an event and a state to a new state and decisions.
///
/// A core is the *functional core* of a feature. It owns every branch of the feature's behaviour and
/// nothing else: no I/O, no clocks, no randomness, no `async`, and no access to dependencies. Given the
/// same event and state it always produces the same new state and the same decisions, which is what
/// makes it testable with plain synchronous assertions.
///
/// Decisions are values that *describe* effects — "load a fact", "log this text" — and are performed
/// later by the feature's executor (see ``Feature``). Make them `Equatable` so tests can compare them.
///
/// ```swift
/// enum Counter: Core {
///   struct State: Equatable, Sendable { var count = 0 }
///   enum Event: Sendable { case increment, reset }
///   enum Decision: Equatable, Sendable { case log(String) }
///
///   static func makeDecisions(event: Event, state: inout State) -> [Decision] {
///     switch event {
///     case .increment:
///       state.count += 1
///       return []
///     case .reset:
///       state.count = 0
///       return [.log("reset")]
///     }
///   }
/// }
/// ```
///
/// A core asks nothing of concurrency: it is plain synchronous code, tested with plain synchronous
/// assertions. ``Feature`` adds what a store needs (`Sendable` state, events and decisions), and
/// ``Store`` adds that the feature's conformances are not isolated to the main actor
/// (`SendableMetatype`). So in a module with default main-actor isolation a feature written with no
/// annotation runs on ``MainStore``; see "Default main-actor isolation" in Docs/Observation.md.
public protocol Core {
  /// Everything the feature knows at one moment.
  associatedtype State
  /// Something that happened: a user action, or the result of a decision's work.
  associatedtype Event
  /// A description of work to perform, decided by the core and carried out by the executor.
  associatedtype Decision

  /// Updates the state for one event and returns the decisions to perform, in order.
  ///
  /// This function must be pure: it may read and write `state` and the event, and nothing else.
  /// - Parameters:
  ///   - event: The event to handle.
  ///   - state: The current state, updated in place.
  /// - Returns: The decisions to perform, in the order they must be performed. Return `[]` when there is
  ///   nothing to do; an empty array costs no allocation.
  static func makeDecisions(event: Event, state: inout State) -> [Decision]

  /// Updates the initial state and returns the decisions to perform when a store starts running
  /// this core: "load on open", "subscribe to a stream for the store's lifetime".
  ///
  /// A store calls it once, in its initializer, so the store's state is the state this returns
  /// from the start; it performs the decisions before anything else, before any event sent,
  /// posted or sent back by work. Like ``makeDecisions(event:state:)`` it must be pure, and it is
  /// tested the same way, with no store: `CoreTest.start(decisions:_:)` in `DecisionsTesting`.
  /// The default changes nothing and decides nothing.
  ///
  /// ```swift
  /// static func makeStartDecisions(state: inout State) -> [Decision] {
  ///   state.isLoading = true
  ///   return [.load]
  /// }
  /// ```
  /// - Parameter state: The initial state the store was given, updated in place.
  /// - Returns: The decisions to perform first, in order.
  static func makeStartDecisions(state: inout State) -> [Decision]
}

extension Core {
  /// Decides nothing at start, and leaves the initial state as it is.
  public static func makeStartDecisions(state: inout State) -> [Decision] { [] }
}
