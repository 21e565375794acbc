/// The executor's handle for long work: start it, key it, cancel it, and send events back.
///
/// A store passes one to ``Feature/execute(_:deps:effects:)`` for each decision. It is only valid
/// during that call: it is not `Sendable`, so it cannot escape into a task.
///
/// ```swift
/// case .load:
///   effects.run(id: "load") { send in
///     await send(.finishLoading(try await deps.loadFact()))
///   } catch: { error in
///     .failedLoading(String(describing: error))
///   }
/// case .cancelLoad:
///   effects.cancel(id: "load")
/// ```
public struct Effects<Event: Sendable> {
  // NB: usable from inlinable code, so that `map` and `scoped`, which embedded children call once per
  // decision, are specialized in the caller's module instead of looking up metadata at run time.
  @usableFromInline let registry: WorkRegistry
  @usableFromInline let route: EventRoute<Event>
  @usableFromInline let scope: [WorkID]

  /// Creates effects that start work in `registry` and send events along `route`.
  @usableFromInline
  package init(registry: WorkRegistry, route: EventRoute<Event>, scope: [WorkID]) {
    self.registry = registry
    self.route = route
    self.scope = scope
  }

  // MARK: - Events

  /// Queues an event to be processed right after the current one and anything already queued.
  ///
  /// The event does not interrupt the event being processed: it waits until all of that event's
  /// decisions have been performed.
  public func send(_ event: Event) {
    route.enqueue(event)
  }

  // MARK: - Long work

  /// Starts long work keyed by `id`, replacing (cancelling) running work with the same id.
  ///
  /// Latest wins: if work with the same id (in the same scope) is running, it is cancelled first, and
  /// from that moment nothing it sends reaches the store. Once the store has stopped, it starts
  /// nothing.
  /// - Parameters:
  ///   - id: The key of the work; any `Hashable & Sendable` value.
  ///   - priority: The priority of the task that runs the work.
  ///   - operation: The work. Send results back with the ``Send`` it is given.
  ///   - catch: Turns an error thrown by `operation` into an event. Work that the store cancelled
  ///     (replaced, cancelled, stopped or released) sends nothing, so its errors are dropped; any
  ///     other error is handled here, a `CancellationError` thrown by an inner task that something
  ///     else cancelled included. Without a handler, the error is reported to the store's
  ///     diagnostics hook as ``StoreReport/workFailed(id:error:)``; a store without a hook
  ///     prints it to standard error in a debug build, and drops it in a release build.
  public func run(
    id: some Hashable & Sendable,
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Event>) async throws -> Void,
    catch: (@Sendable (any Error) -> Event)? = nil
  ) {
    start(id: WorkID(id), priority: priority, operation: operation, catch: `catch`)
  }

  /// Starts long work without a key.
  ///
  /// Unkeyed work can still be cancelled with ``cancelAll()``.
  /// - Parameters:
  ///   - priority: The priority of the task that runs the work.
  ///   - operation: The work. Send results back with the ``Send`` it is given.
  ///   - catch: Turns an error thrown by `operation` into an event; see
  ///     ``run(id:priority:operation:catch:)``.
  public func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (_ send: Send<Event>) async throws -> Void,
    catch: (@Sendable (any Error) -> Event)? = nil
  ) {
    start(id: nil, priority: priority, operation: operation, catch: `catch`)
  }

  // NB: `id` first, as in `run(id:…)`: a timer is keyed work like any other, and is cancelled,
  // replaced and ended with its scope the same way. The deadlines are counted from the instant the
  // decision is performed, so the time each tick takes (the hop to the store, a slow event) never
  // adds up: a `sleep(for:)` after each tick would drift by it, about a second an hour.
  /// Starts a repeating timer keyed by `id`: sends `event` once per `period` on `clock`, until
  /// cancelled.
  ///
  /// ```swift
  /// case .startTicking:
  ///   effects.timer(id: "tick", every: .seconds(1), on: deps.clock, send: .ticked)
  /// case .stopTicking:
  ///   effects.cancel(id: "tick")
  /// ```
  /// The ticks fall on deadlines counted from now: `now + period`, `now + 2 × period`, and so on,
  /// so they do not drift whatever each tick costs. Ticks whose deadlines have passed (the device
  /// slept, or the clock woke late) are sent at once, one for each deadline: they are counted, not
  /// skipped. The timer is work like that of ``run(id:priority:operation:catch:)``: a second timer
  /// with the same id replaces it, ``cancel(id:)`` and ``cancelAll()`` end it, and it ends with the
  /// child whose scope started it. On a `TestClock`, each tick comes when the test advances the
  /// clock to its deadline.
  ///
  /// A period longer than a system clock can sleep at once (`.seconds(Int64.max)`, written for
  /// "never") is slept in steps of about 136 years: the timer waits, without ticking, until it
  /// ends.
  ///
  /// A `period` of zero or less would tick without end: the timer sends nothing and fails with
  /// ``TimerError/periodNotPositive(_:)``, which the diagnostics hook hears as
  /// ``StoreReport/workFailed(id:error:)``.
  /// - Parameters:
  ///   - id: The key of the timer; any `Hashable & Sendable` value.
  ///   - period: The time between ticks; more than zero.
  ///   - clock: The clock the ticks fall on: `ContinuousClock()` in an app, a `TestClock` in
  ///     tests, or the deps' `any Clock<Duration>`.
  ///   - tolerance: How late the clock may wake for a tick, as for `Clock.sleep(until:tolerance:)`;
  ///     nil for the clock's default.
  ///   - event: The event sent at each tick.
  public func timer<C: Clock>(
    id: some Hashable & Sendable,
    every period: C.Duration,
    on clock: C,
    tolerance: C.Duration? = nil,
    send event: Event
  ) {
    let start = clock.now
    run(id: id) { send in
      guard period > .zero else { throw TimerError.periodNotPositive(String(describing: period)) }
      var deadline = start.advanced(by: period)
      // NB: a deadline is at most a period away when the timer sleeps: only a longer period than
      // one sleep may take needs steps (and reads the clock again).
      let longest = (longestSleep as? C.Duration).flatMap { period > $0 ? $0 : nil }
      while true {
        if let longest {
          try await sleep(on: clock, until: deadline, inStepsOf: longest, tolerance: tolerance)
        } else {
          try await clock.sleep(until: deadline, tolerance: tolerance)
        }
        await send(event)
        deadline = deadline.advanced(by: period)
      }
    }
  }

  /// Cancels the running work keyed by `id` in this scope, if any.
  ///
  /// Cancelled work sends nothing afterwards, even if it ignores cancellation.
  public func cancel(id: some Hashable & Sendable) {
    registry.cancel(scope: scope, id: WorkID(id))
  }

  /// Cancels all running work in this scope, keyed or not, including the work of embedded children.
  public func cancelAll() {
    registry.cancelAll(in: scope)
  }

  private func start(
    id: WorkID?,
    priority: TaskPriority?,
    operation: @escaping @Sendable (Send<Event>) async throws -> Void,
    catch handler: (@Sendable (any Error) -> Event)?
  ) {
    // NB: a decision after the one that stopped the store is not performed, but work can still
    // reach a stopped store's effects from a decision that stopped it and then started work.
    guard !registry.isClosed else { return }
    let token = registry.reserve(scope: scope, id: id)
    let send = Send(token: token, route: route, keeper: route.keeperRef)
    // NB: the end goes to the registry's link, not along the route: a route carries events, and
    // the link every other report (see Architecture.md, "Glossary").
    let link = registry.link
    let task: Task<Void, Never>
    if let startTask = registry.startTask {
      task = startTask(token, priority) {
        let error = await Self.perform(operation, catch: handler, send: send)
        await link.finish(token, error: error)
      }
    } else if let testWaits = registry.testWaits {
      let member = WorkRegistry.TestWaits.Member(testWaits: testWaits, token: token, id: id)
      task = Task(priority: priority) {
        let error = await WorkRegistry.TestWaits.$current.withValue(member) {
          await Self.perform(operation, catch: handler, send: send)
        }
        await link.finish(token, error: error)
      }
    } else {
      task = Task(priority: priority) {
        let error = await Self.perform(operation, catch: handler, send: send)
        await link.finish(token, error: error)
      }
    }
    registry.register(token, scope: scope, id: id, task: task)
  }

  /// Runs a piece of work's operation, and returns the error it ended on that is the feature's to
  /// hear about and that `catch:` did not turn into an event.
  @inline(__always)
  private static func perform(
    _ operation: @Sendable (Send<Event>) async throws -> Void,
    catch handler: (@Sendable (any Error) -> Event)?,
    send: Send<Event>
  ) async -> (any Error)? {
    do {
      try await operation(send)
      return nil
    } catch {
      // NB: only the store holds this task, so `Task.isCancelled` means the store cancelled it
      // (replace, cancel, stop, release): then its errors are not events either. Any other error,
      // a `CancellationError` from an inner task that someone else cancelled included, is a failure
      // the feature must hear about, or it may stay "loading" forever.
      if Task.isCancelled { return nil }
      guard let handler else { return error }
      await send(handler(error))
      return nil
    }
  }
}

