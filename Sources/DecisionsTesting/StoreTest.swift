import Decisions

/// Drives a real ``Decisions/Store`` or ``Decisions/MainStore`` in a test and asserts every step it
/// takes, like ``CoreTest`` does for a core: each event sent and each event its work sends back, with
/// its decisions and a structural diff of the state — with no expectations and no sleeps.
///
/// ```swift
/// let test = StoreTest<FactFeature>(state: .idle, deps: .init(loadFact: { Fact(text: "hi") }, /* … */))
/// await test.send(.view(.didTapButton), decisions: [.track(.view(.didTapButton)), .load]) {
///   $0 = .loading
/// }
/// await test.receive(.model(.finishLoading(Fact(text: "hi"))), decisions: [.log("hi")]) {
///   $0 = .loaded("hi")
/// }
/// await test.finish()
/// ```
///
/// **Exhaustive by default.** Every event the store processes must be asserted, in order: the ones
/// the test sends with ``send(_:decisions:fileID:filePath:line:column:_:)``, and the ones work sends
/// back with ``receive(_:decisions:fileID:filePath:line:column:_:)``. Sending while an event that
/// work sent is still unasserted fails, naming it, and so does receiving events in another order.
/// With ``Exhaustivity/off`` a step checks only what the test lists, `receive` skips the events
/// before the one it names, and ``skippedAssertions`` says what was not checked.
///
/// **End-of-test checks.** ``finish(fileID:filePath:line:column:)`` settles the store, then fails the
/// test for work still running (work asleep on a ``TestClock`` or waiting in a
/// ``ControlledDependency`` call included), events processed but not asserted, unhandled errors not
/// checked, and events dropped because their work was cancelled or had finished that the test did
/// not expect with ``expectIgnored(_:reason:fileID:filePath:line:column:)``; then it stops the store.
/// A test that does not call `finish()` gets the same checks, without settling, when the
/// `StoreTest` is released, reported at the line that created it; running work is then reported
/// only if some of it waits for the test, since other work may be a moment from its end.
/// ``EndChecks`` turns each check off.
///
/// **From several tasks at once.** The steps (`send`, `receive`, `expectIgnored`, `expectStart`,
/// `expectNoNewEvents` and `finish`) take turns, in the order they began, so each checks its own
/// event's step whole; a step does not hold its turn while it settles the store. Which task's event
/// the store processes first is up to the tasks: such a test is usually non-exhaustive.
///
/// **On a `MainStore`.** A feature that ships on a ``Decisions/MainStore`` is tested on one with
/// ``init(state:deps:clocks:exhaustivity:endChecks:on:fileID:filePath:line:column:)``, from the
/// main actor: `StoreTest(state: .init(), deps: deps, on: .mainStore)`. The steps, the end-of-test
/// checks and their failure messages are the same; each step runs the store's calls on the main
/// actor, and ``mainStore`` is the store.
public final class StoreTest<F: Feature>: Sendable {
  #if canImport(Observation)
    /// The main-actor store under test.
    ///
    /// - Precondition: The test runs on a ``Decisions/MainStore``: it was created with
    ///   `on: .mainStore`, or its feature is a main-actor feature.
    public var mainStore: MainStore<F> {
      guard let store = underTest as? MainStore<F> else {
        preconditionFailure(
          "This StoreTest runs on a Store: use `test.store`, or create it with `on: .mainStore`.")
      }
      return store
    }
  #endif
  /// Which store the test runs the feature on.
  public var kind: StoreKind {
    #if canImport(Observation)
      if underTest.isolation === MainActor.shared { return .mainStore }
    #endif
    return .store
  }
  /// The store the steps drive; each of its calls runs on the store's isolation.
  let underTest: any StoreFacade<F>
  /// Which work waits for the test.
  let testWaits: WorkRegistry.TestWaits?
  /// Everything the store did, from its diagnostics hook.
  public let journal: Journal<F>
  /// How strictly each step is checked.
  public let exhaustivity: Exhaustivity
  /// The checks made when the test ends.
  public let endChecks: EndChecks
  /// What the test has checked so far.
  let progress = Protected(Progress())
  /// Lets the steps of a test that uses this `StoreTest` from several tasks run one at a time.
  let turns = StepQueue()
  /// Where the test created this `StoreTest`: the location of failures found at release.
  let location: Location

