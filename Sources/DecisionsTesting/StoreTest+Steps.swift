import Decisions

extension StoreTest where F.State: Equatable, F.Decision: Equatable, F.Event: Equatable {
  /// Sends an event and asserts its step: the decisions it made and the state after it.
  ///
  /// Returns once the store has processed the event (its quick work done, its long work started).
  /// The expected state is written as a change to the state before the event, as in ``CoreTest``;
  /// the step is read from the ``journal``, so later events do not change what is checked. In an
  /// exhaustive test, events that work sent back and the test has not asserted yet fail here: assert
  /// them with ``receive(_:decisions:fileID:filePath:line:column:_:)`` first.
  /// - Parameters:
  ///   - event: The event to send.
  ///   - decisions: The decisions the event must make, in order. Omit it to expect none.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  ///   - update: Changes the state before the event into the expected one. Omit it to expect no
  ///     change.
  nonisolated(nonsending) public func send(
    _ event: F.Event,
    decisions: [F.Decision] = [],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ update: (inout F.State) -> Void = { _ in }
  ) async {
    await sendStep(
      event, decisions: decisions,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column), update,
      equality: .declared)
  }

  /// Asserts the next event that the store processed from its work, with its decisions and the
  /// state after it.
  ///
  /// When the store has already processed the event, `receive` checks it after one hop to the
  /// store, which makes sure the step is recorded whole. Otherwise `receive` settles the store first (see ``Decisions/Store/settle()``): it waits for running work, not for
  /// a ``TestClock`` or a ``ControlledDependency`` call, so advance the clock or answer the call
  /// before receiving what it leads to. In an exhaustive test the event must be the next one
  /// processed; with ``Exhaustivity/off`` the events before it are skipped (see
  /// ``skippedAssertions``).
  /// - Parameters:
  ///   - event: The event the store must have processed next.
  ///   - decisions: The decisions the event must make, in order. Omit it to expect none.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  ///   - update: Changes the state before the event into the expected one. Omit it to expect no
  ///     change.
  nonisolated(nonsending) public func receive(
    _ event: F.Event,
    decisions: [F.Decision] = [],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ update: (inout F.State) -> Void = { _ in }
  ) async {
    await receiveStep(
      event, decisions: decisions,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column), update,
      equality: .declared)
  }

  /// Asserts that the next event the store dropped, because the work that sent it had been
  /// cancelled or had finished, is `event`.
  ///
  /// A dropped event that the test does not expect fails the end-of-test check
  /// ``EndChecks/ignoredEvents``: a stale result arriving after a cancel is often exactly what a
  /// test is about, and it should say so.
  /// - Parameters:
  ///   - event: The event the store dropped.
  ///   - reason: Why: ``Decisions/IgnoredReason/cancelledWork`` unless said otherwise.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  nonisolated(nonsending) public func expectIgnored(
    _ event: F.Event,
    reason: IgnoredReason = .cancelledWork,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await expectIgnoredStep(
      event, reason: reason,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column),
      equality: .declared)
  }

  /// Asserts the store's start step: the state after the core's start (see
  /// ``Decisions/Core/makeStartDecisions(state:)``) and the start decisions, as the first step of
  /// the test.
  ///
  /// ```swift
  /// let test = StoreTest<Screen>(state: .init(), deps: deps)
  /// await test.expectStart(decisions: [.load]) { $0.isLoading = true }
  /// ```
  /// In an exhaustive test, a start that changed the state or made decisions must be asserted
  /// before the first `send` or `receive`; a start that did neither needs no assertion.
  /// - Parameters:
  ///   - decisions: The start decisions, in order. Omit it to expect none.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  ///   - update: Changes the initial state into the expected state after the start. Omit it to
  ///     expect no change.
  nonisolated(nonsending) public func expectStart(
    decisions: [F.Decision] = [],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ update: (inout F.State) -> Void = { _ in }
  ) async {
    await expectStartStep(
      decisions: decisions,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column), update,
      equality: .declared)
  }
}

// MARK: - Main-actor features

// NB: a main-actor feature's `Equatable` conformances are main-actor isolated, and no generic
// signature can ask for them (SE-0470, see `StepEquality`), so the steps above do not apply to it.
// Each step has a twin here, kept public for overload resolution (disfavoured, so that a feature
// whose types are `Equatable` everywhere gets the steps above): it finds the conformances at run
// time on the main actor, or fails naming the type that has none, then runs the same step.
extension StoreTest {
  /// Sends an event and asserts its step, for a main-actor feature: the same step, with the same
  /// failures, as ``send(_:decisions:fileID:filePath:line:column:_:)``.
  @MainActor
  @_disfavoredOverload
  public func send(
    _ event: F.Event,
    decisions: [F.Decision] = [],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ update: (inout F.State) -> Void = { _ in }
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let equality = equalityFoundAtRunTime(at: location) else { return }
    await sendStep(event, decisions: decisions, at: location, update, equality: equality)
  }

