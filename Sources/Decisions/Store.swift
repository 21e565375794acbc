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
///
/// A store processes one event at a time; keeps each sender's order, and processes events posted
/// before an awaited ``send(_:)`` first, whatever the priorities; runs long work as tracked tasks
/// that never block it; swallows no error of work (a `catch:` handler turns it into an event, or it
/// is reported as ``Diagnostic/workFailed(id:error:)``, or, with no diagnostics hook, printed to
/// standard error by a debug build); stops with ``stop()`` or when released,
/// cancelling its work and ending ``states(bufferingPolicy:)``; settles deterministically with
/// ``settle()``; can be observed; takes events from synchronous code with ``post(_:)``; performs
/// the core's start decisions before anything else; and ends the work of children that leave the
/// state (``Feature/childWork``). <doc:Architecture#Guarantees> states each of these ten guarantees
/// precisely, with the tests that prove it.
public actor Store<F: Feature> {
  // MARK: - Hot-path rules
  //
  // The store's code is generic and not specialized for `F`: every use of a type built from `F`
  // (`[F.Decision]`, `Diagnostic`, an iterator, an optional of a generic struct) can cost a lookup
  // in the runtime's metadata cache, hundreds of instructions, on every event. Docs/Performance.md
  // measures each rule; `decisions-bench --check-allocations`, run by CI, fails when a plain send
  // allocates or an event with one quick decision allocates more than its decisions array.
  //
  // 1. No per-event use of a generic struct or collection type built from `F`: keep such state in a
  //    final class (`PostedEvents`, `QueuedEvents`, `StateObservers`), which carries its own
  //    metadata, and keep what every event reads (flags, the host's parts) in the store's own
  //    fields: reaching into a generic class still costs an associated-type lookup.
  // 2. Flags, not `isEmpty`, for "is there anything to do" checks on every event.
  // 3. Index loops, not `for … in` (an iterator is a generic struct).
  // 4. Diagnostics are built in `@inline(never)` functions, called only when a hook is set: building
  //    a `Diagnostic` inline looks up its metadata even when no one listens.
  // 5. No suspension point between taking an event and performing its last decision: that is what
  //    makes event processing atomic (guarantee 1).

  // NB: unchecked exclusivity: only the store's executor touches `state`, and the pure core cannot
  // reach it during `makeDecisions`. Unspecialized, the dynamic check costs about 80 instructions
  // per event, a third of an event without decisions.
  /// The current state.
  @exclusivity(unchecked) public private(set) var state: F.State

  // NB: not public: deps are for performing decisions, and code outside a decision that calls them
  // would act behind the core's back.
  /// The dependencies decisions are performed with.
  private let deps: F.Deps

  private let diagnostics: (@Sendable (Diagnostic) -> Void)?
  private var phase = Phase.running
  // NB: the parts of the store's `WorkHost`, kept in the store's own fields (rule 1): reaching them
  // through the generic host costs an associated-type lookup per use.
  /// The work the executor started.
  private let registry: WorkRegistry
  /// The route that work sends events along.
  private let root: EventRoute<F.Event>
  /// The events that decisions queued with `Effects.send`.
  private let queued: QueuedEvents<F.Event>
  /// Which work waits for the test, in a process with test doubles.
  package nonisolated let workActivity: WorkActivity?
  /// Events posted from synchronous code, waiting for the store's executor.
  private nonisolated let posted = PostedEvents<F.Event>()
  // NB: created with the first observer: most stores have none, and an idle store should cost
  // as little as possible.
  private var observers: StateObservers<F.State>?
  /// The states the store's `.unbounded` readers share, while any reads them.
  private var stateLog: StateLog<F.State>?
  // NB: unchecked exclusivity: only the store's executor touches it; read once per finished work.
  @exclusivity(unchecked) private var settleWaiters = SettleWaiters()
  /// Whether any every-state observer is attached (rule 2).
  private var wantEveryState = false
  /// Whether any latest-state observer is attached (rule 2).
  private var wantLatestState = false
  /// Whether the latest-state observers have not yet received the current state.
  private var latestIsStale = false
  /// The id of the last observer attached.
  private var nextObserverID: UInt64 = 0
  /// Whether the core's start decisions wait to be performed (rule 2).
  private var isStartPending = false
  /// The core's start decisions, until they are performed.
  private var startDecisions: [F.Decision] = []

  /// The life of a store: it runs until ``Store/stop()``, and then ignores events.
  private enum Phase {
    /// Processing events.
    case running
    /// Stopped: work cancelled, events ignored.
    case stopped
  }

  /// Creates a store that runs feature `F` from an initial state.
  ///
  /// The core's start (``Core/makeStartDecisions(state:)``) runs here: the store's state is the
  /// state it returns, and its decisions are performed before anything else the store does.
  /// - Parameters:
  ///   - state: The initial state, before the core's start.
  ///   - deps: The dependencies decisions are performed with.
  ///   - diagnostics: Called on the store's executor with every event, state, decision, ignored event
  ///     and unhandled error, in order (``Diagnostic/started`` and the state after the start from
  ///     this initializer, before anything else). Keep it fast; see ``Diagnostic``.
  public init(
    state: F.State,
    deps: F.Deps,
    diagnostics: (@Sendable (Diagnostic) -> Void)? = nil
  ) {
    self.init(state: state, deps: deps, diagnostics: diagnostics, observer: nil)
  }

  /// Creates a store with a latest-state observer already attached, so it sees every change.
  /// - Parameters:
  ///   - state: The initial state: after the core's start when `startDecisions` is given.
  ///   - deps: The dependencies decisions are performed with.
  ///   - diagnostics: The diagnostics hook.
  ///   - observer: The latest-state observer to attach, if any.
  ///   - startDecisions: The start decisions the caller already had the core make, or `nil` to
  ///     run the core's start here.
  init(
    state: F.State,
    deps: F.Deps,
    diagnostics: (@Sendable (Diagnostic) -> Void)?,
    observer: StateObserver?,
    startDecisions: [F.Decision]? = nil
  ) {
    var state = state
    let start = startDecisions ?? F.makeStartDecisions(state: &state)
    self.state = state
    self.deps = deps
    self.diagnostics = diagnostics
    let link = ActorOwnerLink<Store<F>>()
    let workHost = WorkHost(link: link, reportsRequests: diagnostics != nil)
    self.registry = workHost.registry
    self.root = workHost.root
    self.queued = workHost.queued
    self.workActivity = workHost.registry.activity
    if let observer {
      let observers = StateObservers<F.State>()
      observers.add(observer, latestOnly: true)
      self.observers = observers
      wantLatestState = true
    }
    if !start.isEmpty {
      self.startDecisions = start
      isStartPending = true
    }
    link.connect(to: self)
    if let diagnostics {
      diagnostics(.started)
      diagnostics(.state(state))
    }
    // NB: the start decisions run the first time the store's executor runs, whatever asks first:
    // this task, a send, posted events, `settle()` or `stop()`.
    if !start.isEmpty {
      Task { [weak self] in await self?.performStartIfPending() }
    }
  }

  // NB: a store released without `stop()` still ends its observers' sequences, or a `for await`
  // over `states()` would wait forever. (Its work is cancelled by the registry's `deinit`.)
  deinit {
    observers?.finishAll()
  }

  // MARK: - Sending events

  /// Processes an event: runs the core, stores and publishes the new state, performs the decisions.
  ///
  /// Returns once the event has been processed: its quick work is done and its long work has started.
  /// Events posted earlier with ``post(_:)`` are processed first. After ``stop()`` the event is ignored
  /// and reported to the diagnostics hook.
  public func send(_ event: F.Event) {
    if isStartPending { performStartIfPending() }  // rule 2
    if !posted.isEmpty { processPosted() }
    process(event)
    if latestIsStale { publishLatestIfCaughtUp() }
  }

  /// Processes events in order, as many `send(_:)` calls in a row would, in one visit to the
  /// store's executor: for a burst (an import, a batch of readings) sent from another actor.
  ///
  /// Each event is its own step: the core runs once per event, observers see the state after
  /// each, and a journal records each. Events posted earlier with ``post(_:)`` are processed
  /// first. Events that work sends back while the batch runs come after the whole batch, because
  /// the batch does not suspend.
  /// - Parameter events: The events, in the order to process them.
  public func send(contentsOf events: [F.Event]) {
    if isStartPending { performStartIfPending() }
    if !posted.isEmpty { processPosted() }
    var index = 0  // rule 3
    while index < events.count {
      process(events[index])
      index += 1
    }
    if latestIsStale { publishLatestIfCaughtUp() }
  }

  /// Sends an event from synchronous code, without waiting: for UI callbacks.
  ///
  /// Events posted from one thread are processed in the order posted, and before any event that thread
  /// later sends with ``send(_:)``.
  public nonisolated func post(_ event: F.Event) {
    if posted.append(event) {
      Task { await self.processPosted() }
    }
  }

  /// Returns once no event is queued and no tracked work is running, cancelled work included,
  /// except work that waits for the test.
  ///
  /// Use it in integration tests instead of expectations or sleeps:
  /// ```swift
  /// await store.send(.didTapButton)
  /// await store.settle()
  /// #expect(await store.state == .loaded("hi"))
  /// ```
  /// **Work that waits for the test** cannot go on until the test acts, so it counts as settled:
  /// work asleep on a `TestClock`, or in a call of a `ControlledDependency` (both from
  /// `DecisionsTesting`). `settle()` does not move a test clock: a pending timer stays pending, and
  /// the test fires it with the clock's `advance(by:)`. On any other clock, such as
  /// `ContinuousClock`, `settle()` waits for the timer like for any other work.
  ///
  /// Work that never finishes keeps `settle()` waiting, until the waiting
  /// task is cancelled: then `settle()` returns at once, settled or not, so a test's time limit can
  /// end it.
  public func settle() async {
    performStartIfPending()
    processPosted()
    if isSettled { return }
    let id = settleWaiters.makeID()
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled {
          continuation.resume()
        } else {
          settleWaiters.add(continuation, id: id)
        }
      }
    } onCancel: {
      Task { await self.resumeSettleWaiter(id) }
    }
  }

  private func resumeSettleWaiter(_ id: UInt64) {
    settleWaiters.resume(id: id)
  }

  /// Stops the store: cancels all work and ends state observation.
  ///
  /// Events posted with ``post(_:)`` before the call are processed first; events sent after it are
  /// ignored. Each ignored event is reported as ``Diagnostic/ignored(_:reason:)`` with
  /// ``IgnoredReason/stopped``. Stopping twice does nothing.
  public func stop() {
    guard case .running = phase else { return }
    // NB: events posted before `stop()` came first, so they are processed before the store stops;
    // and the start decisions came before them.
    performStartIfPending()
    processPosted()
    phase = .stopped
    registry.cancelEverything()
    observers?.finishAll()
    updateObserverFlags()
    resumeSettleWaitersIfSettled()
  }

  /// Whether the store has been stopped.
  public var isStopped: Bool {
    if case .stopped = phase { return true }
    return false
  }

  // MARK: - The event loop

  /// Processes the events posted so far, then hands latest-state observers the result and resumes
  /// settled waiters.
  private func processPosted() {
    if isStartPending { performStartIfPending() }
    posted.processAll { process($0) }
    if latestIsStale { publishLatestIfCaughtUp() }
    resumeSettleWaitersIfSettled()
  }

  /// Performs the core's start decisions, if they wait, then the events they queued: for a test
  /// that asserts them.
  package func start() {
    performStartIfPending()
  }

  /// Performs the core's start decisions, if they wait, then the events they queued.
  private func performStartIfPending() {
    guard isStartPending else { return }
    isStartPending = false
    let decisions = startDecisions
    startDecisions = []
    perform(decisions)
    processQueued()
    if registry.childWorkCount != 0 { endWorkOfGoneChildren() }
    resumeSettleWaitersIfSettled()
  }

  /// Processes one event that arrived, then the events its decisions queued, in order.
  private func process(_ event: F.Event) {
    guard case .running = phase else {
      if diagnostics != nil { report(ignored: event, reason: .stopped) }
      return
    }
    // NB: only decisions queue events (with `Effects.send`), so after an event that decided nothing
    // the queue is still empty and need not be read.
    if apply(event) { processQueued() }
    // NB: before any suspension point (rule 5): a child's result that arrives from now on finds its
    // work cancelled.
    if registry.childWorkCount != 0 { endWorkOfGoneChildren() }
  }

  /// Cancels the work of the children that left the state, and reports work that no child lifetime
  /// covers (see ``Feature/childWork``).
  @inline(never)
  private func endWorkOfGoneChildren() {
    registry.endWorkOfGoneChildren(of: F.self, in: self.state, diagnostics: diagnostics)
  }

  /// Applies the events queued with `Effects.send`, including ones queued while applying them.
  private func processQueued() {
    // NB: no `removeAll` when nothing was queued: unspecialized, it costs more than the check.
    guard queued.events.count != 0 else { return }
    var index = 0  // rule 3
    while index < queued.events.count {
      _ = apply(queued.events[index])
      index += 1
    }
    queued.removeAll()
  }

  // NB: rule 5: no suspension point from here to the event's last decision.
  /// Runs the core on one event, stores and publishes the new state, and performs the decisions.
  ///
  /// Returns whether the event decided anything.
  private func apply(_ event: F.Event) -> Bool {
    if diagnostics != nil { report(received: event) }  // rule 4
    let decisions = F.makeDecisions(event: event, state: &state)
    if diagnostics != nil { reportState() }
    if wantEveryState { publish() }  // rule 2
    if wantLatestState { latestIsStale = true }
    guard decisions.count != 0 else { return false }  // rule 2
    perform(decisions)
    return true
  }

  /// Performs decisions through the executor, in order.
  private func perform(_ decisions: [F.Decision]) {
    let effects = Effects(registry: registry, route: root, scope: [])
    var index = 0  // rule 3
    while index < decisions.count {
      if diagnostics != nil { report(decided: decisions[index]) }
      F.execute(decisions[index], deps: deps, effects: effects)
      index += 1
    }
  }

  // MARK: - Settling

  // NB: the queue of `Effects.send` events is not part of this: it is filled and emptied within one
  // call of `process(_:)`, which has no suspension point (rule 5), so whenever code can ask, it is
  // empty.
  /// Whether no posted event waits and no work runs.
  private var isSettled: Bool {
    posted.isEmpty && registry.isWaitingForTest
  }

  private func resumeSettleWaitersIfSettled() {
    guard !settleWaiters.isEmpty, isSettled else { return }
    settleWaiters.resumeAll()
  }

  // MARK: - Diagnostics (rule 4)

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
  private func report(ignored event: F.Event, reason: IgnoredReason) {
    diagnostics?(.ignored(event, reason: reason))
  }

  @inline(never)
  private nonisolated func report(workStarted id: WorkID?) {
    diagnostics?(.workStarted(id: id))
  }

  @inline(never)
  private func report(workFinished id: WorkID?, error: (any Error)?) {
    if let error { diagnostics?(.workFailed(id: id, error: error)) }
    diagnostics?(.workFinished(id: id))
  }

  // MARK: - Observers

  /// Attaches an observer and returns the current state, atomically, so no state is missed.
  ///
  /// An observer attached to a stopped store is not kept; the caller finishes it after using the
  /// state.
  /// - Parameters:
  ///   - observer: The observer to attach.
  ///   - latestOnly: Whether the observer wants only the latest state, once the store has caught up
  ///     with posted events, instead of every state.
  /// - Returns: The current state.
  @usableFromInline
  func addObserver(_ observer: StateObserver, latestOnly: Bool = false)
    -> F.State
  {
    if case .running = phase {
      let observers = self.observers ?? StateObservers()
      observers.add(observer, latestOnly: latestOnly)
      self.observers = observers
      updateObserverFlags()
    }
    return state
  }

  /// Adds a reader to the store's log of states for `.unbounded` readers, making the log with
  /// `makeLog` (from an observer id) if the store has none open; `nil` once the store has stopped.
  @usableFromInline
  func stateLogReader(
    makeLog: (_ id: UInt64) -> (StateLog<F.State>, StateObserver)
  ) -> StateLogReader<F.State>? {
    guard case .running = phase else { return nil }
    if let stateLog, let reader = stateLog.addReader(first: state) { return reader }
    let (log, observer) = makeLog(makeObserverID())
    stateLog = log
    _ = addObserver(observer)
    return log.addReader(first: state)
  }

  /// Lets the log of states with observer `id` go if it still has no reader: its last reader left.
  @usableFromInline
  func releaseStateLog(id: UInt64) {
    guard let stateLog, stateLog.id == id else {
      // NB: a log the store already dropped, because a state found it empty.
      removeObserver(id: id)
      return
    }
    guard stateLog.closeIfUnused() else { return }
    self.stateLog = nil
    removeObserver(id: id)
  }

  /// How many states the log of `.unbounded` readers keeps, for tests of its memory.
  var stateLogKeptCount: Int { stateLog?.keptCount ?? 0 }

  /// Returns an id for a new observer.
  @usableFromInline
  func makeObserverID() -> UInt64 {
    nextObserverID += 1
    return nextObserverID
  }

  /// Detaches the observer with `id`.
  @usableFromInline
  func removeObserver(id: UInt64) {
    observers?.remove(id: id)
    updateObserverFlags()
  }

  private func updateObserverFlags() {
    wantEveryState = observers?.wantEveryState ?? false
    wantLatestState = observers?.wantLatestState ?? false
  }

  /// Gives every every-state observer the current state.
  private func publish() {
    guard let observers else { return }
    observers.publish(state)
    if !observers.wantEveryState { wantEveryState = false }
  }

  /// How many observers are attached, for tests.
  var observerCount: Int { observers?.count ?? 0 }

  /// Gives latest-state observers the current state, unless posted events are still waiting: a
  /// burst of events then reaches them once, at its end.
  private func publishLatestIfCaughtUp() {
    guard posted.isEmpty else { return }
    latestIsStale = false
    guard let observers else { return }
    observers.publishLatest(state)
    if !observers.wantLatestState { wantLatestState = false }
  }

  /// Whether the store's buffers hold far more room than a quiet store needs, for tests of memory
  /// after a burst.
  var isOversized: Bool {
    registry.isOversized || posted.isOversized || queued.isOversized
  }
}

// MARK: - Work

extension Store: WorkHostOwner {
  package typealias Event = F.Event

  package var workRegistry: WorkRegistry { registry }

  package nonisolated func workStarted(id: WorkID?) {
    if diagnostics != nil { report(workStarted: id) }
  }

  package nonisolated func cancelRequested(_ request: CancelRequest) {}

  package func workSent(_ event: F.Event) {
    send(event)
  }

  package func workSendDropped(_ event: F.Event, reason: IgnoredReason) {
    if diagnostics != nil { report(ignored: event, reason: isStopped ? .stopped : reason) }
  }

  package func workBeganWaiting() {
    resumeSettleWaitersIfSettled()
  }

  package func workFinished(id: WorkID?, error: (any Error)?) {
    if diagnostics != nil {
      report(workFinished: id, error: error)
    } else if let error {
      UnheardErrors.report(error, id: id, feature: F.self)
    }
    resumeSettleWaitersIfSettled()
  }
}