  /// How far the test has checked the journal.
  // NB: every count here is at most the length of what `journal` has read of the same kind, and is
  // read with it under one lock: a check never indexes past what it has read.
  struct Progress {
    /// How many processed events the test has asserted (or skipped, when not exhaustive).
    var assertedEvents = 0
    /// Whether the store's start step was asserted, or reported as not asserted.
    var startChecked = false
    /// How many ignored events the test has expected.
    var expectedIgnored = 0
    /// How many unhandled errors the test has checked.
    var checkedErrors = 0
    /// What non-exhaustive checks did not check, in order.
    var skipped: [String] = []
    /// Whether `finish()` ran its checks.
    var isFinished = false
    /// What the checks have read of the journal.
    var journal = JournalReading()
  }

  /// What a `StoreTest` has read of its journal: read a little further at each check, so that a
  /// check costs the entries recorded since the last one, not the whole journal.
  struct JournalReading {
    /// The steps: each processed event with the state after it and its decisions.
    var steps: [TraceStep<F>] = []
    /// The events the store dropped, with the reason.
    var ignored: [(event: F.Event, reason: IgnoredReason)] = []
    /// The errors of work that no `catch:` handler turned into events, with the work's id.
    var errors: [(id: WorkID?, error: any Error)] = []
    /// How many of the journal's entries were read.
    var readEntries = 0
    /// How many entries and steps the checks have looked at, in all: for tests of their cost.
    var visited = 0

    /// Reads the entries after those read so far.
    mutating func read(_ entries: [StoreDiagnostic<F>], initialState: F.State) {
      guard readEntries < entries.count else { return }
      let new = entries[readEntries...]
      Journal<F>.appendSteps(of: new, to: &steps, initialState: initialState)
      for entry in new {
        switch entry {
        case .ignored(let event, let reason): ignored.append((event, reason))
        case .workFailed(let id, let error): errors.append((id, error))
        case .started, .received, .state, .decided, .workStarted, .workFinished,
          .workWithoutLifetime, .postLimitReached:
          break
        }
      }
      visited += new.count
      readEntries = entries.count
    }
  }

  /// Reads the journal's entries recorded since the last read, then runs `body` on the progress,
  /// under one lock.
  ///
  /// What was read is only complete after a hop to the store: an event the store is processing on
  /// another thread may have been recorded without its state and decisions yet.
  func reading<Result: Sendable>(_ body: (inout Progress) -> Result) -> Result {
    let entries = journal.entries
    let initialState = journal.initialState
    return progress.withLock { progress in
      progress.journal.read(entries, initialState: initialState)
      return body(&progress)
    }
  }

  /// How many journal entries and steps the checks have looked at: for tests of their cost.
  var visitedEntries: Int {
    progress.withLock { $0.journal.visited }
  }

