// Checks over an explored graph. Each fails the test once, at the caller's line, for the offending
// state nearest the initial state, and prints the shortest story to it as a `CoreTest`.

extension Exploration {
  /// Asserts that every explored state satisfies `holds`.
  ///
  /// On failure, the message names the invariant and the first state found that breaks it, which
  /// is one of the nearest to the initial state, and gives the shortest story to it:
  ///
  /// ```
  /// The invariant "a failure never leaves the screen loading" does not hold in a state reached in 2 steps:
  ///   .loading(previous: nil)
  /// The shortest story to it, as a CoreTest:
  ///
  /// var test = CoreTest<FactFeature>(state: .idle)
  /// test.send(.view(.didTapButton), decisions: [.track(.view(.didTapButton)), .load]) {
  ///   $0 = .loading(previous: nil)
  /// }
  /// ```
  /// - Parameters:
  ///   - name: What the invariant says, for the message.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  ///   - holds: Whether a state satisfies the invariant.
  public func expectInvariant(
    _ name: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ holds: (C.State) -> Bool
  ) {
    guard let number = states.indices.first(where: { !holds(states[$0]) }) else { return }
    reportFailure(
      """
      The invariant "\(name)" does not hold in \(whereabouts(number)):
        \(describe(states[number], indent: "  "))
      \(storyParagraph(shortestPath(to: number)))
      """,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that every explored transition satisfies `holds`: a rule about what an event may do,
  /// such as "a result that arrives when nothing is loading changes nothing".
  ///
  /// The step it sees is the core's own: `after` is the state the core produced, even when the
  /// exploration keeps another state with the same key. On failure, the message shows the step and
  /// the shortest story that ends with it.
  /// - Parameters:
  ///   - name: What the invariant says, for the message.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  ///   - holds: Whether a step satisfies the invariant.
  public func expectTransitionInvariant(
    _ name: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ holds: (Step) -> Bool
  ) {
    for index in transitions.indices {
      let step = step(index)
      guard !holds(step) else { continue }
      let transition = transitions[index]
      reportFailure(
        """
        The transition invariant "\(name)" does not hold for \(describe(step.event)) in \
        \(whereabouts(transition.from)):
          before:    \(describe(step.before, indent: "             "))
          after:     \(describe(step.after, indent: "             "))
          decisions: \(describe(step.decisions, indent: "             "))
        \(storyParagraph(shortestPath(to: transition.from) + [transition], lastStep: "its last step breaks the invariant"))
        """,
        at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
      return
    }
  }

  /// Asserts that some explored state satisfies `goal`: that the feature can get there at all.
  ///
  /// When the search was cut by a limit, the message says so: a state beyond the limit may satisfy
  /// the goal.
  /// - Parameters:
  ///   - goal: What the state is, for the message: "a loaded fact".
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  ///   - isGoal: Whether a state is one the feature must be able to reach.
  /// - Returns: The number of the nearest state that satisfies the goal, or nil.
  @discardableResult
  public func expectReachable(
    _ goal: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ isGoal: (C.State) -> Bool
  ) -> Int? {
    if let number = states.indices.first(where: { isGoal(states[$0]) }) { return number }
    reportFailure(
      "No state that is \"\(goal)\" is reachable: none of the \(states.count) explored states is."
        + cutNote(" A state beyond it may be."),
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
    return nil
  }

  /// Asserts that from every explored state, some state that satisfies `goal` can be reached:
  /// that the feature can never get stuck away from it (as in "a failure never leaves the screen
  /// stuck loading": from every state, a state that is not loading is reachable).
  ///
  /// A state the search did not finish expanding (cut by a limit) counts as able to reach the goal,
  /// since what lies beyond it is unknown; so a cut search can miss a stuck state, but never
  /// reports a false one. On failure, the message shows the nearest stuck state, how many states
  /// can be reached from it, and the shortest story to it.
  /// - Parameters:
  ///   - goal: What the state is, for the message: "not loading".
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  ///   - isGoal: Whether a state is one the feature must always be able to get back to.
  public func expectAlwaysCanReach(
    _ goal: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ isGoal: (C.State) -> Bool
  ) {
    // Backward search from the goal states (and the unfinished ones) over reversed transitions.
    var incoming = [[Int]](repeating: [], count: states.count)
    for transition in transitions where transition.from != transition.to {
      incoming[transition.to].append(transition.from)
    }
    var canReach = states.indices.map { isGoal(states[$0]) || !isExpanded[$0] }
    var pending = states.indices.filter { canReach[$0] }
    while let number = pending.popLast() {
      for from in incoming[number] where !canReach[from] {
        canReach[from] = true
        pending.append(from)
      }
    }
    guard let stuck = canReach.firstIndex(of: false) else { return }
    let onward = reachable(from: stuck).count - 1
    reportFailure(
      """
      From \(whereabouts(stuck)), no state that is "\(goal)" can be reached \
      (it reaches \(onward) other state\(onward == 1 ? "" : "s"), none of them "\(goal)"):
        \(describe(states[stuck], indent: "  "))
      \(storyParagraph(shortestPath(to: stuck)))
      """,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the search explored every reachable state: that no limit cut it.
  /// - Parameters:
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func expectComplete(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let limitReached else { return }
    reportFailure(
      "The exploration of \(typeName(C.self)) was cut by \(limitReached) after "
        + "\(states.count) states and \(transitions.count) transitions. Raise the limit, or pass a "
        + "key that leaves out what grows without bound.",
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The numbers of the states reachable from `start`, itself included.
  func reachable(from start: Int) -> [Int] {
    var seen = [Bool](repeating: false, count: states.count)
    var order = [start]
    seen[start] = true
    var next = 0
    while next < order.count {
      for transition in transitions(from: order[next]) where !seen[transition.to] {
        seen[transition.to] = true
        order.append(transition.to)
      }
      next += 1
    }
    return order
  }

  /// A sentence saying which limit cut the search, followed by `consequence`, or "" if none did.
  func cutNote(_ consequence: String) -> String {
    limitReached.map { " The search was cut by \($0).\(consequence)" } ?? ""
  }
}

extension Exploration where C.Decision: Equatable {
  /// Asserts that the core is deterministic over the explored graph: that sending each explored
  /// event again in its state gives a state with the same key and the same decisions.
  ///
  /// A core that reads a clock, a random number or a global variable fails it, with the first
  /// transition that gave two answers and the shortest story that ends with it.
  /// - Parameters:
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func expectDeterministic(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    for (index, transition) in transitions.enumerated() {
      let again = step(index)
      let sameState = numbers[key(again.after)] == transition.to
      let sameDecisions = again.decisions == transition.decisions
      guard !sameState || !sameDecisions else { continue }
      var lines = [
        "The core is not deterministic: \(describe(transition.event)) in "
          + "\(whereabouts(transition.from)) gave another result when sent again."
      ]
      if !sameState {
        lines.append(
          "  first:  " + describe(states[transition.to], indent: "          "))
        lines.append("  again:  " + describe(again.after, indent: "          "))
      }
      if !sameDecisions {
        lines.append("  first decisions:  " + describe(transition.decisions, indent: "  "))
        lines.append("  again decisions:  " + describe(again.decisions, indent: "  "))
      }
      lines.append(
        storyParagraph(
          shortestPath(to: transition.from) + [transition],
          lastStep: "its last step is the one that changed"))
      reportFailure(
        lines.joined(separator: "\n"),
        at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
      return
    }
  }
}