  /// Asserts the next event that the store processed from its work, for a main-actor feature: the
  /// same step as ``receive(_:decisions:fileID:filePath:line:column:_:)``.
  @MainActor
  @_disfavoredOverload
  public func receive(
    _ event: F.Event,
    decisions: [F.Decision] = [],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ update: (inout F.State) -> Void = { _ in }
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let equality = equalityFoundAtRunTime(at: location) else { return }
    await receiveStep(event, decisions: decisions, at: location, update, equality: equality)
  }

  /// Asserts the next event that the store dropped, for a main-actor feature: the same step as
  /// ``expectIgnored(_:reason:fileID:filePath:line:column:)``.
  @MainActor
  @_disfavoredOverload
  public func expectIgnored(
    _ event: F.Event,
    reason: IgnoredReason = .cancelledWork,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let equality = equalityFoundAtRunTime(at: location) else { return }
    await expectIgnoredStep(event, reason: reason, at: location, equality: equality)
  }

  /// Asserts the store's start step, for a main-actor feature: the same step as
  /// ``expectStart(decisions:fileID:filePath:line:column:_:)``.
  @MainActor
  @_disfavoredOverload
  public func expectStart(
    decisions: [F.Decision] = [],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ update: (inout F.State) -> Void = { _ in }
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    guard let equality = equalityFoundAtRunTime(at: location) else { return }
    await expectStartStep(decisions: decisions, at: location, update, equality: equality)
  }

  /// Asserts the store's current state, for a main-actor feature: the same check as
  /// ``expectState(_:fileID:filePath:line:column:)``.
  @MainActor
  @_disfavoredOverload
  public func expectState(
    _ expected: F.State,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    guard
      let equal = equalityFoundAtRunTime(of: F.State.self, "expectState compares states", location)
    else { return }
    await expectState(expected, at: location, by: equal)
  }

  /// Asserts exactly which events the store processed since the last check, for a main-actor
  /// feature: the same check as ``expectProcessed(_:fileID:filePath:line:column:)``.
  @MainActor
  @_disfavoredOverload
  public func expectProcessed(
    _ events: [F.Event],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    guard
      let equal = equalityFoundAtRunTime(
        of: F.Event.self, "expectProcessed compares events", location)
    else { return }
    expectProcessed(events, by: equal, at: location)
  }

  /// The `Equatable` conformances of the feature's types, found at run time; nil, after failing
  /// the test, when a type has none.
  private func equalityFoundAtRunTime(at location: Location) -> StepEquality<F>? {
    if let equality = StepEquality<F>.foundAtRunTime() { return equality }
    reportFailure(
      "A StoreTest step compares states, events and decisions with ==, but "
        + StepEquality<F>.typesNotEquatable().joined(separator: ", ")
        + " is not Equatable. Make it Equatable, or send with `send(_:)`, which asserts nothing.",
      at: location)
    return nil
  }

  /// The `Equatable` conformance of `type`, found at run time; nil, after failing the test at
  /// `location` with what `check` compares, when it has none.
  private func equalityFoundAtRunTime<Value>(
    of type: Value.Type, _ check: String, _ location: Location
  ) -> ((Value, Value) -> Bool)? {
    if let equal = runTimeEquality(of: type) { return equal }
    reportFailure(
      "\(check) with ==, but \(String(reflecting: type)) is not Equatable.", at: location)
    return nil
  }
}
extension StoreTest {
  /// Sends an event and asserts its step, comparing with `equality`: see `send(_:decisions:…)`.
  nonisolated(nonsending) func sendStep(
    _ event: F.Event, decisions: [F.Decision], at location: Location,
    _ update: (inout F.State) -> Void, equality: StepEquality<F>
  ) async {
    await turns.enter()
    defer { turns.leave() }
    await underTest.start()
    checkStartAsserted(before: "sending \(describe(event))", at: location, equality.states)
    skipUnasserted(before: "sending \(describe(event))", at: location)
    await underTest.send(event)
    let (steps, start) = reading { ($0.journal.steps, $0.assertedEvents) }
    // NB: work may have sent an event that the store processed just before this one.
    guard let index = steps[start...].firstIndex(where: { equality.events($0.event, event) }) else {
      reportFailure(
        "Sent \(describe(event)), but the store did not process it (was it stopped?).", at: location
      )
      return
    }
    if index > start, exhaustivity == .on {
      reportFailure(
        "The store processed events that work sent before \(describe(event)):\n"
          + steps[start..<index].map { "    " + describe($0.event, indent: "    ") }
          .joined(separator: "\n")
          + "\n  Settle, and receive them, before sending.",
        at: location)
    }
    check(steps, index, "Sent \(describe(event))", decisions, update, at: location, equality)
  }