@available(*, unavailable)
extension Effects: Sendable {}

/// Sends events from long work back to its store.
///
/// Call it like a function: `await send(.finishLoading(fact))`. Each event is queued behind whatever
/// the store has already queued. Once the work has been cancelled or replaced, or the store has
/// stopped, sending does nothing.
public struct Send<Event: Sendable>: Sendable {
  // NB: the route itself rather than a closure around it: one allocation less per piece of work.
  @usableFromInline let token: UInt64
  @usableFromInline let route: EventRoute<Event>
  // NB: `nil` for a route that keeps itself alive, so that the work of a feature that is not
  // embedded holds nothing more.
  /// What keeps `route` alive, for an embedded child's route, which its parent's route holds.
  let keeper: RouteNode?

  // NB: inlinable, so that work calls the route directly: one async frame less per event it sends.
  /// Sends an event to the store and returns once the store has processed it, or dropped it.
  @inlinable
  public func callAsFunction(_ event: Event) async {
    await route.deliver(event, from: token)
  }
}

/// Why a timer of ``Effects/timer(id:every:on:tolerance:send:)`` ended without ticking.
public enum TimerError: Error, Equatable, CustomStringConvertible {
  /// The period was zero or less (the period, as text), which would tick without end.
  case periodNotPositive(String)

  /// A sentence that says what was wrong.
  public var description: String {
    switch self {
    case .periodNotPositive(let period):
      "A timer's period must be more than zero, not \(period)."
    }
  }
}

/// The longest one sleep of a timer: about 136 years, far below what a system clock can sleep
/// until, and past any app's life.
private let longestSleep = Duration.seconds(1 << 32)

// NB: `.seconds(Int64.max)`, a period written for "never", made `ContinuousClock` trap: its
// sleep cannot represent the deadline. The steps keep each deadline one the clock can.
/// Sleeps on `clock` until `deadline`, in steps of at most `longest`.
private func sleep<C: Clock>(
  on clock: C, until deadline: C.Instant, inStepsOf longest: C.Duration, tolerance: C.Duration?
) async throws {
  while clock.now.duration(to: deadline) > longest {
    try await clock.sleep(until: clock.now.advanced(by: longest), tolerance: tolerance)
  }
  try await clock.sleep(until: deadline, tolerance: tolerance)
}
