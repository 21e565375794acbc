/// How strictly a ``CoreTest`` checks each step.
public enum Exhaustivity: Sendable, Hashable {
  /// Every emitted decision must be listed, in order, and the whole new state must match. The default.
  case on
  /// Listed decisions must appear in the order listed among the emitted ones, and the new state must
  /// agree with what the update closure sets. Anything else is not checked.
  ///
  /// The update closure runs on the state the core produced, so it must *set* values
  /// (`$0.count = 2`), not change them relative to what they were (`$0.count += 1` would add twice).
  case off
}

/// Walks a core through a story of events, asserting each step's exact new state and decisions.
///
/// Each ``send(_:decisions:fileID:filePath:line:column:_:)`` runs the core once, from the state the
/// previous step left, and fails the test — under Swift Testing or XCTest, at the caller's line — if
/// the new state or the decisions differ from the expected ones. The expected state is written as a
/// change to the previous state, so a step lists only what changed:
///
/// ```swift
/// var test = CoreTest<FactFeature>(state: .idle)
/// test.send(.view(.didTapButton), decisions: [.track(.view(.didTapButton)), .load]) {
///   $0 = .loading
/// }
/// test.send(.model(.finishLoading(Fact(text: "hi"))), decisions: [.log("hi")]) {
///   $0 = .loaded("hi")
/// }
/// ```
///
/// Checks are exhaustive unless the test asks otherwise with ``Exhaustivity/off``: an emitted decision
/// that is not listed, a listed one that is not emitted, and a different order all fail, with a
/// message that names the step, its event and the decisions:
///
/// ```
/// Step 2, .model(.finishLoading(Fact(text: "hi"))): the decisions differ.
///   Emitted but not expected:
///     .log("hi")
///   Expected but not emitted:
///     .log("hello")
/// ```
///
/// A state that differs fails with a structural diff of the expected (`−`) and actual (`+`) states.
public struct CoreTest<C: Core> where C.State: Equatable, C.Decision: Equatable {
  /// The state after the last step: the starting point of the next one.
  public private(set) var state: C.State
  /// How strictly each step is checked.
  public let exhaustivity: Exhaustivity
  /// How many steps have been sent.
  public private(set) var step = 0

  /// Starts a story from `state`.
  /// - Parameters:
  ///   - core: The core under test; inferred from the type when omitted.
  ///   - state: The state before the first event.
  ///   - exhaustivity: How strictly steps are checked; exhaustive unless set to ``Exhaustivity/off``.
  public init(_ core: C.Type = C.self, state: C.State, exhaustivity: Exhaustivity = .on) {
    self.state = state
    self.exhaustivity = exhaustivity
  }

