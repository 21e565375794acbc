import Synchronization

/// The imperative shell that runs a ``Feature``: it processes events, keeps and publishes state, and
/// performs decisions through the feature's ``Feature/Deps``.
///
/// ```swift
/// let store = Store<Counter>(state: .init(), deps: .live)
/// await store.send(.increment)
/// store.post(.increment)          // from synchronous code: no await, still in order
/// await store.settle()            // queue empty, no work in flight
/// let count = await store.state.count
/// ```
///
/// ## Guarantees
/// 1. Events are processed one at a time. For each event the core runs, the new state is stored and
///    published to observers, and the decisions are performed in order — with no other event
///    interleaved (there is no suspension point inside event processing).
/// 2. Events from one sender are processed in the order sent, whether sent with ``send(_:)`` or
///    ``post(_:)``. Events that work sends back queue behind what is already queued. Nothing is
///    dropped while the store runs.
/// 3. Long work runs as tracked tasks and never blocks event processing. Keyed work can be cancelled
///    or replaced; cancelled work sends nothing afterwards.
/// 4. Errors thrown by work become events through the `catch:` handler of
///    ``Effects/run(id:priority:operation:catch:)``, or are reported as
///    ``Diagnostic/workFailed(id:error:)``. Nothing crashes the store.
/// 5. ``stop()`` — and the end of the store's life — cancels all work. Events arriving after ``stop()``
///    are ignored and reported as ``Diagnostic/ignored(_:reason:)``. Work holds the store weakly, so it
///    never keeps the store alive.
/// 6. ``settle()`` returns once no event is queued and no tracked work is running.
/// 7. State can be observed with ``states(bufferingPolicy:)`` or, from UI code, ``ObservableStore``.
/// 8. ``post(_:)`` sends from synchronous code, in order.
public actor Store<F: Feature> {
  /// The current state.
  public private(set) var state: F.State

  /// The dependencies decisions are performed with.
  public nonisolated let deps: F.Deps

  private let diagnostics: (@Sendable (Diagnostic) -> Void)?
  private var phase = Phase.running
  private let runtime: WorkRuntime
  private let root: EventRoute<F.Event>
  /// Events queued by ``Effects/send(_:)`` while an event is being processed.
  private let pending: PendingEvents<F.Event>
  /// Events posted from synchronous code, waiting for the store's executor.
  private nonisolated let inbox = Protected(Inbox())
  /// How many events wait in `inbox`: lets ``send(_:)`` skip the lock when there are none.
  private nonisolated let inboxCount = Atomic<Int>(0)
  private var spareBatch: [F.Event] = []
  /// Observers that receive every state.
  private var observers: [StateObserver] = []
  /// Observers that receive the latest state once the store has caught up with posted events.
  private var idleObservers: [StateObserver] = []
  /// Whether the idle observers have not yet seen the current state.
  private var idleStateIsStale = false
  private var nextObserverID: UInt64 = 0
  private var settleWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
  private var nextSettleWaiterID: UInt64 = 0

  /// The life of a store: it runs until ``Store/stop()``, and then ignores events.
  private enum Phase {
    /// Processing events.
    case running
    /// Stopped: work cancelled, events ignored.
    case stopped
  }

  /// Events posted from synchronous code, and whether a task is on its way to process them.
  private struct Inbox {
    var events: [F.Event] = []
    var drainScheduled = false
  }

  /// Creates a store that runs feature `F` from an initial state.
  /// - Parameters:
  ///   - state: The initial state.
  ///   - deps: The dependencies decisions are performed with.
  ///   - diagnostics: Called on the store's executor with every event, state, decision, ignored event
  ///     and unhandled error, in order. Keep it fast; see ``Diagnostic``.
  public init(
    state: F.State,
    deps: F.Deps,
    diagnostics: (@Sendable (Diagnostic) -> Void)? = nil
  ) {
    self.init(state: state, deps: deps, diagnostics: diagnostics, observer: nil)
  }

  /// Creates a store with an observer already attached, so it sees every state.
  init(
    state: F.State,
    deps: F.Deps,
    diagnostics: (@Sendable (Diagnostic) -> Void)?,
    observer: StateObserver?
  ) {
    self.state = state
    if let observer {
      self.idleObservers = [observer]
      self.nextObserverID = observer.id
    }
    self.deps = deps
    self.diagnostics = diagnostics
    let pending = PendingEvents<F.Event>()
    self.pending = pending
    // NB: the closures capture a weak box, not `self`, because `self` is not yet initialized here.
    let link = WeakLink<F>()
    self.runtime = WorkRuntime { token, error in
      await link.store?.workFinished(token, error: error)
    }
    self.root = EventRoute(
      enqueue: { pending.events.append($0) },
      deliver: { event, token in await link.store?.receive(event, from: token) }
    )
    link.store = self
  }

  // MARK: - Sending events

  /// Processes an event: runs the core, stores and publishes the new state, performs the decisions.
  ///
  /// Returns once the event has been processed: its quick work is done and its long work has started.
  /// Events posted earlier with ``post(_:)`` are processed first. After ``stop()`` the event is ignored
  /// and reported to the diagnostics hook.
  public func send(_ event: F.Event) {
    if inboxCount.load(ordering: .acquiring) != 0 { drainInbox() }
    process(event)
    if idleStateIsStale { publishIfCaughtUp() }
  }

  /// Sends an event from synchronous code, without waiting: for UI callbacks.
  ///
  /// Events posted from one thread are processed in the order posted, and before any event that thread
  /// later sends with ``send(_:)``.
  public nonisolated func post(_ event: F.Event) {
    let mustSchedule = inbox.withLock { inbox in
      inbox.events.append(event)
      inboxCount.add(1, ordering: .releasing)
      guard !inbox.drainScheduled else { return false }
      inbox.drainScheduled = true
      return true
    }
    if mustSchedule {
      Task { await self.drainInbox() }
    }
  }

  /// Returns once no event is queued and no tracked work is running, cancelled work included.
  ///
  /// Use it in integration tests instead of expectations or sleeps:
  /// ```swift
  /// await store.send(.didTapButton)
  /// await store.settle()
  /// #expect(await store.state == .loaded("hi"))
  /// ```
  /// Work that never finishes (and ignores cancellation) keeps `settle()` waiting, until the waiting
  /// task is cancelled: then `settle()` returns at once, settled or not, so a test's time limit can
  /// end it.
  public func settle() async {
    drainInbox()
    if isSettled { return }
    nextSettleWaiterID += 1
    let id = nextSettleWaiterID
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled {
          continuation.resume()
        } else {
          settleWaiters[id] = continuation
        }
      }
    } onCancel: {
      Task { await self.resumeSettleWaiter(id) }
    }
  }

  private func resumeSettleWaiter(_ id: UInt64) {
    settleWaiters.removeValue(forKey: id)?.resume()
  }

  /// Stops the store: cancels all work and ends state observation.
  ///
  /// Events posted with ``post(_:)`` before the call are processed first; events sent after it are
  /// ignored. Each ignored event is reported as ``Diagnostic/ignored(_:reason:)`` with
  /// ``IgnoredReason/stopped``. Stopping twice does nothing.
  public func stop() {
    guard case .running = phase else { return }
    // NB: events posted before `stop()` came first, so they are processed before the store stops.
    drainInbox()
    phase = .stopped
    runtime.cancelAll(in: [])
    for observer in observers + idleObservers { observer.finish() }
    observers = []
    idleObservers = []
    resumeSettleWaitersIfSettled()
  }

  /// Whether the store has been stopped.
  public var isStopped: Bool {
    if case .stopped = phase { return true }
    return false
  }

  // MARK: - Processing

  private func process(_ event: F.Event) {
    guard case .running = phase else {
      diagnostics?(.ignored(event, reason: .stopped))
      return
    }
    handle(event)
    if !pending.events.isEmpty { handlePending() }
  }

  /// Handles events queued by `Effects.send` in order, including ones queued while handling them.
  private func handlePending() {
    var index = 0
    while index < pending.events.count {
      handle(pending.events[index])
      index += 1
    }
    pending.events.removeAll(keepingCapacity: true)
  }

  // NB: no suspension point from here to the end of the event's decisions: this is what makes event
  // processing atomic with respect to other events.
  private func handle(_ event: F.Event) {
    diagnostics?(.received(event))
    let decisions = F.makeDecisions(event: event, state: &state)
    diagnostics?(.state(state))
    if !observers.isEmpty { publish() }
    if !idleObservers.isEmpty { idleStateIsStale = true }
    guard !decisions.isEmpty else { return }
    let effects = Effects(runtime: runtime, route: root, scope: [])
    for decision in decisions {
      diagnostics?(.decided(decision))
      F.execute(decision, deps: deps, effects: effects)
    }
  }

  private func drainInbox() {
    var batch = spareBatch
    spareBatch = []
    inbox.withLock { inbox in
      swap(&inbox.events, &batch)
      inbox.drainScheduled = false
      inboxCount.store(0, ordering: .releasing)
    }
    for event in batch { process(event) }
    batch.removeAll(keepingCapacity: true)
    spareBatch = batch
    if idleStateIsStale { publishIfCaughtUp() }
    resumeSettleWaitersIfSettled()
  }

  // MARK: - Work

  /// An event sent back by work: processed unless the work was cancelled or the store stopped.
  private func receive(_ event: F.Event, from token: UInt64) {
    guard runtime.isLive(token) else {
      diagnostics?(.ignored(event, reason: isStopped ? .stopped : .cancelledWork))
      return
    }
    send(event)
  }

  private func workFinished(_ token: UInt64, error: (any Error)?) {
    let entry = runtime.finished(token)
    if let error, let entry, !entry.isCancelled {
      diagnostics?(.workFailed(id: entry.id, error: error))
    }
    resumeSettleWaitersIfSettled()
  }

  private var isSettled: Bool {
    runtime.isEmpty && inboxCount.load(ordering: .acquiring) == 0
  }

  private func resumeSettleWaitersIfSettled() {
    guard !settleWaiters.isEmpty, isSettled else { return }
    let waiters = settleWaiters.values
    settleWaiters = [:]
    for waiter in waiters { waiter.resume() }
  }

  // MARK: - Observers

  /// Adds an observer and returns the current state, atomically, so no state is missed in between.
  ///
  /// An observer added to a stopped store is not kept; the caller finishes it after using the state.
  /// - Parameters:
  ///   - observer: The observer to add.
  ///   - idle: Whether the observer wants only the latest state, once the store has caught up with
  ///     posted events, instead of every state.
  /// - Returns: The current state.
  func addObserver(_ observer: StateObserver, idle: Bool = false) -> F.State {
    if case .running = phase {
      if idle { idleObservers.append(observer) } else { observers.append(observer) }
    }
    return state
  }

  /// Creates an id for a new observer.
  func makeObserverID() -> UInt64 {
    nextObserverID += 1
    return nextObserverID
  }

  /// How many observers are attached, for tests.
  var observerCount: Int { observers.count + idleObservers.count }

  func removeObserver(id: UInt64) {
    observers.removeAll { $0.id == id }
    idleObservers.removeAll { $0.id == id }
  }

  private func publish() {
    let state = self.state
    observers.removeAll { !$0.receive(state) }
  }

  /// Gives idle observers the current state, unless posted events are still waiting: a burst of
  /// events then reaches them once, at its end.
  private func publishIfCaughtUp() {
    guard inboxCount.load(ordering: .acquiring) == 0 else { return }
    idleStateIsStale = false
    let state = self.state
    idleObservers.removeAll { !$0.receive(state) }
  }

  /// Something that receives each new state on the store's executor.
  struct StateObserver: Sendable {
    /// Identifies the observer for removal.
    let id: UInt64
    /// Receives a state; returns `false` when the observer is gone and can be removed.
    let receive: @Sendable (F.State) -> Bool
    /// Called when the store stops.
    let finish: @Sendable () -> Void
  }
}

/// Events queued behind the current one, on the store's executor.
package final class PendingEvents<Event> {
  /// The events, oldest first.
  package var events: [Event] = []

  /// Creates an empty queue.
  package init() {}
}

/// A weak reference to a store, for work and routes that must not keep it alive.
// NB: written once, in the store's init, before anything can read it from another thread.
final class WeakLink<F: Feature>: @unchecked Sendable {
  weak var store: Store<F>?
}