  /// Creates a ``Decisions/MainStore`` from a state and deps, recording its diagnostics: for a
  /// main-actor feature, one written in a module with default main-actor isolation.
  ///
  /// A main-actor feature runs on a `MainStore` only (see Observation.md), so its test does too:
  /// ```swift
  /// let test = StoreTest<Checklist>(state: .init(), deps: deps)
  /// await test.send(.add("Buy milk")) { /* … */ }
  /// ```
  /// For a feature that can run on either store, `StoreTest(state:deps:)` makes a
  /// ``Decisions/Store``, and ``init(state:deps:clocks:exhaustivity:endChecks:on:fileID:filePath:line:column:)``
  /// picks the kind. The `MainStore` performs the core's start decisions here, as its initializer
  /// does; the steps, the end-of-test checks and their messages are those of a test on a `Store`.
  /// - Parameters:
  ///   - state: The initial state.
  ///   - deps: The deps the store performs decisions with.
  ///   - clocks: Test clocks the deps use that are not kept in `deps` itself.
  ///   - exhaustivity: How strictly each step is checked; exhaustive unless set to
  ///     ``Exhaustivity/off``.
  ///   - endChecks: The checks made when the test ends; all of them unless the test says otherwise.
  ///   - start: Whether the store runs the core's start (``Start/run``), or begins from `state` as
  ///     the state after a start whose work is done (``Start/skipped``), such as a loaded state.
  ///   - fileID: The caller's file id, for the location of failures found at release.
  ///   - filePath: The caller's file path, for the location of failures found at release.
  ///   - line: The caller's line, for the location of failures found at release.
  ///   - column: The caller's column, for the location of failures found at release.
  ///
  /// Disfavoured, so that a feature that can run on a `Store` gets one, as it always has; for a
  /// main-actor feature the `Store` initializer does not apply, and this one does.
  @MainActor
  @_disfavoredOverload
  public convenience init(
    state: F.State,
    deps: F.Deps,
    clocks: [TestClock] = [],
    exhaustivity: Exhaustivity = .on,
    endChecks: EndChecks = .all,
    start: Start = .run,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      state: state, deps: deps, clocks: clocks, exhaustivity: exhaustivity, endChecks: endChecks,
      location: Location(fileID: fileID, filePath: filePath, line: line, column: column)
    ) {
      MainStore(
        state: state, deps: deps, diagnostics: $0.record, startDecisions: start.decisions,
        recorder: nil)
    }
  }

  /// Creates a test of the store `makeStore` makes, which records its diagnostics in the journal
  /// it is handed: the initializer every public one forwards to, with the store it makes.
  private init(
    state: F.State, deps: F.Deps, clocks: [TestClock], exhaustivity: Exhaustivity,
    endChecks: EndChecks, location: Location, makeStore: (Journal<F>) -> any StoreFacade<F>
  ) {
    let journal = Journal<F>(initialState: state)
    // NB: before the store, which takes its `testWaits` once, as it is made.
    WorkRegistry.TestWaits.startTracking()
    let store = makeStore(journal)
    self.underTest = store
    self.testWaits = store.testWaits
    self.journal = journal
    self.exhaustivity = exhaustivity
    self.endChecks = endChecks
    self.location = location
    guard let testWaits = testWaits else { return }
    for clock in clocks + TestClock.clocks(in: deps) {
      clock.attach(testWaits)
    }
    testWaits.reportClocksNotAttached {
      reportFailure(
        """
        The store's work slept on a TestClock that this StoreTest does not know, so advancing \
        that clock could race work the test just started to its first sleep. Keep the clock in \
        the deps (as `any Clock<Duration>` or `TestClock`), or pass it: \
        StoreTest(state:deps:clocks: [clock]).
        """,
        at: location)
    }
  }

  // NB: a test that never called `finish()` is checked here, without settling: what is unasserted
  // at this moment is what the test left behind. Running work is reported only when some of it
  // waits for the test, which is certain to be left behind; other work may be a moment from
  // finishing (it sent its last event, and its end is on its way to the store).
  deinit {
    let finished = progress.withLock { $0.isFinished }
    let stuck = testWaits?.hasWaits ?? false
    guard !finished, let problems = endProblems(runningWork: stuck) else { return }
    reportFailure(
      "The test ended with \(problems)\n(Checked when the StoreTest was released; call "
        + "`await test.finish()` to check at a line of your choice.)",
      at: location)
  }

  /// Sends an event without asserting its step, and returns once the store has processed it.
  ///
  /// For features whose state or decisions are not `Equatable`. When they are, the asserting
  /// `send(_:decisions:…)` is chosen, and in an exhaustive test an event sent without asserting
  /// its step fails the end-of-test check.
  ///
  /// A main-actor feature's types are `Equatable` only on the main actor, where the compiler
  /// cannot see it from here: on a `MainStore`, from the main actor, this call asserts the step
  /// (no decisions, no change of state) when they are, as `send(_:decisions:…)` with no decisions
  /// and no update would.
  @_disfavoredOverload
  nonisolated(nonsending) public func send(
    _ event: F.Event, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    // NB: the conformances found at run time are used only on the store's isolation, where the
    // feature runs: `#isolation` is the caller's, which this call runs on, and it is the store's
    // only for a MainStore driven from the main actor.
    // NB: `#isolation` bound first: compared in place, it crashes the optimizer (Swift 6.3).
    let isolation: (any Actor)? = #isolation
    if let isolation, isolation === underTest.isolation,
      let equality = StepEquality<F>.foundAtRunTime()
    {
      await sendStep(
        event, decisions: [],
        at: Location(fileID: fileID, filePath: filePath, line: line, column: column), { _ in },
        equality: equality)
      return
    }
    await underTest.send(event)
  }

  /// Returns once the store has no queued events and no running work, except work that waits for
  /// the test (see ``Decisions/Store/settle()``).
  nonisolated(nonsending) public func settle() async {
    await underTest.settle()
  }

  /// Returns after one turn on the store's isolation: an event it was processing is then recorded
  /// whole.
  nonisolated(nonsending) func hop() async {
    _ = await underTest.isStopped
  }

  /// The store's current state.
  public var state: F.State {
    get async { await underTest.state }
  }

  /// The events the store has processed so far, in order, including those its work sent back.
  public var processedEvents: [F.Event] {
    journal.events
  }

  /// What the checks of a non-exhaustive test did not check, in order.
  ///
  /// Events skipped, state changes and decisions not listed. Empty for an exhaustive test.
  public var skippedAssertions: [String] {
    progress.withLock { $0.skipped }
  }

  /// Settles the store, makes the end-of-test checks, and stops the store.
  ///
  /// Each check in ``endChecks`` fails the test, at this call, with a message that lists what it
  /// found. Work still running after settling is work that waits for the test: asleep on a
  /// ``TestClock``, or in a ``ControlledDependency`` call; advance the clock, answer the call, or
  /// send the event that cancels it before finishing. Work that waits for anything else (a stream
  /// the test does not end, say) keeps settling waiting: leave ``EndChecks/runningWork`` out of
  /// ``endChecks`` for a test that leaves such work running on purpose, and `finish()` then does
  /// not wait for running work, nor report it.
  /// - Parameters:
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  nonisolated(nonsending) public func finish(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    // NB: settling waits for running work; a test that leaves work running on purpose switches the
    // check off, and then `finish()` does not wait for it either.
    if endChecks.contains(.runningWork) {
      await underTest.settle()
    } else {
      await hop()
    }
    await turns.enter()
    progress.withLock { $0.isFinished = true }
    let problems = endProblems()
    turns.leave()
    if let problems {
      reportFailure(
        "The test ended with \(problems)",
        at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
    }
    await underTest.stop()
  }

  /// Asserts that no work ended on an error that no `catch:` handler turned into an event, and marks
  /// the errors found as checked.
  /// - Parameters:
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  /// - Returns: The unhandled errors, for further checks; empty when the assertion passed.
  @discardableResult
  public func expectNoUnhandledErrors(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> [any Error] {
    let failures = takeUnhandledErrors()
    guard !failures.isEmpty else { return [] }
    reportFailure(
      "Work ended on errors that no catch: handler turned into events:\n"
        + describeErrors(failures),
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
    return failures.map(\.error)
  }

  /// Returns the errors of work that no `catch:` handler turned into events since the last check,
  /// and marks them as checked: for a test that expects them.
  ///
  /// ```swift
  /// let errors = test.takeUnhandledErrors()
  /// #expect(errors.map(\.id) == [WorkID("save")])
  /// ```
  public func takeUnhandledErrors() -> [(id: WorkID?, error: any Error)] {
    reading { progress in
      let errors = progress.journal.errors
      defer { progress.checkedErrors = errors.count }
      return Array(errors[progress.checkedErrors...])
    }
  }

  // MARK: - End-of-test checks

  /// What the end-of-test checks found, as a message, or nil when they pass.
  /// - Parameter runningWork: Whether to check for running work, if ``endChecks`` asks for it.
  /// - Returns: The message, or nil when every check passes.
  func endProblems(runningWork: Bool = true) -> String? {
    let progress = progress.withLock { $0 }
    var problems: [String] = []
    if runningWork, endChecks.contains(.runningWork) {
      let running = journal.runningWork
      if !running.isEmpty {
        problems.append(
          "work still running: "
            + running.map { $0.map { "\"\($0)\"" } ?? "unkeyed work" }.joined(separator: ", ")
            + ". Advance the test clock, answer the dependency's call, or cancel the work first.")
      }
    }
    if endChecks.contains(.unassertedEvents), exhaustivity == .on, !progress.startChecked,
      let changes = unassertedStart(statesEqualFoundHere())
    {
      problems.append(
        "the store's start not asserted:\(changes)\n  Assert it with expectStart(decisions:).")
    }
    if endChecks.contains(.unassertedEvents), exhaustivity == .on {
      let events = journal.events.dropFirst(progress.assertedEvents)
      if !events.isEmpty {
        problems.append(
          "\(events.count) processed \(events.count == 1 ? "event" : "events") not asserted:\n"
            + events.map { "    " + describe($0, indent: "    ") }.joined(separator: "\n")
            + "\n  Assert each with send or receive, in order.")
      }
    }
    if endChecks.contains(.unhandledErrors) {
      let errors = journal.unhandledErrors.dropFirst(progress.checkedErrors)
      if !errors.isEmpty {
        problems.append(
          "unhandled errors not checked (give the work a catch: handler, or check them with "
            + "takeUnhandledErrors()):\n" + describeErrors(Array(errors)))
      }
    }
    if endChecks.contains(.ignoredEvents) {
      let ignored = unexpectedIgnored(after: progress.expectedIgnored)
      if !ignored.isEmpty {
        problems.append(
          "events dropped that the test did not expect with expectIgnored:\n"
            + ignored.map { "    \(describe($0.event, indent: "    ")) (\($0.reason))" }
            .joined(separator: "\n"))
      }
    }
    if endChecks.contains(.workWithoutLifetime) {
      let scopes = journal.workWithoutLifetime
      if !scopes.isEmpty {
        problems.append(
          "work in child scopes that no declaration in \(F.self).childWork covers, so nothing "
            + "cancels it when the child leaves the state: "
            + scopes.map { "\($0)" }.joined(separator: ", ")
            + ". Embed the child with embed(...) and list its work in childWork; work that must "
            + "outlive the child is the parent's own.")
      }
    }
    guard !problems.isEmpty else { return nil }
    if problems.count == 1 { return problems[0] }
    return "these problems:\n" + problems.map { "- " + $0 }.joined(separator: "\n")
  }

  /// The events dropped after the first `count`, except those dropped because the store had
  /// stopped: after `finish()`, or a test's own `stop()`, that is what a store does.
  func unexpectedIgnored(after count: Int) -> [(event: F.Event, reason: IgnoredReason)] {
    Array(journal.ignoredEvents.dropFirst(count).filter { $0.reason != .stopped })
  }

  private func describeErrors(_ errors: [(id: WorkID?, error: any Error)]) -> String {
    errors.map { id, error in
      "  \(id.map { "work \"\($0)\"" } ?? "unkeyed work"): \(error)"
    }.joined(separator: "\n")
  }
}

