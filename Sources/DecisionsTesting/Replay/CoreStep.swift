import Decisions

/// One event sent through a core, with both of its states: what a transition invariant sees.
///
/// ``Exploration`` checks its transitions with it (``Exploration/Step``), and a ``Symptom`` checks
/// the steps of a replayed run:
///
/// ```swift
/// .transitionInvariantBroken("a stale result changes nothing") { step in
///   guard case .finishLoading = step.event, step.before.status != .loading else { return true }
///   return step.after == step.before
/// }
/// ```
public struct CoreStep<C: Core> {
  /// The state the event was sent in.
  public var before: C.State
  /// The event.
  public var event: C.Event
  /// The state the core produced.
  public var after: C.State
  /// The decisions the core returned.
  public var decisions: [C.Decision]

  /// Creates a step.
  public init(before: C.State, event: C.Event, after: C.State, decisions: [C.Decision]) {
    self.before = before
    self.event = event
    self.after = after
    self.decisions = decisions
  }
}

extension CoreStep: Equatable
where C.State: Equatable, C.Event: Equatable, C.Decision: Equatable {}

extension CoreStep: Sendable where C.State: Sendable, C.Event: Sendable, C.Decision: Sendable {}
