// Comparing a replay with what was recorded. The recording shows what the core did when it ran;
// the replay what today's core does. They differ when the core is not pure, when the recorder
// missed an event, and, most often, when the feature has changed since the recording was made.

extension Replay where C.State: Equatable, C.Decision: Equatable {
  /// Where today's core first disagrees with a recording: the step, the state it was sent in, and
  /// what was recorded next to what the core does now.
  public struct Disagreement {
    /// The step's number, counting from 1.
    public var step: Int
    /// The state the event was sent in: the same in the recording and in the replay, since every
    /// step before agreed.
    public var before: C.State
    /// What the recorder saw: the event, the state after it and the decisions.
    public var recorded: TraceStep<C>
    /// What today's core does with the same event in the same state.
    public var replayed: TraceStep<C>
    /// How many steps the run has.
    public var count: Int
  }

  /// The first step where today's core gives another state or other decisions than the
  /// recording shows, or nil when it agrees with every recorded step or nothing was recorded.
  ///
  /// Only the steps both have are compared: a recording with fewer recorded steps than events is
  /// compared as far as it goes.
  /// - Complexity: O(*n*) comparisons of states and of decision lists.
  public var firstDisagreement: Disagreement? {
    guard let recordedSteps else { return nil }
    for (index, (old, new)) in zip(recordedSteps, steps).enumerated()
    where old.state != new.state || old.decisions != new.decisions {
      return Disagreement(
        step: index + 1, before: state(atStep: index) ?? initialState, recorded: old,
        replayed: new, count: count)
    }
    return nil
  }

  /// What comparing the replay with the recording found, in a sentence or, for a disagreement, a
  /// paragraph with a state diff.
  public var comparison: String {
    if let firstDisagreement { return firstDisagreement.description }
    guard let recordedSteps else {
      return "The recording of \(counted(count, "event")) has no recorded states or decisions to "
        + "compare with: replayed through today's \(typeName(C.self)), it is a story, not a check."
    }
    let compared = min(recordedSteps.count, count)
    return "Today's \(typeName(C.self)) agrees with every recorded step "
      + "(\(counted(compared, "step")) compared)."
  }

  /// Asserts that today's core agrees with every recorded step, failing the test at the first one
  /// that differs with ``Disagreement/description``.
  ///
  /// A replay with no recorded steps passes: there is nothing to compare.
  /// - Parameters:
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func expectMatchesRecording(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let firstDisagreement else { return }
    reportFailure(
      firstDisagreement.description,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension Replay.Disagreement: CustomStringConvertible {
  /// The disagreement, with a diff of the states and the decisions of each.
  ///
  /// The recorded state is on `−` lines, the replayed one on `+` lines:
  ///
  /// ```
  /// Replayed through today's FactLoader, step 3 of 3 disagrees with the recording. The feature
  /// may have changed since the recording was made: the recording shows what the core did then,
  /// the replay what it does now.
  /// Step 3, .failedLoading("timeout"), sent in:
  ///   FactLoader.State(status: .loaded(…), failures: 0)
  /// the state differs from the recorded one (− recorded, + replayed):
  /// …
  /// ```
  public var description: String {
    var lines = [
      "Replayed through today's \(typeName(C.self)), step \(step) of \(count) disagrees with the "
        + "recording. The feature may have changed since the recording was made: the recording "
        + "shows what the core did then, the replay what it does now.",
      "Step \(step), \(describe(recorded.event)), sent in:",
      "  " + describe(before, indent: "  "),
    ]
    if let problem = stateMismatch(
      "the state", expected: recorded.state, actual: replayed.state,
      labels: ("recorded", "replayed"))
    {
      lines.append(problem)
    }
    if recorded.decisions != replayed.decisions {
      lines.append("the decisions differ.")
      lines.append("  Recorded: " + describe(recorded.decisions, indent: "  "))
      lines.append("  Replayed: " + describe(replayed.decisions, indent: "  "))
    }
    return lines.joined(separator: "\n")
  }
}

extension Replay.Disagreement: Sendable
where C.State: Sendable, C.Event: Sendable, C.Decision: Sendable {}