/// The checks a ``StoreTest`` makes when the test ends: all of them by default.
///
/// ```swift
/// let test = StoreTest<Ticker>(state: .init(), deps: deps, endChecks: .all.subtracting(.runningWork))
/// ```
public struct EndChecks: OptionSet, Sendable {
  /// The raw bits.
  public let rawValue: Int

  /// Creates checks from their raw bits.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// Work still running when the test ends, work that waits for the test included.
  public static let runningWork = EndChecks(rawValue: 1 << 0)
  /// Events the store processed that the test did not assert (exhaustive tests only).
  public static let unassertedEvents = EndChecks(rawValue: 1 << 1)
  /// Errors of work without a `catch:` handler that the test did not check.
  public static let unhandledErrors = EndChecks(rawValue: 1 << 2)
  /// Events dropped because their work had been cancelled or had finished, that the test did not
  /// expect with ``StoreTest/expectIgnored(_:reason:fileID:filePath:line:column:)``.
  public static let ignoredEvents = EndChecks(rawValue: 1 << 3)
  /// Work started in a child scope that no declaration in `childWork` covers (see
  /// ``Decisions/StoreReport/workWithoutLifetime(scope:)``).
  public static let workWithoutLifetime = EndChecks(rawValue: 1 << 4)
  /// Every check.
  public static let all: EndChecks = [
    .runningWork, .unassertedEvents, .unhandledErrors, .ignoredEvents, .workWithoutLifetime,
  ]
}

