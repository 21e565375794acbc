// Checks over an explored feature. Each fails the test once, at the caller's line, for the
// offending state nearest the start, and prints the shortest path to it: the events, answers and
// deadlines in order.

extension FeatureExploration {
  /// Asserts that every explored state satisfies `holds`: a rule over the core's state and the
  /// work in flight together, such as "no two searches in flight" or "when no search is in
  /// flight, the results are for the query shown".
  ///
  /// On failure, the message names the rule, shows the first state found that breaks it, which is
  /// one of the nearest to the start, and the shortest path to it:
  ///
  /// ```
  /// The invariant "idle results are for the query" does not hold in a state reached in 6 steps:
  ///   state: State(query: "sw", results: ["result"], resultsQuery: "s")
  ///   work:  none
  /// The shortest path to it:
  ///   1. send .queryChanged("s")
  ///   2. the clock advances by 0.3 seconds
  ///   3. send .queryChanged("sw")
  ///   4. the clock advances by 0.3 seconds
  ///   5. search("sw") answers value(["result"])
  ///   6. search("s") answers value(["result"])
  /// ```
  ///
  /// The store test the message prints ends with a comment where the rule breaks: to have it
  /// check the rule there, declare the rule as an ``ExplorationRule`` and pass that.
  /// - Parameters:
  ///   - name: What the invariant says, for the message.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  ///   - holds: Whether an explored state satisfies the invariant.
  public func expectInvariant(
    _ name: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ holds: (Snapshot) -> Bool
  ) {
    withoutActuallyEscaping(holds) { holds in
      expectInvariant(
        ExplorationRule(unnamed: name, holds), fileID: fileID, filePath: filePath, line: line,
        column: column)
    }
  }

  /// Asserts that every explored state keeps `rule`; the printed store test of a state that
  /// breaks it ends with the rule's check, so that it fails as printed.
  ///
  /// ```swift
  /// exploration.expectInvariant(.idleResultsMatchTheQuery)
  /// ```
  ///
  /// The message is that of ``expectInvariant(_:fileID:filePath:line:column:_:)``. Its store
  /// test ends with `await test.expect(.idleResultsMatchTheQuery, effects: effects)` when the
  /// rule is a static property of ``ExplorationRule``.
  /// - Parameters:
  ///   - rule: The invariant.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func expectInvariant(
    _ rule: ExplorationRule<F>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard let number = snapshots.indices.first(where: { !rule.holds(in: snapshots[$0]) }) else {
      return
    }
    reportFailure(
      """
      The invariant "\(rule.name)" does not hold in \(whereabouts(number)):
      \(describe(number))
      The shortest path to it:
      \(path(to: number))
      """ + storeTestParagraph(pathIndices(to: number), endingWith: rule.printedCheck),
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the search explored every reachable state, and that no work waited for
  /// something the explorer does not control.
  ///
  /// The search also stops early, and this check says why, when work never waits (it ran
  /// 100,000 jobs in one step), or when work piles up: a state with 256 pieces of work in flight,
  /// or work the explorer does not control left running by 256 returns to a state. And it
  /// reports a state it could not return to: work that keeps a value to itself made the steps to
  /// it end elsewhere when taken again, so its other choices were not explored.
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
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    if let stopped {
      reportFailure(
        "The exploration of \(typeName(F.self)) stopped early. \(stopped)", at: location)
    }
    if let limitReached {
      reportFailure(
        "The exploration of \(typeName(F.self)) was cut by \(limitReached) after "
          + "\(snapshots.count) states and \(transitions.count) transitions (\(stepsRun) steps "
          + "run). \(whatGrows()) Raise the limit, or give fewer events.",
        at: location)
    }
    if let number = statesNotReturnedTo.first {
      reportFailure(
        """
        The explorer could not return to \(whereabouts(number)) to take its other choices: \
        taken again, the steps to it end elsewhere. Some work keeps a value to itself that \
        neither the state nor what the work waits for shows (its tries, a value its decision \
        gave it), or the feature reads one from outside (a global, a real clock). Put that \
        value in the state, or in the arguments of what the work waits for:
        \(describe(number))
        The shortest path to it:
        \(path(to: number))
        """,
        at: location)
    }
    if let number = statesWithUncontrolledWork.first {
      reportFailure(
        """
        In \(whereabouts(number)), work waits for something the explorer does not control, so \
        what it does next was not explored. Build that dependency with \
        ExploredEffects.dependency, and give the feature ExploredEffects.clock; in a main-actor \
        feature, read main-actor values (a static, a global) before effects.run, since work \
        that awaits the main actor waits for the exploration:
        \(describe(number))
        The shortest path to it:
        \(path(to: number))
        """,
        at: location)
    }
  }

