extension Exploration {
  /// Which explored transitions a set of tests sends: the answer to "what do our core tests leave
  /// untested?".
  public struct Coverage: Sendable, CustomStringConvertible {
    /// The numbers (in ``Exploration/transitions``) of the transitions the tests sent.
    public var covered: [Int]
    /// The numbers of the transitions no test sent, in the order they were explored.
    public var uncovered: [Int]
    /// How many steps the tests sent from states the exploration did not reach (or did not keep).
    public var outside: Int
    /// The report, one line per transition not covered.
    public var description: String

    /// The share of explored transitions covered, from 0 to 1.
    public var fraction: Double {
      let total = covered.count + uncovered.count
      return total == 0 ? 1 : Double(covered.count) / Double(total)
    }
  }
}

extension Exploration where C.Event: Equatable {
  /// The explored transitions that the ``CoreTest`` steps of a recording sent.
  ///
  /// A step covers the transition that leaves the explored state with the key of the step's
  /// starting state, on an equal event. Steps of other cores are ignored.
  /// - Parameter recording: Steps recorded by ``recordingCoreTests(_:)``.
  /// - Returns: The covered and uncovered transitions, and a report.
  public func coverage(of recording: CoreTestRecording) -> Coverage {
    let core = ObjectIdentifier(C.self)
    let steps = recording.steps.compactMap { step -> (C.State, C.Event)? in
      guard step.core == core, let before = step.before as? C.State,
        let event = step.event as? C.Event
      else { return nil }
      return (before, event)
    }
    return coverage(ofSteps: steps)
  }

  /// The explored transitions that stories of events sent from the initial state cover.
  /// - Parameter stories: Lists of events, each sent from the initial state.
  /// - Returns: The covered and uncovered transitions, and a report.
  public func coverage(ofStories stories: [[C.Event]]) -> Coverage {
    var steps: [(C.State, C.Event)] = []
    for story in stories {
      var state = initialState
      for event in story {
        steps.append((state, event))
        _ = C.makeDecisions(event: event, state: &state)
      }
    }
    return coverage(ofSteps: steps)
  }

  private func coverage(ofSteps steps: [(C.State, C.Event)]) -> Coverage {
    var isCovered = [Bool](repeating: false, count: transitions.count)
    var outside = 0
    for (before, event) in steps {
      guard let from = number(of: before),
        let index = outgoing[from].first(where: { transitions[$0].event == event })
      else {
        outside += 1
        continue
      }
      isCovered[index] = true
    }
    let covered = transitions.indices.filter { isCovered[$0] }
    let uncovered = transitions.indices.filter { !isCovered[$0] }
    var lines = [
      "\(covered.count) of \(transitions.count) transitions of \(typeName(C.self)) covered"
        + (outside > 0 ? " (\(outside) steps from states outside the exploration)" : "")
        + (uncovered.isEmpty ? "." : "; not covered:")
    ]
    for index in uncovered {
      let transition = transitions[index]
      lines.append(
        "  in \(describeFlat(states[transition.from])): \(defaultLabel(transition))")
    }
    return Coverage(
      covered: covered, uncovered: uncovered, outside: outside,
      description: lines.joined(separator: "\n"))
  }
}