  /// Asserts the next event work sent, comparing with `equality`: see `receive(_:decisions:…)`.
  nonisolated(nonsending) func receiveStep(
    _ event: F.Event, decisions: [F.Decision], at location: Location,
    _ update: (inout F.State) -> Void, equality: StepEquality<F>
  ) async {
    await turns.enter()
    await underTest.start()
    checkStartAsserted(before: "receiving \(describe(event))", at: location, equality.states)
    // NB: a hop to the store after the event was recorded, and before its step is read: the store
    // records a step within one call on its executor, so the step is then whole.
    if reading({ next(event, in: $0.journal.steps, from: $0.assertedEvents, equality) }) == nil {
      // NB: settling waits for running work, which may wait for what another task's step does.
      turns.leave()
      await underTest.settle()
      await turns.enter()
    } else {
      await hop()
    }
    defer { turns.leave() }
    let (steps, start) = reading { ($0.journal.steps, $0.assertedEvents) }
    guard start < steps.count else {
      reportFailure(
        "Expected to receive \(describe(event)), but the store settled without processing "
          + "another event. Work that waits for the test (a TestClock sleep, a "
          + "ControlledDependency call) goes on only when the test advances the clock or answers.",
        at: location)
      return
    }
    guard let index = next(event, in: steps, from: start, equality) else {
      reportFailure(
        "Expected to receive \(describe(event)), but the store processed other events:\n"
          + steps[start...].map { "    " + describe($0.event, indent: "    ") }
          .joined(separator: "\n"),
        at: location)
      if exhaustivity == .on {
        progress.withLock { $0.assertedEvents = max($0.assertedEvents, start + 1) }
      }
      return
    }
    if index > start {
      let skipped = steps[start..<index].map { describe($0.event) }
      progress.withLock { $0.skipped += skipped.map { "Skipped receiving \($0)" } }
    }
    check(steps, index, "Received \(describe(event))", decisions, update, at: location, equality)
  }

  /// Asserts the next dropped event, comparing with `equality`: see `expectIgnored(_:reason:…)`.
  nonisolated(nonsending) func expectIgnoredStep(
    _ event: F.Event, reason: IgnoredReason, at location: Location, equality: StepEquality<F>
  ) async {
    await turns.enter()
    defer { turns.leave() }
    // NB: takes the next dropped event and counts it as expected, under one lock.
    let takeNext = {
      self.reading { progress -> (event: F.Event, reason: IgnoredReason)? in
        guard progress.expectedIgnored < progress.journal.ignored.count else { return nil }
        defer { progress.expectedIgnored += 1 }
        return progress.journal.ignored[progress.expectedIgnored]
      }
    }
    var next = takeNext()
    if next == nil {
      turns.leave()
      await underTest.settle()
      await turns.enter()
      next = takeNext()
    }
    guard let first = next else {
      reportFailure(
        "Expected the store to drop \(describe(event)) (\(reason)), but it dropped nothing more.",
        at: location)
      return
    }
    guard !equality.events(first.event, event) || first.reason != reason else { return }
    reportFailure(
      "Expected the store to drop \(describe(event)) (\(reason)), but it dropped "
        + "\(describe(first.event)) (\(first.reason)).",
      at: location)
  }

  /// Asserts the store's start, comparing with `equality`: see `expectStart(decisions:…)`.
  nonisolated(nonsending) func expectStartStep(
    decisions: [F.Decision], at location: Location, _ update: (inout F.State) -> Void,
    equality: StepEquality<F>
  ) async {
    await turns.enter()
    defer { turns.leave() }
    await underTest.start()
    progress.withLock { $0.startChecked = true }
    let start = journal.start ?? (journal.initialState, [])
    var expected = exhaustivity == .on ? journal.initialState : start.state
    update(&expected)
    if let problem = stateMismatch(
      "the state", expected: expected, actual: start.state, by: equality.states)
    {
      reportFailure("The store's start: \(problem)", at: location)
    }
    if let problem = decisionMismatch(
      expected: decisions, emitted: start.decisions, exhaustivity, by: equality.decisions)
    {
      reportFailure("The store's start: \(problem)", at: location)
    }
  }