  /// Asserts that no explored step made the store report a problem: work that failed with an
  /// error that no `catch:` handler turned into an event (a failure the feature never hears of),
  /// or work started in a child's scope that no declaration of ``Feature/childWork`` covers.
  ///
  /// On failure, the message shows the report and the shortest path to the step that made it.
  /// - Parameters:
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func expectNoUnhandledErrors(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    guard
      let (index, reports) = problems.min(by: {
        depth(of: transitions[$0.transition].from) < depth(of: transitions[$1.transition].from)
      })
    else { return }
    let transition = transitions[index]
    reportFailure(
      """
      \(reports.joined(separator: "\n"))
      The shortest path to it (its last step made the report):
      \(path(of: shortestPath(to: transition.from) + [transition]))
      """
        // NB: the test's end checks report the failure that no handler took: `finish()` settles
        // first, so the report is there when it checks.
        + storeTestParagraph(
          pathIndices(to: transition.from) + [index], endingWith: "await test.finish()"),
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// The part of a message that gives a path as a store test, or "" without a printer.
  /// - Parameters:
  ///   - indices: The path, as indices into ``transitions``.
  ///   - check: The test's last line, which checks the broken rule, if any.
  /// - Returns: The paragraph, which begins with an empty line.
  func storeTestParagraph(_ indices: [Int], endingWith check: String? = nil) -> String {
    guard let printer else { return "" }
    let test = printer(indices)
    guard !test.isEmpty else { return "" }
    return """

      The same path as a StoreTest, for an `async throws` test (`deps` is the function given \
      to explore's deps:):

      \(test)\(check.map { "\n" + $0 } ?? "")
      """
  }

  /// "the start", or "a state reached in 3 steps".
  func whereabouts(_ number: Int) -> String {
    switch depth(of: number) {
    case 0: "the state after the start"
    case 1: "a state reached in 1 step"
    case let steps: "a state reached in \(steps) steps"
    }
  }

  // NB: a newcomer's search ran into its limit for minutes, with work piling up that the message
  // did not name.
  /// Where the states of a search cut by a limit grow: its deepest state, and the state with the
  /// most work in flight when that is more than one piece, with the usual causes.
  func whatGrows() -> String {
    let deepest = snapshots.indices.map(depth(of:)).max() ?? 0
    var text = "Its deepest state is \(deepest) steps from the start. "
    if let busiest = snapshots.indices.max(by: {
      snapshots[$0].work.count < snapshots[$1].work.count
    }), snapshots[busiest].work.count > 1 {
      text +=
        "The most work in flight in one state is \(snapshots[busiest].work.count) pieces, in "
        + "\(whereabouts(busiest)):\n\(describe(busiest))\n"
    }
    return text
      + "What grows without bound keeps a search from ending: work that piles up (start one at "
      + "a time), or a value such as a count (leave it out with explore's key:)."
  }

  /// State `number`'s core state and work, two indented lines.
  func describe(_ number: Int) -> String {
    snapshots[number].description.split(separator: "\n", omittingEmptySubsequences: false)
      .map { "  " + $0 }.joined(separator: "\n")
  }

  /// The shortest path to state `number`, one numbered line per step.
  func path(to number: Int) -> String {
    path(of: shortestPath(to: number))
  }

  /// A path, one numbered line per step, counting from `first`.
  func path(of steps: [Transition], from first: Int = 1) -> String {
    guard !steps.isEmpty else { return "  (none: it is the state after the start)" }
    return steps.enumerated().map { index, transition in
      "  \(index + first). \(describe(transition))"
    }.joined(separator: "\n")
  }

  // NB: a newcomer read `fetch(1) answers …` where two pieces of work waited for `fetch(1)`, and
  // had to work out from the states which one it was.
  /// A transition as the paths print it: an answer to one of two equal calls names its work,
  /// `fetch(1) of "b" answers value("text")`, when the states tell which it was.
  func describe(_ transition: Transition) -> String {
    guard case .answer(let dependency, let arguments, let answer) = transition.choice,
      snapshots.indices.contains(transition.to)
    else { return Self.describe(transition.choice) }
    let wait = ExploredWork.Wait.answer(dependency: dependency, arguments: arguments)
    let waiting = snapshots[transition.from].work.filter { $0.waitsFor == wait }
    let after = snapshots[transition.to].work
    let answered = waiting.filter { work in
      !after.contains { $0.id == work.id && $0.scope == work.scope && $0.waitsFor == wait }
    }
    guard waiting.count > 1, answered.count == 1, let id = answered[0].id else {
      return Self.describe(transition.choice)
    }
    return "\(dependency)(\(arguments)) of \(String(reflecting: id.base)) answers \(answer)"
  }

  /// A step as the paths print it.
  static func describe(_ choice: Choice) -> String {
    switch choice {
    case .event(let event):
      "send \(DecisionsTesting.describe(event))"
    case .answer(let dependency, let arguments, let answer):
      "\(dependency)(\(arguments)) answers \(answer)"
    case .clock(let duration):
      "the clock advances by \(duration)"
    }
  }
}
