import Decisions

/// Records what a running store did, through its diagnostics hook, so it can be replayed.
///
/// Because a core is pure, the events a store received replay through the core to the same states
/// and decisions. Record a journal where a bug shows up, encode it (``Recording``), and the bug
/// becomes a test:
///
/// ```swift
/// let journal = Journal<FactFeature>(initialState: .idle)
/// let store = Store<FactFeature>(state: .idle, deps: .live, diagnostics: journal.record)
/// // … later, in a test:
/// let steps = replay(FactFeature.self, from: journal.initialState, events: journal.events)
/// ```
public final class Journal<F: Feature>: Sendable {
  /// The state the store started from.
  public let initialState: F.State
  private let log = SharedLog<StoreDiagnostic<F>>()

  /// Creates an empty journal for a store that starts from `initialState`.
  public init(initialState: F.State) {
    self.initialState = initialState
  }

  /// Records one diagnostic; pass this method as the store's diagnostics hook.
  @Sendable
  public func record(_ diagnostic: StoreDiagnostic<F>) {
    log.append(diagnostic)
  }

  /// Everything recorded so far, in order.
  public var entries: [StoreDiagnostic<F>] {
    log.all
  }

  /// Everything recorded so far, in order, as values a test can compare with `==`.
  public var records: [Record] {
    entries.map { Record($0) }
  }

  /// The errors of work that no `catch:` handler turned into events, with the work's id.
  public var unhandledErrors: [(id: WorkID?, error: any Error)] {
    entries.compactMap { entry in
      if case .workFailed(let id, let error) = entry { return (id, error) }
      return nil
    }
  }

  /// A diagnostic as a value that tests can compare with `==`: the same cases as
  /// ``Decisions/StoreDiagnostic``, with the error of failed work kept as its description.
  ///
  /// It is a ``Decisions/StoreReport`` whose `Failure` is `String`, so its cases are the
  /// diagnostic's own: a new diagnostic is a new record, with nothing to copy.
  ///
  /// ```swift
  /// #expect(journal.records.last == .ignored(.loaded(3), reason: .cancelledWork))
  /// ```
  public typealias Record = StoreReport<F, String>

  /// The store's start, once the store has reported it: the state after the core's start (see
  /// ``Decisions/Core/makeStartDecisions(state:)``) and the start decisions performed so far.
  public var start: (state: F.State, decisions: [F.Decision])? {
    let entries = self.entries
    guard let first = entries.firstIndex(where: { if case .started = $0 { true } else { false } })
    else { return nil }
    var state = initialState
    var decisions: [F.Decision] = []
    for entry in entries[(first + 1)...] {
      switch entry {
      case .state(let started): state = started
      case .decided(let decision): decisions.append(decision)
      case .received: return (state, decisions)
      default: continue
      }
    }
    return (state, decisions)
  }

  /// The state the first event found: the initial state after the core's start.
  public var stateBeforeEvents: F.State {
    start?.state ?? initialState
  }

  /// The events the store processed, in order: the journal proper.
  public var events: [F.Event] {
    entries.compactMap { entry in
      if case .received(let event) = entry { return event }
      return nil
    }
  }

  /// The child scopes of work that no declaration in ``Decisions/Feature/childWork`` covers, in
  /// order.
  public var workWithoutLifetime: [[WorkID]] {
    entries.compactMap { entry in
      if case .workWithoutLifetime(let scope) = entry { return scope }
      return nil
    }
  }

  /// The events the store dropped, with the reason, in order.
  public var ignoredEvents: [(event: F.Event, reason: IgnoredReason)] {
    entries.compactMap { entry in
      if case .ignored(let event, let reason) = entry { return (event, reason) }
      return nil
    }
  }

  /// The recorded steps: each processed event with the state after it and its decisions.
  public var steps: [TraceStep<F>] {
    var steps: [TraceStep<F>] = []
    Self.appendSteps(of: entries[...], to: &steps, initialState: initialState)
    return steps
  }

  /// Adds the steps of `entries`, which follow the ones `steps` was built from, to `steps`.
  static func appendSteps(
    of entries: ArraySlice<StoreDiagnostic<F>>, to steps: inout [TraceStep<F>],
    initialState: F.State
  ) {
    for entry in entries {
      switch entry {
      case .received(let event):
        steps.append(
          TraceStep(event: event, state: steps.last?.state ?? initialState, decisions: []))
      case .state(let state):
        if !steps.isEmpty { steps[steps.count - 1].state = state }
      case .decided(let decision):
        if !steps.isEmpty { steps[steps.count - 1].decisions.append(decision) }
      default:
        break
      }
    }
  }

