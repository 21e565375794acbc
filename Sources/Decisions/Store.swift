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
///    ``post(_:)``. Events posted before an awaited ``send(_:)`` (from any task, or from work
///    sending a result) are processed before it, whatever the priorities. Events that
///    ``Effects/send(_:)`` queues run right after the current event. Awaited sends that wait for the
///    store at the same time from different tasks are taken in the actor's order, which favours
///    higher priorities. Nothing is dropped while the store runs.
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
  // NB: unchecked exclusivity: only the store's executor touches `state`, and the pure core cannot
  // reach it during `makeDecisions`. Unspecialized, the dynamic check costs about 80 instructions
  // per event, a third of an event without decisions.
  /// The current state.
  @exclusivity(unchecked) public private(set) var state: F.State

  /// The dependencies decisions are performed with.
  public nonisolated let deps: F.Deps

  private let diagnostics: (@Sendable (Diagnostic) -> Void)?
  private var phase = Phase.running
  private let runtime: WorkRuntime
  private let root: EventRoute<F.Event>
  /// Events queued by ``Effects/send(_:)`` while an event is being processed.
  private let pending: PendingEvents<F.Event>
  /// Events posted from synchronous code, waiting for the store's executor.
  private nonisolated let inbox = PostedEvents<F.Event>()
  private var spareBatch: [F.Event] = []
  /// Observers that receive every state.
  private var observers: [StateObserver] = [] {
    didSet { hasObservers = !observers.isEmpty }
  }
  /// Observers that receive the latest state once the store has caught up with posted events.
  private var idleObservers: [StateObserver] = [] {
    didSet { hasIdleObservers = !idleObservers.isEmpty }
  }
  // NB: flags for the hot path: unspecialized, `observers.isEmpty` looks up the metadata of
  // `[Store<F>.StateObserver]` in the runtime's cache on every event.
  /// Whether `observers` is not empty.
  private var hasObservers = false
  /// Whether `idleObservers` is not empty.
  private var hasIdleObservers = false
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
      self.hasIdleObservers = true
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

  // NB: a store released without `stop()` still ends its observers' sequences, or a `for await`
  // over `states()` would wait forever. (Its work is cancelled by the runtime's `deinit`.)
  deinit {
    for observer in observers { observer.finish() }
    for observer in idleObservers { observer.finish() }
  }

  // MARK: - Sending events

  /// Processes an event: runs the core, stores and publishes the new state, performs the decisions.
  ///
  /// Returns once the event has been processed: its quick work is done and its long work has started.
  /// Events posted earlier with ``post(_:)`` are processed first. After ``stop()`` the event is ignored
  /// and reported to the diagnostics hook.
  public func send(_ event: F.Event) {
    if !inbox.isEmpty { drainInbox() }
    process(event)
    if idleStateIsStale { publishIfCaughtUp() }
  }

  /// Sends an event from synchronous code, without waiting: for UI callbacks.
  ///
  /// Events posted from one thread are processed in the order posted, and before any event that thread
  /// later sends with ``send(_:)``.
  public nonisolated func post(_ event: F.Event) {
    if inbox.append(event) {
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
      report(ignored: event)
      return
    }
    // NB: only decisions queue events (with `Effects.send`), so after an event that decided nothing
    // the queue is still empty and need not be read.
    if handle(event) { handlePending() }
  }

  /// Handles events queued by `Effects.send` in order, including ones queued while handling them.
  private func handlePending() {
    // NB: no `removeAll` when nothing was queued: unspecialized, it costs more than the check.
    guard pending.events.count != 0 else { return }
    var index = 0
    while index < pending.events.count {
      _ = handle(pending.events[index])
      index += 1
    }
    pending.events.removeAll(
      keepingCapacity: pending.events.capacity <= Self.retainedBatchCapacity)
  }

  /// How many events the posted and pending buffers keep room for after a burst.
  private static var retainedBatchCapacity: Int { 1_024 }

  // NB: no suspension point from here to the end of the event's decisions: this is what makes event
  // processing atomic with respect to other events.
  //
  // NB: this code is generic and not specialized for `F`: every use of a type that depends on `F`
  // (`[F.Decision]`, `Diagnostic`, an iterator) can cost a lookup in the runtime's metadata cache,
  // hundreds of instructions, on every event. Hence `count != 0` rather than `isEmpty`, flags for the
  // observers, index loops, and diagnostics reported from separate functions: building a
  // `Diagnostic` here would look up its metadata on every event, even with no diagnostics hook.
  /// Handles one event and returns whether it decided anything.
  private func handle(_ event: F.Event) -> Bool {
    if diagnostics != nil { report(received: event) }
    let decisions = F.makeDecisions(event: event, state: &state)
    if diagnostics != nil { reportState() }
    if hasObservers { publish() }
    if hasIdleObservers { idleStateIsStale = true }
    guard decisions.count != 0 else { return false }
    perform(decisions)
    return true
  }

  private func perform(_ decisions: [F.Decision]) {
    let effects = Effects(runtime: runtime, route: root, scope: [])
    var index = 0
    while index < decisions.count {
      if diagnostics != nil { report(decided: decisions[index]) }
      F.execute(decisions[index], deps: deps, effects: effects)
      index += 1
    }
  }

  @inline(never)
  private func report(received event: F.Event) {
    diagnostics?(.received(event))
  }

  @inline(never)
  private func reportState() {
    diagnostics?(.state(state))
  }

  @inline(never)
  private func report(decided decision: F.Decision) {
    diagnostics?(.decided(decision))
  }

  @inline(never)
  private func report(ignored event: F.Event) {
    diagnostics?(.ignored(event, reason: .stopped))
  }

  private func drainInbox() {
    var batch = spareBatch
    spareBatch = []
    inbox.take(swappingWith: &batch)
    var index = 0
    while index < batch.count {
      process(batch[index])
      index += 1
    }
    // NB: after a flood of posts, give the room back rather than keep it for the store's life.
    batch.removeAll(keepingCapacity: batch.capacity <= Self.retainedBatchCapacity)
    spareBatch = batch
    if idleStateIsStale { publishIfCaughtUp() }
    resumeSettleWaitersIfSettled()
  }

  // MARK: - Work

  /// An event sent back by work: processed unless the work was cancelled or the store stopped.
  private func receive(_ event: F.Event, from token: UInt64) {
    guard runtime.isLive(token) else {
      if diagnostics != nil { report(ignored: event, from: token) }
      return
    }
    send(event)
  }

  @inline(never)
  private func report(ignored event: F.Event, from token: UInt64) {
    diagnostics?(.ignored(event, reason: isStopped ? .stopped : runtime.reasonNotLive(token)))
  }

  private func workFinished(_ token: UInt64, error: (any Error)?) {
    let entry = runtime.finished(token)
    if let error, let entry, !entry.isCancelled {
      diagnostics?(.workFailed(id: entry.id, error: error))
    }
    resumeSettleWaitersIfSettled()
  }

  private var isSettled: Bool {
    runtime.isEmpty && inbox.isEmpty
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

  /// Whether the store's buffers hold far more room than a quiet store needs, for tests of memory
  /// after a burst.
  var isOversized: Bool {
    runtime.isOversized || spareBatch.capacity > Self.retainedBatchCapacity
      || pending.events.capacity > Self.retainedBatchCapacity
  }

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
    guard inbox.isEmpty else { return }
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
  // NB: unchecked exclusivity: used only on one executor, where a dynamic check would cost more
  // than reading the array.
  /// The events, oldest first.
  @exclusivity(unchecked) package var events: [Event] = []

  /// Creates an empty queue.
  package init() {}
}