extension StoreTest where F: SendableMetatype {
  /// The actor store under test.
  ///
  /// - Precondition: The test runs on a ``Decisions/Store``, as it does unless created with
  ///   `on: .mainStore`; a test on a `MainStore` has ``mainStore`` instead.
  public var store: Store<F> {
    guard let store = underTest as? Store<F> else {
      preconditionFailure(
        "This StoreTest runs on a MainStore, created with `on: .mainStore`: use `test.mainStore`.")
    }
    return store
  }

  /// Creates a store from a state and deps, recording its diagnostics.
  ///
  /// The test clocks the store's work sleeps on settle the store before they move time (see
  /// ``TestClock``), so that `advance` never races work the test just started to its first sleep.
  /// The store finds clocks kept in `deps`, as `TestClock` or `any Clock<Duration>`, also in nested
  /// structs; pass the others, such as a clock that deps closures capture, in `clocks`. Work that
  /// sleeps on a test clock the store does not know fails the test, at this initializer's call.
  /// - Parameters:
  ///   - state: The initial state.
  ///   - deps: The deps the store performs decisions with.
  ///   - clocks: Test clocks the deps use that are not kept in `deps` itself.
  ///   - exhaustivity: How strictly each step is checked; exhaustive unless set to
  ///     ``Exhaustivity/off``.
  ///   - endChecks: The checks made when the test ends; all of them unless the test says otherwise.
  ///   - start: Whether the store runs the core's start (``Start/run``), or begins from `state` as
  ///     the state after a start whose work is done (``Start/skipped``), such as a loaded state.
  ///   - fileID: The caller's file id, for the location of failures found at release.
  ///   - filePath: The caller's file path, for the location of failures found at release.
  ///   - line: The caller's line, for the location of failures found at release.
  ///   - column: The caller's column, for the location of failures found at release.
  public convenience init(
    state: F.State,
    deps: F.Deps,
    clocks: [TestClock] = [],
    exhaustivity: Exhaustivity = .on,
    endChecks: EndChecks = .all,
    start: Start = .run,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      state: state, deps: deps, clocks: clocks, exhaustivity: exhaustivity, endChecks: endChecks,
      location: Location(fileID: fileID, filePath: filePath, line: line, column: column)
    ) {
      Store(state: state, deps: deps, diagnostics: $0.record, startDecisions: start.decisions)
    }
  }

  /// Creates a store of the given kind from a state and deps, recording its diagnostics: for a
  /// feature that ships on a ``Decisions/MainStore``, or a test of both kinds.
  ///
  /// ```swift
  /// @MainActor
  /// @Test func aLoadSucceeds() async {
  ///   let test = StoreTest<Loader>(state: .idle, deps: deps, on: .mainStore)
  ///   await test.send(.tap, decisions: [.load]) { $0 = .loading }
  ///   await test.receive(.finished("hi")) { $0 = .loaded("hi") }
  ///   await test.finish()
  /// }
  /// ```
  /// A `MainStore` performs the core's start decisions here, as its initializer does; the steps
  /// and end-of-test checks are those of a test on a ``Decisions/Store``, with the same messages.
  /// Each step runs the store's calls on the main actor, so a test may run anywhere once created;
  /// from a test that is not on the main actor, create it with `await`.
  /// - Parameters:
  ///   - state: The initial state.
  ///   - deps: The deps the store performs decisions with.
  ///   - clocks: Test clocks the deps use that are not kept in `deps` itself.
  ///   - exhaustivity: How strictly each step is checked; exhaustive unless set to
  ///     ``Exhaustivity/off``.
  ///   - endChecks: The checks made when the test ends; all of them unless the test says otherwise.
  ///   - start: Whether the store runs the core's start (``Start/run``), or begins from `state` as
  ///     the state after a start whose work is done (``Start/skipped``), such as a loaded state.
  ///   - kind: The store to run the feature on: ``StoreKind/mainStore`` or ``StoreKind/store``.
  ///   - fileID: The caller's file id, for the location of failures found at release.
  ///   - filePath: The caller's file path, for the location of failures found at release.
  ///   - line: The caller's line, for the location of failures found at release.
  ///   - column: The caller's column, for the location of failures found at release.
  @MainActor
  public convenience init(
    state: F.State,
    deps: F.Deps,
    clocks: [TestClock] = [],
    exhaustivity: Exhaustivity = .on,
    endChecks: EndChecks = .all,
    start: Start = .run,
    on kind: StoreKind,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    switch kind {
    case .store:
      self.init(
        state: state, deps: deps, clocks: clocks, exhaustivity: exhaustivity,
        endChecks: endChecks, start: start, fileID: fileID, filePath: filePath, line: line,
        column: column)
    #if canImport(Observation)
      case .mainStore:
        self.init(
          state: state, deps: deps, clocks: clocks, exhaustivity: exhaustivity,
          endChecks: endChecks,
          location: Location(fileID: fileID, filePath: filePath, line: line, column: column)
        ) {
          MainStore(
            state: state, deps: deps, diagnostics: $0.record, startDecisions: start.decisions,
            recorder: nil)
        }
    #endif
    }
  }
}

