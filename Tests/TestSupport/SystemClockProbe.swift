import Synchronization

/// The system's `ContinuousClock`, recording each deadline a task sleeps until, and telling a
/// test when the first sleep begins.
public final class SystemClockProbe: Clock, Sendable {
  private let base = ContinuousClock()
  private let recorded = Mutex<[ContinuousClock.Instant]>([])
  private let sleeps: AsyncStream<Void>
  private let began: AsyncStream<Void>.Continuation

  /// A probe of a new `ContinuousClock`.
  public init() {
    (sleeps, began) = AsyncStream.makeStream()
  }

  /// The system clock's now.
  public var now: ContinuousClock.Instant { base.now }

  /// The system clock's resolution.
  public var minimumResolution: Duration { base.minimumResolution }

  /// The deadlines slept until, in order.
  public var deadlines: [ContinuousClock.Instant] { recorded.withLock { $0 } }

  /// Returns once a task has begun to sleep on the clock.
  public func firstSleep() async {
    for await _ in sleeps { return }
  }

  /// Records `deadline`, tells ``firstSleep()`` a sleep began, and sleeps on the system clock.
  public func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
    recorded.withLock { $0.append(deadline) }
    began.yield()
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}