// NB: a class around a lock, not a `Protected<Inbox>` of a generic struct: the store's code is not
// specialized for its feature, and there each use of a generic struct type looks up its metadata in
// the runtime's cache, which cost more than the rest of `post`. A class carries its own metadata.
/// Events posted from synchronous code, waiting for a store's executor, and whether a task is on its
/// way to process them.
final class PostedEvents<Event>: @unchecked Sendable {
  /// Whether a task is on its way to drain the events; its lock also guards `events`.
  private let drainScheduled = Protected(false)
  // NB: guarded by the lock of `drainScheduled`.
  /// The events, oldest first.
  @exclusivity(unchecked) private var events: [Event] = []
  /// How many events wait: lets the store skip the lock when there are none.
  private let count = Atomic<Int>(0)

  /// Whether no event waits.
  var isEmpty: Bool { count.load(ordering: .acquiring) == 0 }

  /// Adds an event and returns whether the caller must schedule a task to drain the events.
  func append(_ event: Event) -> Bool {
    drainScheduled.withLock { drainScheduled in
      events.append(event)
      count.add(1, ordering: .releasing)
      guard !drainScheduled else { return false }
      drainScheduled = true
      return true
    }
  }

  /// Takes the waiting events into `batch`, leaving `batch`'s old storage for the next ones.
  func take(swappingWith batch: inout [Event]) {
    drainScheduled.withLock { drainScheduled in
      swap(&events, &batch)
      drainScheduled = false
      count.store(0, ordering: .releasing)
    }
  }
}

/// A weak reference to a store, for work and routes that must not keep it alive.
// NB: written once, in the store's init, before anything can read it from another thread.
final class WeakLink<F: Feature>: @unchecked Sendable {
  weak var store: Store<F>?
}