extension Journal {
  /// The ids of the work that started and has not finished, in the order it started.
  var runningWork: [WorkID?] {
    var running: [WorkID?] = []
    for entry in entries {
      switch entry {
      case .workStarted(let id): running.append(id)
      case .workFinished(let id):
        if let index = running.firstIndex(where: { $0 == id }) { running.remove(at: index) }
      default: break
      }
    }
    return running
  }
}

extension StoreTest {
  /// Whether a store test begins with the core's start (``Decisions/Core/makeStartDecisions(state:)``).
  ///
  /// A feature that loads at its start (`[.load]`) begins every store with that step, which an
  /// exhaustive test asserts with `expectStart(decisions:)`. A test about what happens once the
  /// data is there can begin from it instead:
  /// ```swift
  /// let test = StoreTest<SyncUpsApp>(
  ///   state: .init(syncUps: [standup], file: .loaded), deps: deps, start: .skipped)
  /// await test.send(.addTapped) { /* … */ }
  /// ```
  public enum Start: Sendable {
    /// The store runs the core's start on the given state and performs its decisions, as an app's
    /// store does.
    case run
    /// The given state is the state after the start, and the start's work is done: the store
    /// runs no start and performs no start decisions.
    case skipped

    /// The start decisions to hand the store: none when skipped, or nil to run the start.
    var decisions: [F.Decision]? {
      switch self {
      case .run: nil
      case .skipped: []
      }
    }
  }
}
