import Decisions

/// A recorded run replayed through today's core: step to any point of it, compare it with what was
/// recorded, and shrink it to a regression test.
///
/// A core is pure, so a run is its first state and its events. Make a replay from a decoded
/// ``Journal/Recording``, from a ``Journal`` (which also recorded the states and decisions the
/// store saw), or from any recorder's state and events:
///
/// ```swift
/// let replay = Replay(recording)          // a Journal<FactLoader>.Recording from a bug report
/// replay.state(atStep: 2)                 // the state after the second event
/// replay.steps.last?.decisions            // what today's core decides on the last event
/// ```
///
/// The replay runs the events once, when it is made, and keeps every step, so stepping back and
/// forth costs nothing.
/// - Complexity: Making a replay runs the core once per event and keeps one state per event.
public struct Replay<C: Core> {
  /// The state before the first event.
  public let initialState: C.State
  /// The events, in order.
  public let events: [C.Event]
  /// Each event, with the state today's core produced and its decisions, in order.
  public let steps: [TraceStep<C>]
  /// What the recorder saw at each step, when it kept states and decisions (a ``Journal`` does),
  /// or nil when the recording is only events.
  public let recordedSteps: [TraceStep<C>]?

  /// Replays `events` through the core from `initialState`.
  /// - Parameters:
  ///   - core: The core; inferred from the type when omitted.
  ///   - initialState: The state before the first event.
  ///   - events: The events, in order.
  public init(_ core: C.Type = C.self, from initialState: C.State, events: [C.Event]) {
    self.initialState = initialState
    self.events = events
    self.steps = DecisionsTesting.replay(C.self, from: initialState, events: events)
    self.recordedSteps = nil
  }

  /// Replays the events of recorded steps through the core from `initialState`, keeping the
  /// recorded states and decisions to compare with (see ``firstDisagreement``).
  /// - Parameters:
  ///   - core: The core; inferred from the type when omitted.
  ///   - initialState: The state before the first step.
  ///   - recordedSteps: Each event with the state and decisions the recorder saw, in order.
  public init(_ core: C.Type = C.self, from initialState: C.State, recordedSteps: [TraceStep<C>]) {
    self.initialState = initialState
    self.events = recordedSteps.map(\.event)
    self.steps = DecisionsTesting.replay(C.self, from: initialState, events: events)
    self.recordedSteps = recordedSteps
  }

  /// The number of steps: one per event.
  public var count: Int { events.count }

  /// The state after step `number`, counting from 1; step 0 is the initial state.
  /// - Parameter number: A step number from 0 through ``count``.
  /// - Returns: The state, or nil when the run has no such step.
  public func state(atStep number: Int) -> C.State? {
    guard number >= 0 && number <= steps.count else { return nil }
    return number == 0 ? initialState : steps[number - 1].state
  }

  /// Step `number`, counting from 1, with the state before it: what a transition invariant sees.
  /// - Parameter number: A step number from 1 through ``count``.
  /// - Returns: The step, or nil when the run has no such step.
  public func step(_ number: Int) -> CoreStep<C>? {
    guard number >= 1 && number <= steps.count, let before = state(atStep: number - 1) else {
      return nil
    }
    let step = steps[number - 1]
    return CoreStep(before: before, event: step.event, after: step.state, decisions: step.decisions)
  }

  /// The first `count` events as a replay of their own: the run up to that point.
  /// - Parameter count: How many events to keep; at most ``count`` are kept.
  /// - Returns: The shorter replay, with the recorded steps that belong to it.
  public func prefix(_ count: Int) -> Replay {
    let kept = max(0, min(count, self.count))
    return Replay(
      initialState: initialState, events: Array(events.prefix(kept)),
      steps: Array(steps.prefix(kept)), recordedSteps: recordedSteps.map { Array($0.prefix(kept)) })
  }

  private init(
    initialState: C.State, events: [C.Event], steps: [TraceStep<C>],
    recordedSteps: [TraceStep<C>]?
  ) {
    self.initialState = initialState
    self.events = events
    self.steps = steps
    self.recordedSteps = recordedSteps
  }
}

extension Replay where C: Feature {
  /// Replays a recording, such as one decoded from a bug report, through today's core.
  ///
  /// A ``Journal/Recording`` keeps events, not states or decisions, so the replay has nothing to
  /// compare with: ``recordedSteps`` is nil.
  /// - Parameter recording: The recording.
  public init(_ recording: Journal<C>.Recording) {
    self.init(from: recording.initialState, events: recording.events)
  }

  /// Replays what a journal recorded through today's core, keeping the states and decisions the
  /// store reported to compare with.
  ///
  /// The replay starts from ``Journal/stateBeforeEvents``: the state after the core's start.
  /// - Parameter journal: The journal, the diagnostics hook of the store that ran.
  public init(_ journal: Journal<C>) {
    self.init(from: journal.stateBeforeEvents, recordedSteps: journal.steps)
  }
}

extension Replay: Sendable where C.State: Sendable, C.Event: Sendable, C.Decision: Sendable {}
