import Decisions
import Testing

/// A path of events through a core, with the state and decisions the core gives at each step: a
/// model-based test case, as ``Exploration/transitionCoveringPaths()`` generates them.
///
/// Paths are `Sendable` and print as their events, so they can be the arguments of a parameterized
/// Swift Testing test, which then drives a real ``Store`` along each path and checks it against the
/// core with ``expectStoreAgrees(_:journal:fileID:filePath:line:column:)``:
///
/// ```swift
/// @Test(arguments: FactModel.paths)
/// func theStoreFollowsTheCore(path: EventPath<FactFeature>) async {
///   let journal = Journal<FactFeature>(initialState: path.initialState)
///   let store = Store<FactFeature>(
///     state: path.initialState, deps: .waitingForever, diagnostics: journal.record)
///   await path.expectStoreAgrees(store, journal: journal)
/// }
/// ```
public struct EventPath<C: Core> {
  /// The state before the first event.
  public var initialState: C.State
  /// Each event, with the state the core produced and its decisions.
  public var steps: [TraceStep<C>]

  /// Creates a path by sending `events` through the core from `initialState`.
  /// - Parameters:
  ///   - initialState: The state before the first event.
  ///   - events: The events, in order.
  public init(from initialState: C.State, events: [C.Event]) {
    self.initialState = initialState
    self.steps = replay(C.self, from: initialState, events: events)
  }

  /// The events of the path, in order.
  public var events: [C.Event] { steps.map(\.event) }
}

extension EventPath: CustomStringConvertible, CustomTestStringConvertible {
  /// The events, joined by arrows: `.view(.didTapButton) → .model(.failedLoading("x"))`.
  public var description: String {
    steps.isEmpty ? "no events" : steps.map { describeFlat($0.event) }.joined(separator: " → ")
  }

  /// The events, as the test's argument is shown in results.
  public var testDescription: String { description }
}

extension EventPath where C: Feature & SendableMetatype, C.State: Equatable, C.Decision: Equatable {
  /// Sends the path's events to a real store, one at a time, and asserts that the store agrees
  /// with the core: after each event the store's state is the core's, and the journal recorded the
  /// core's decisions.
  ///
  /// Pass the journal that is the store's diagnostics hook. Script the deps so that the work the
  /// decisions start sends no events of its own while the path runs (a fetch that waits until it is
  /// cancelled, for example): the path supplies the results. Events the work sent would show up as
  /// extra steps, and fail.
  /// - Parameters:
  ///   - store: A store that starts from ``initialState``.
  ///   - journal: The store's diagnostics hook.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func expectStoreAgrees(
    _ store: Store<C>,
    journal: Journal<C>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await expectAgrees(
      store, journal: journal,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column),
      states: ==, decisions: ==)
  }
}

extension EventPath where C: Feature {
  #if canImport(Observation)
    /// Sends the path's events to a ``Decisions/MainStore``, one at a time, and asserts that the
    /// store agrees with the core: after each event the store's state is the core's, and the
    /// journal recorded the core's decisions.
    ///
    /// The same check as `expectStoreAgrees(_:journal:…)` on a ``Decisions/Store``, for a feature
    /// that runs on the main actor, such as one written in a module with default main-actor
    /// isolation. Script the deps so that work sends no events of its own while the path runs.
    ///
    /// It compares states and decisions with their types' `Equatable` conformances, found at run
    /// time on the main actor: a main-actor feature's are main-actor isolated, and the compiler
    /// cannot ask for them here (SE-0470). A type that is not `Equatable` fails the test, named.
    /// - Parameters:
    ///   - store: A store that starts from ``initialState``.
    ///   - journal: The store's diagnostics hook.
    ///   - fileID: The caller's file id, for the failure's location.
    ///   - filePath: The caller's file path, for the failure's location.
    ///   - line: The caller's line, for the failure's location.
    ///   - column: The caller's column, for the failure's location.
    @MainActor
    public func expectStoreAgrees(
      _ store: MainStore<C>,
      journal: Journal<C>,
      fileID: StaticString = #fileID,
      filePath: StaticString = #filePath,
      line: UInt = #line,
      column: UInt = #column
    ) async {
      let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
      guard let states = runTimeEquality(of: C.State.self),
        let decisions = runTimeEquality(of: C.Decision.self)
      else {
        reportFailure(
          "expectStoreAgrees compares states and decisions with ==, but \(C.State.self) or "
            + "\(C.Decision.self) is not Equatable.", at: location)
        return
      }
      await expectAgrees(
        store, journal: journal, at: location, states: states, decisions: decisions)
    }
  #endif

  /// Sends each event to `store`, and checks the state after it and, at the end, the decisions
  /// `journal` recorded, against the path's.
  nonisolated(nonsending) fileprivate func expectAgrees(
    _ store: any StoreFacade<C>, journal: Journal<C>, at location: Location,
    states: (C.State, C.State) -> Bool, decisions: (C.Decision, C.Decision) -> Bool
  ) async {
    for (index, step) in steps.enumerated() {
      await store.send(step.event)
      let title = "Step \(index + 1) of \(self), \(describe(step.event))"
      if let problem = stateMismatch(
        "the store's state", expected: step.state, actual: await store.state,
        labels: ("core's", "store's"), by: states)
      {
        reportFailure("\(title): \(problem)", at: location)
        return
      }
    }
    let recorded = journal.steps
    guard recorded.count == steps.count else {
      reportFailure(
        "The store processed \(recorded.count) events along \(self), not \(steps.count): work "
          + "must send no events of its own in a model-based test (script the deps to wait).",
        at: location)
      return
    }
    for (index, (expected, actual)) in zip(steps, recorded).enumerated() {
      if let problem = decisionMismatch(
        expected: expected.decisions, emitted: actual.decisions, .on, by: decisions)
      {
        reportFailure(
          "Step \(index + 1) of \(self), \(describe(expected.event)): the store's \(problem)",
          at: location)
        return
      }
    }
  }
}

extension EventPath: Sendable where C.State: Sendable, C.Event: Sendable, C.Decision: Sendable {}
