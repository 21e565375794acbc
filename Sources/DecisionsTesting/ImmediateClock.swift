import Decisions

/// A clock whose sleeps return at once, moving its time forward by what they slept: for tests that
/// do not care about time, only about what happens after it.
///
/// Use it where the order of sleeps and other events does not matter, such as a retry delay in an
/// executor test. Where it does matter (a debounce: did the new keystroke arrive before the quiet
/// period ended?), an immediate clock decides the race by scheduling luck; use ``TestClock`` there.
///
/// ```swift
/// let execution = await perform(
///   Retry.Decision.retry(attempt: 2), of: Retry.self,
///   deps: .init(clock: ImmediateClock(), load: { "hi" }))
/// #expect(execution.events == [.loaded("hi")])
/// ```
///
/// **Work that always sleeps again**, such as a repeating timer, would never end on a clock whose
/// sleeps return at once: ``perform(_:of:deps:)`` would never return, and a store test would never
/// settle. So the clock lets at most ``maximumSleeps`` sleeps pass in its life. The next one
/// records a test failure at the line that created the clock, and the clock stops: that sleep, and
/// every later one, waits until its task is cancelled, and counts as waiting for the test, as a
/// sleep on a ``TestClock`` that no one advances does. `perform` then cancels the work and lists it
/// in ``Execution/unfinishedWork``, and ``Decisions/Store/settle()`` returns. The failure reads:
///
/// ```
/// ImmediateClock let 10000 sleeps pass, its maximumSleeps, and stopped: its sleeps now wait until
/// their task is cancelled. Work that sleeps again every time (a repeating timer) never ends on a
/// clock whose sleeps return at once: test it with a TestClock, or stop it first. Work that really
/// sleeps more often can have more: ImmediateClock(maximumSleeps: 20000).
/// ```
public final class ImmediateClock: Clock, Sendable {
  /// The clock's instants: a ``TestClock``'s.
  public typealias Instant = TestClock.Instant

  private struct State {
    var now: Instant
    /// How many sleeps have passed.
    var sleeps = 0
    /// Whether the clock stopped, and reported it.
    var hasStopped = false
  }

  private let state: Protected<State>
  /// Where the test created the clock: the failure of a clock that stopped points there.
  private let location: Location

  /// How many sleeps the clock lets pass in its life; the next one stops it, and fails the test.
  public let maximumSleeps: Int

  /// Creates a clock at `now`.
  /// - Parameters:
  ///   - now: The clock's time to begin with.
  ///   - maximumSleeps: How many sleeps the clock lets pass, at most, before it stops and fails the
  ///     test: a bound for work that always sleeps again. Not negative.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path, for the failure's location.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public init(
    now: Instant = .init(),
    maximumSleeps: Int = 10_000,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    precondition(maximumSleeps >= 0, "ImmediateClock(maximumSleeps:) must not be negative")
    state = Protected(State(now: now))
    self.maximumSleeps = maximumSleeps
    location = Location(fileID: fileID, filePath: filePath, line: line, column: column)
    // NB: a sleep after the bound waits for the test, which a store sees only for work it tracks.
    WorkRegistry.TestWaits.startTracking()
  }

  /// The clock's current time: its start, plus every sleep so far.
  public var now: Instant {
    state.withLock { $0.now }
  }

  /// The smallest step the clock measures: any.
  public var minimumResolution: Duration { .zero }

  /// Returns at once, moving the clock to `deadline` if it is later than now; once the clock has
  /// let ``maximumSleeps`` sleeps pass, waits until the task is cancelled instead.
  /// - Throws: `CancellationError` if the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let outcome = state.withLock { state -> Outcome in
      if state.sleeps < maximumSleeps {
        state.sleeps += 1
        if deadline > state.now { state.now = deadline }
        return .passed
      }
      defer { state.hasStopped = true }
      return state.hasStopped ? .stopped : .stops
    }
    switch outcome {
    case .passed:
      return
    case .stops:
      let larger = maximumSleeps < Int.max / 2 ? Swift.max(2 * maximumSleeps, 1) : Int.max
      reportFailure(
        """
        ImmediateClock let \(maximumSleeps) sleeps pass, its maximumSleeps, and stopped: its \
        sleeps now wait until their task is cancelled. Work that sleeps again every time (a \
        repeating timer) never ends on a clock whose sleeps return at once: test it with a \
        TestClock, or stop it first. Work that really sleeps more often can have more: \
        ImmediateClock(maximumSleeps: \(larger)).
        """,
        at: location)
      try await Stop().wait()
    case .stopped:
      try await Stop().wait()
    }
  }

  /// What a sleep found.
  private enum Outcome {
    /// The sleep passed.
    case passed
    /// The sleep stops the clock.
    case stops
    /// The clock had stopped.
    case stopped
  }

  /// A sleep on a stopped clock: it waits until its task is cancelled, counted as waiting for the
  /// test.
  private final class Stop: Sendable {
    private struct Contents {
      var continuation: CheckedContinuation<Void, any Error>?
      var wait: WorkRegistry.TestWaits.Wait?
      var isCancelled = false
    }

    private let contents = Protected(Contents())

    /// Waits until the task is cancelled.
    /// - Throws: `CancellationError`, always.
    func wait() async throws {
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          // NB: decided under the lock, so that this and the cancellation handler never both
          // resume; the wait begins under it too, so the handler ends only a wait that began.
          let isCancelled = contents.withLock { contents -> Bool in
            if contents.isCancelled { return true }
            contents.continuation = continuation
            contents.wait = WorkRegistry.TestWaits.beginWait()
            return false
          }
          if isCancelled { continuation.resume(throwing: CancellationError()) }
        }
      } onCancel: {
        let (continuation, wait) = contents.withLock { contents in
          contents.isCancelled = true
          defer {
            contents.continuation = nil
            contents.wait = nil
          }
          return (contents.continuation, contents.wait)
        }
        wait?.end()
        continuation?.resume(throwing: CancellationError())
      }
    }
  }
}
