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
public final class ImmediateClock: Clock, Sendable {
  /// The clock's instants: a ``TestClock``'s.
  public typealias Instant = TestClock.Instant

  private let current: Protected<Instant>

  /// Creates a clock at `now`.
  public init(now: Instant = .init()) {
    current = Protected(now)
  }

  /// The clock's current time: its start, plus every sleep so far.
  public var now: Instant {
    current.withLock { $0 }
  }

  /// The smallest step the clock measures: any.
  public var minimumResolution: Duration { .zero }

  /// Returns at once, moving the clock to `deadline` if it is later than now.
  /// - Throws: `CancellationError` if the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.withLock { now in
      if deadline > now { now = deadline }
    }
  }
}
