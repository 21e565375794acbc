import Decisions

/// Drives a real ``Decisions/Store`` in a test: send events, settle, and assert state and the events
/// the store processed — with no expectations and no sleeps.
///
/// ```swift
/// let loads = Calls<Void>()
/// let test = StoreTest<FactFeature>(
///   state: .idle,
///   deps: .init(loadFact: loads.recording { Fact(text: "hi") }, /* … */))
/// await test.send(.view(.didTapButton))
/// await test.settle()
/// await test.expectState(.loaded("hi"))
/// test.expectProcessed([.view(.didTapButton), .model(.finishLoading(Fact(text: "hi")))])
/// #expect(loads.count == 1)
/// ```
public final class StoreTest<F: Feature>: Sendable {
  /// The store under test.
  public let store: Store<F>
  /// Everything the store did, from its diagnostics hook.
  public let journal: Journal<F>
  private let checkedEvents = Protected(0)

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
  ///   - fileID: The caller's file id, for the location of failures about clocks.
  ///   - filePath: The caller's file path, for the location of failures about clocks.
  ///   - line: The caller's line, for the location of failures about clocks.
  ///   - column: The caller's column, for the location of failures about clocks.
  public init(
    state: F.State,
    deps: F.Deps,
    clocks: [TestClock] = [],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let journal = Journal<F>(initialState: state)
    self.journal = journal
    // NB: before the store, so that it tracks which work waits for the test.
    WorkActivity.startTracking()
    self.store = Store(state: state, deps: deps, diagnostics: journal.record)
    guard let activity = store.workActivity else { return }
    for clock in clocks + TestClock.clocks(in: deps) {
      clock.attach(activity)
    }
    let location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    activity.reportClocksNotAttached {
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

  /// Sends an event and returns once the store has processed it.
  public func send(_ event: F.Event) async {
    await store.send(event)
  }

  /// Returns once the store has no queued events and no running work.
  public func settle() async {
    await store.settle()
  }

  /// The store's current state.
  public var state: F.State {
    get async { await store.state }
  }

  /// The events the store has processed so far, in order, including those its work sent back.
  public var processedEvents: [F.Event] {
    journal.events
  }

  /// Asserts that no work ended on an error that no `catch:` handler turned into an event.
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
    let failures = journal.unhandledErrors
    guard !failures.isEmpty else { return [] }
    let list = failures.map { id, error in
      "  \(id.map { "work \"\($0)\"" } ?? "unkeyed work"): \(error)"
    }
    reportFailure(
      "Work ended on errors that no catch: handler turned into events:\n"
        + list.joined(separator: "\n"),
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
    return failures.map(\.1)
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
  public func expectState(
    _ expected: F.State,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let actual = await store.state
    guard let problem = stateMismatch("The store's state", expected: expected, actual: actual)
    else { return }
    reportFailure(
      problem, at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}

extension StoreTest where F.Event: Equatable {
  /// Asserts exactly which events the store processed since the last call, in order.
  ///
  /// Each call checks only the events processed after those the previous call checked, so a test
  /// can walk a story: send, settle, expect the events, send again.
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
    let all = journal.events
    let start = checkedEvents.withLock { checked in
      defer { checked = all.count }
      return checked
    }
    let processed = Array(all[start...])
    guard processed != events else { return }
    reportFailure(
      """
      The store processed other events than expected since the last check.
        Expected:  \(describe(events, indent: "  "))
        Processed: \(describe(processed, indent: "  "))
      """,
      at: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }
}