  /// Before the first `send`, `receive` or `expectProcessed`: in an exhaustive test, fails when
  /// the store's start changed the state or made decisions that the test did not assert with
  /// `expectStart`; otherwise notes it as skipped.
  ///
  /// With `isStartWhole` false, the start may still be under way, and a start that has changed
  /// nothing yet is left for the next step or the end to check.
  func checkStartAsserted(
    before action: String, at location: Location, isStartWhole: Bool = true,
    _ statesEqual: (F.State, F.State) -> Bool
  ) {
    // NB: a `Store` made by the synchronous initializer starts in a task of its own, and reports
    // its start decisions one by one as it performs them: `expectProcessed`, which cannot wait
    // for it, may find none yet.
    let changes = unassertedStart(statesEqual)
    let alreadyChecked = progress.withLock { progress in
      defer { if changes != nil || isStartWhole { progress.startChecked = true } }
      return progress.startChecked
    }
    guard !alreadyChecked, let changes else { return }
    if exhaustivity == .on {
      reportFailure(
        "The store's start was not asserted before \(action):\(changes)\n  Assert it with "
          + "expectStart(decisions:) first.",
        at: location)
    } else {
      progress.withLock { $0.skipped.append("Skipped the store's start:\(changes)") }
    }
  }

  // NB: a diff of what the mirrors show is not `==`: a type's `==` may leave a field out
  // (a stack's next id), and a start that changed only that changed nothing.
  /// Whether two states are equal, for a check that has no `Equatable` of the state in its
  /// signature: the state's `==` when it is found here, else the states' diff.
  func statesEqualFoundHere() -> (F.State, F.State) -> Bool {
    runTimeEquality(of: F.State.self) ?? { structuralDiff($0, $1) == nil }
  }

  /// What the store's start changed, as the lines of a failure, when it changed the state or
  /// made decisions; nil when it did neither, or has not run.
  func unassertedStart(_ statesEqual: (F.State, F.State) -> Bool) -> String? {
    guard let start = journal.start,
      !start.decisions.isEmpty || !statesEqual(start.state, journal.initialState)
    else { return nil }
    var changes = ""
    if let problem = stateMismatch(
      "the state", expected: journal.initialState, actual: start.state,
      labels: ("initial", "started"), by: statesEqual)
    {
      changes += "\n  " + problem
    }
    if !start.decisions.isEmpty { changes += "\n  decisions: \(describe(start.decisions))" }
    return changes
  }

  // MARK: - Checking one step

  /// The index of the step to check for `event`: the first unasserted one in an exhaustive test, the
  /// first with that event otherwise.
  private func next(
    _ event: F.Event, in steps: [TraceStep<F>], from start: Int, _ equality: StepEquality<F>
  ) -> Int? {
    guard start < steps.count else { return nil }
    if exhaustivity == .on { return equality.events(steps[start].event, event) ? start : nil }
    return steps[start...].firstIndex { equality.events($0.event, event) }
  }

  /// Checks the step at `index` against the expected decisions and update, and marks it asserted.
  private func check(
    _ steps: [TraceStep<F>], _ index: Int, _ title: String, _ decisions: [F.Decision],
    _ update: (inout F.State) -> Void, at location: Location, _ equality: StepEquality<F>
  ) {
    let step = steps[index]
    let before = index == 0 ? journal.stateBeforeEvents : steps[index - 1].state
    var expected = exhaustivity == .on ? before : step.state
    update(&expected)
    if let problem = stateMismatch(
      "the state", expected: expected, actual: step.state, by: equality.states)
    {
      reportFailure("\(title): \(problem)", at: location)
    }
    if let problem = decisionMismatch(
      expected: decisions, emitted: step.decisions, exhaustivity, by: equality.decisions)
    {
      reportFailure("\(title): \(problem)", at: location)
    }
    if exhaustivity == .off {
      // NB: what an exhaustive check would have asked for, for `skippedAssertions`.
      var exhaustive = before
      update(&exhaustive)
      var skipped: [String] = []
      if let changes = stateMismatch(
        "the state", expected: exhaustive, actual: step.state,
        labels: ("asserted", "actual"), by: equality.states)
      {
        skipped.append("\(title): \(changes)")
      }
      if !decisions.elementsEqual(step.decisions, by: equality.decisions) {
        skipped.append("\(title): decisions not listed: \(describe(step.decisions))")
      }
      progress.withLock { $0.skipped += skipped }
    }
    progress.withLock { $0.assertedEvents = max($0.assertedEvents, index + 1) }
  }