  /// The journal as a value that can be encoded, stored and replayed elsewhere.
  public var recording: Recording {
    Recording(initialState: stateBeforeEvents, events: events)
  }

  /// A journal's start state and events: everything needed to replay it.
  public struct Recording: Sendable {
    /// The state the store started from.
    public var initialState: F.State
    /// The events it processed, in order.
    public var events: [F.Event]

    /// Creates a recording.
    public init(initialState: F.State, events: [F.Event]) {
      self.initialState = initialState
      self.events = events
    }

    /// Replays the recording through the core.
    public func replay() -> [TraceStep<F>] {
      DecisionsTesting.replay(F.self, from: initialState, events: events)
    }
  }
}

extension StoreReport where Failure == String {
  /// Creates the record of a diagnostic: the same case, with an error as `String(describing:)`.
  public init(_ diagnostic: StoreDiagnostic<F>) {
    self = diagnostic.mapFailure { "\($0)" }
  }
}

extension Journal.Recording: Codable where F.State: Codable, F.Event: Codable {}
extension Journal.Recording: Equatable where F.State: Equatable, F.Event: Equatable {}

extension Journal where F.State: Equatable, F.Decision: Equatable {
  /// Asserts that replaying the journal's events through the core gives the recorded states and
  /// decisions: that the core is pure and the journal complete.
  /// - Parameters:
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func expectReplayMatches(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    expectReplayMatches(
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column),
      states: ==, decisions: ==)
  }
}

extension Journal {
  /// Replays the recorded events through today's core and fails at the first step that differs,
  /// for a main-actor feature.
  ///
  /// A main-actor feature's `Equatable` conformances are main-actor isolated, so the compiler
  /// cannot ask for them here (SE-0470): this overload finds them at run time, on the main actor.
  /// A state or decision type that is not `Equatable` fails the test, named.
  /// - Parameters:
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  @MainActor
  @_disfavoredOverload
  public func expectReplayMatches(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let states = runTimeEquality(of: F.State.self),
      let decisions = runTimeEquality(of: F.Decision.self)
    else {
      reportFailure(
        "expectReplayMatches compares states and decisions with ==, but "
          + "\(String(reflecting: F.State.self)) or \(String(reflecting: F.Decision.self)) is not "
          + "Equatable.", at: location)
      return
    }
    expectReplayMatches(at: location, states: states, decisions: decisions)
  }

  /// Replays the recorded events and fails at the first step whose state or decisions differ, as
  /// `states` and `decisions` compare them.
  func expectReplayMatches(
    at location: Location, states: (F.State, F.State) -> Bool,
    decisions: (F.Decision, F.Decision) -> Bool
  ) {
    let recorded = steps
    let replayed = replay(F.self, from: stateBeforeEvents, events: recorded.map(\.event))
    for (index, (old, new)) in zip(recorded, replayed).enumerated() {
      let title = "Replay step \(index + 1), \(describe(old.event))"
      if let problem = stateMismatch(
        "the replayed state", expected: old.state, actual: new.state,
        labels: ("recorded", "replayed"), by: states)
      {
        reportFailure("\(title): \(problem)", at: location)
        return
      }
      if let problem = decisionMismatch(
        expected: old.decisions, emitted: new.decisions, .on, by: decisions)
      {
        reportFailure("\(title): \(problem)", at: location)
        return
      }
    }
  }
}

/// One step of a core's story: an event, the state after it, and the decisions it produced.
public struct TraceStep<C: Core> {
  /// The event.
  public var event: C.Event
  /// The state after the event.
  public var state: C.State
  /// The decisions the core returned for the event, in order.
  public var decisions: [C.Decision]

  /// Creates a step.
  public init(event: C.Event, state: C.State, decisions: [C.Decision]) {
    self.event = event
    self.state = state
    self.decisions = decisions
  }
}

extension TraceStep: Equatable where C.Event: Equatable, C.State: Equatable, C.Decision: Equatable {
}

/// Runs events through a core from a state and returns each step: the event, the new state and the
/// decisions.
/// - Parameters:
///   - core: The core.
///   - state: The state before the first event.
///   - events: The events, in order.
/// - Returns: One step per event.
public func replay<C: Core>(
  _ core: C.Type, from state: C.State, events: some Sequence<C.Event>
) -> [TraceStep<C>] {
  var state = state
  return events.map { event in
    let decisions = C.makeDecisions(event: event, state: &state)
    return TraceStep(event: event, state: state, decisions: decisions)
  }
}

extension TraceStep: Sendable where C.State: Sendable, C.Event: Sendable, C.Decision: Sendable {}