  /// Sends one event through the core and asserts the new state and the decisions.
  ///
  /// The test goes on from the state the core actually produced, so one wrong step fails once.
  /// - Parameters:
  ///   - event: The event to send.
  ///   - decisions: The decisions the core must return, in order. Omit it to expect none.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  ///   - update: Changes the previous state into the expected one. Omit it to expect no change.
  /// - Returns: The decisions the core returned.
  @discardableResult
  public mutating func send(
    _ event: C.Event,
    decisions: [C.Decision] = [],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ update: (inout C.State) -> Void = { _ in }
  ) -> [C.Decision] {
    step += 1
    CoreTestRecording.record(C.self, before: state, event: event)
    var actual = state
    let emitted = C.makeDecisions(event: event, state: &actual)
    return check(
      actual, emitted, "Step \(step), \(describe(event))", decisions, update,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs the core's start (``Decisions/Core/makeStartDecisions(state:)``) on the test's state and
  /// asserts the new state and the start decisions, like a step.
  ///
  /// ```swift
  /// var test = CoreTest<Screen>(state: .init())
  /// test.start(decisions: [.load]) { $0.isLoading = true }
  /// test.send(.loaded("hi")) { ... }
  /// ```
  /// - Parameters:
  ///   - decisions: The decisions the core's start must return, in order. Omit it to expect none.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  ///   - update: Changes the previous state into the expected one. Omit it to expect no change.
  /// - Returns: The decisions the core's start returned.
  @discardableResult
  public mutating func start(
    decisions: [C.Decision] = [],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ update: (inout C.State) -> Void = { _ in }
  ) -> [C.Decision] {
    step += 1
    var actual = state
    let emitted = C.makeStartDecisions(state: &actual)
    return check(
      actual, emitted, "Step \(step), the start", decisions, update,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Checks a step's state and decisions, and goes on from the actual state.
  private mutating func check(
    _ actual: C.State, _ emitted: [C.Decision], _ title: String, _ decisions: [C.Decision],
    _ update: (inout C.State) -> Void, at location: Location
  ) -> [C.Decision] {
    // NB: in non-exhaustive mode the update is applied to the actual state: it then changes nothing
    // exactly when everything it sets agrees with what the core produced.
    var expected = exhaustivity == .on ? state : actual
    update(&expected)
    if let problem = stateMismatch("the state", expected: expected, actual: actual) {
      reportFailure("\(title): \(problem)", at: location)
    }
    if let problem = decisionMismatch(expected: decisions, emitted: emitted, exhaustivity) {
      reportFailure("\(title): \(problem)", at: location)
    }
    state = actual
    return emitted
  }
}

/// Asserts one step of a core: from `state`, on `event`, the new state and the exact decisions.
///
/// The one-call form of ``CoreTest``:
/// ```swift
/// expectStep(FactFeature.self, from: .idle, on: .view(.didTapButton), decisions: [.load]) {
///   $0 = .loading
/// }
/// ```
/// - Parameters:
///   - core: The core under test.
///   - state: The state before the event.
///   - event: The event.
///   - decisions: The decisions the core must return, in order. Omit it to expect none.
///   - exhaustivity: How strictly the step is checked; exhaustive unless set to ``Exhaustivity/off``.
///   - fileID: The caller's file id, for the failure's location.
///   - filePath: The caller's file path, for the failure's location.
///   - line: The caller's line, for the failure's location.
///   - column: The caller's column, for the failure's location.
///   - update: Changes `state` into the expected new state. Omit it to expect no change.
/// - Returns: The state the core produced.
@discardableResult
public func expectStep<C: Core>(
  _ core: C.Type,
  from state: C.State,
  on event: C.Event,
  decisions: [C.Decision] = [],
  exhaustivity: Exhaustivity = .on,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column,
  _ update: (inout C.State) -> Void = { _ in }
) -> C.State where C.State: Equatable, C.Decision: Equatable {
  var test = CoreTest(core, state: state, exhaustivity: exhaustivity)
  test.send(
    event, decisions: decisions, fileID: fileID, filePath: filePath, line: line, column: column,
    update)
  return test.state
}

// MARK: - Comparing decisions

/// Describes how emitted decisions differ from the expected ones, or returns nil when they agree.
func decisionMismatch<Decision: Equatable>(
  expected: [Decision], emitted: [Decision], _ exhaustivity: Exhaustivity
) -> String? {
  decisionMismatch(expected: expected, emitted: emitted, exhaustivity, by: ==)
}

/// Describes how emitted decisions differ from the expected ones, compared with `equal`, or returns
/// nil when they agree.
func decisionMismatch<Decision>(
  expected: [Decision], emitted: [Decision], _ exhaustivity: Exhaustivity,
  by equal: (Decision, Decision) -> Bool
) -> String? {
  switch exhaustivity {
  case .on:
    guard !expected.elementsEqual(emitted, by: equal) else { return nil }
    let (unexpected, missing) = unmatched(expected: expected, emitted: emitted, by: equal)
    var lines = ["the decisions differ."]
    if !unexpected.isEmpty {
      lines.append("  Emitted but not expected:")
      lines += unexpected.map { "    " + describe($0, indent: "    ") }
    }
    if !missing.isEmpty {
      lines.append("  Expected but not emitted:")
      lines += missing.map { "    " + describe($0, indent: "    ") }
    }
    if unexpected.isEmpty && missing.isEmpty {
      lines[0] = "the decisions are right but their order is not."
    }
    lines.append("  Expected: " + describe(expected, indent: "  "))
    lines.append("  Emitted:  " + describe(emitted, indent: "  "))
    return lines.joined(separator: "\n")
  case .off:
    var remaining = emitted[...]
    for decision in expected {
      guard let index = remaining.firstIndex(where: { equal($0, decision) }) else {
        return """
          the decision \(describe(decision)) was not emitted \
          (in the order listed, among the emitted ones).
            Emitted: \(describe(emitted, indent: "  "))
          """
      }
      remaining = remaining[(index + 1)...]
    }
    return nil
  }
}

/// Splits two lists into what only `emitted` has and what only `expected` has, counting repeats.
private func unmatched<Decision>(
  expected: [Decision], emitted: [Decision], by equal: (Decision, Decision) -> Bool
) -> (unexpected: [Decision], missing: [Decision]) {
  var missing = expected
  var unexpected: [Decision] = []
  for decision in emitted {
    if let index = missing.firstIndex(where: { equal($0, decision) }) {
      missing.remove(at: index)
    } else {
      unexpected.append(decision)
    }
  }
  return (unexpected, missing)
}