  /// Before sending: in an exhaustive test, fails for events work sent that are not asserted yet,
  /// and marks them asserted so that one mistake fails once; otherwise notes them as skipped.
  private func skipUnasserted(before action: String, at location: Location) {
    let unasserted = reading { progress in
      let steps = progress.journal.steps
      defer { progress.assertedEvents = steps.count }
      progress.journal.visited += steps.count - progress.assertedEvents
      return steps[progress.assertedEvents...].map(\.event)
    }
    guard !unasserted.isEmpty else { return }
    if exhaustivity == .on {
      reportFailure(
        "The store processed \(unasserted.count) \(unasserted.count == 1 ? "event" : "events") "
          + "that the test did not receive before \(action):\n"
          + unasserted.map { "    " + describe($0, indent: "    ") }.joined(separator: "\n")
          + "\n  Assert each with receive, in order.",
        at: location)
    } else {
      progress.withLock { $0.skipped += unasserted.map { "Skipped receiving \(describe($0))" } }
    }
  }
}

extension StoreTest {
  /// Asserts that the store has processed no event since the last one the test asserted: for the
  /// moment just before a deadline, when nothing may have happened yet.
  ///
  /// ```swift
  /// await clock.advance(by: .milliseconds(299))
  /// await test.expectNoNewEvents()  // the quiet period has not ended
  /// ```
  ///
  /// The events it finds fail the test, and count as asserted, so one mistake fails once.
  /// - Parameters:
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  nonisolated(nonsending) public func expectNoNewEvents(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await turns.enter()
    defer { turns.leave() }
    // NB: one hop to the store first, so that an event it is processing now is counted.
    await hop()
    let new = reading { progress in
      let steps = progress.journal.steps
      defer { progress.assertedEvents = steps.count }
      return steps[progress.assertedEvents...].map(\.event)
    }
    guard !new.isEmpty else { return }
    reportFailure(
      "Expected no new events, but the store processed \(new.count) since the last one asserted:\n"
        + new.map { "    " + describe($0, indent: "    ") }.joined(separator: "\n"),
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension StoreTest where F.State: Equatable {
  /// Asserts the store's current state, failing with a structural diff if it differs.
  /// - Parameters:
  ///   - expected: The state the store must have.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  nonisolated(nonsending) public func expectState(
    _ expected: F.State,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await expectState(
      expected, at: Location(fileID: fileID, filePath: filePath, line: line, column: column),
      by: ==)
  }
}

extension StoreTest where F.Event: Equatable {
  /// Asserts exactly which events the store processed since the last check, in order, without
  /// checking their steps; they count as asserted.
  ///
  /// Each call checks only the events processed after those already asserted, by this method or by
  /// `send` and `receive`, so a test can walk a story: send, settle, expect the events, send again.
  /// - Parameters:
  ///   - events: The events the store must have processed since the last check, in order.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func expectProcessed(
    _ events: [F.Event],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    expectProcessed(
      events, by: ==,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension StoreTest {
  /// Checks the store's current state against `expected`, compared with `equal`.
  nonisolated(nonsending) func expectState(
    _ expected: F.State, at location: Location, by equal: (F.State, F.State) -> Bool
  ) async {
    let actual = await underTest.state
    guard
      let problem = stateMismatch(
        "The store's state", expected: expected, actual: actual, by: equal)
    else { return }
    reportFailure(problem, at: location)
  }

  /// Checks the events processed since the last check against `events`, compared with `equal`.
  func expectProcessed(
    _ events: [F.Event], by equal: (F.Event, F.Event) -> Bool, at location: Location
  ) {
    checkStartAsserted(
      before: "checking the processed events", at: location, isStartWhole: false,
      statesEqualFoundHere())
    let processed = reading { progress in
      let steps = progress.journal.steps
      defer { progress.assertedEvents = steps.count }
      return steps[progress.assertedEvents...].map(\.event)
    }
    guard !processed.elementsEqual(events, by: equal) else { return }
    reportFailure(
      """
      The store processed other events than expected since the last check.
        Expected:  \(describe(events, indent: "  "))
        Processed: \(describe(processed, indent: "  "))
      """,
      at: location)
  }
}
