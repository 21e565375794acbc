import Dispatch

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
/// is reported as ``StoreReport/workFailed(id:error:)``, or, with no diagnostics hook, printed to
/// standard error by a debug build); stops with ``stop()`` or when released,
/// cancelling its work and ending ``states(bufferingPolicy:)``; settles deterministically with
/// ``settle()``; can be observed; takes events from synchronous code with ``post(_:isolation:)``; performs
/// the core's start decisions before anything else; and ends the work of children that leave the
/// state (``Feature/childWork``). <doc:Architecture#Guarantees> states each of these ten guarantees
/// precisely, with the tests that prove it.
///
/// ## The feature runs off the main actor
///
/// A store calls the core and the executor on its own executor, so it requires the feature's
/// conformances to be usable from any isolation (`SendableMetatype`). In a module with default
/// main-actor isolation a feature's conformances are main-actor isolated, and `Store<Todos>` is an
/// error at that line: run such a feature on ``MainStore``, or mark the feature `nonisolated`.
public actor Store<F: Feature & SendableMetatype> {
  // NB: the event loop and its bookkeeping are in `EventLoop`, shared with `MainStore`, and the
  // observers' plumbing in `StorePublisher`; the store keeps its API, its isolation and its inbox.

  /// The current state.
  public var state: F.State { loop.state }

  /// The loop that processes events and runs work.
  let loop: EventLoop<F>
  /// Which work waits for the test, in a process with test doubles.
  package nonisolated let testWaits: WorkRegistry.TestWaits?
  /// Events posted from synchronous code, waiting for the store's executor.
  nonisolated let posted: PostedEvents<F.Event>
  // NB: created with the first observer: most stores have none, and an idle store should cost
  // as little as possible.
  var publisher: StorePublisher<F>?

  /// Creates a store that runs feature `F` from an initial state.
  ///
  /// The core's start (``Core/makeStartDecisions(state:)``) runs here: the store's state is the
  /// state it returns, and its decisions are performed before anything else the store does.
  /// - Parameters:
  ///   - state: The initial state, before the core's start.
  ///   - deps: The dependencies decisions are performed with.
  ///   - diagnostics: Called on the store's executor with every event, state, decision, ignored event
  ///     and unhandled error, in order (``StoreReport/started`` and the state after the start from
  ///     this initializer, before anything else). Keep it fast; see ``StoreDiagnostic``.
  public init(
    state: F.State,
    deps: F.Deps,
    diagnostics: (@Sendable (Diagnostic) -> Void)? = nil
  ) {
    self.init(state: state, deps: deps, diagnostics: diagnostics, observer: nil)
  }

  /// Creates a store that runs feature `F` from an initial state, with a flight recorder that
  /// keeps its last events: to report a problem with ``flightRecording(note:)``, and to save a
  /// recording when work fails or a rule about the state breaks.
  ///
  /// The same as ``init(state:deps:diagnostics:)`` otherwise.
  /// - Parameters:
  ///   - state: The initial state, before the core's start.
  ///   - deps: The dependencies decisions are performed with.
  ///   - diagnostics: The diagnostics hook, as for ``init(state:deps:diagnostics:)``.
  ///   - recorder: What the flight recorder keeps, and when it saves; nil for no recorder, as
  ///     ``init(state:deps:diagnostics:)`` makes.
  public init(
    state: F.State,
    deps: F.Deps,
    diagnostics: (@Sendable (Diagnostic) -> Void)? = nil,
    recorder: FlightRecorder<F>?
  ) {
    self.init(
      state: state, deps: deps, diagnostics: diagnostics, observer: nil, recorder: recorder)
  }

  /// Creates a store that runs feature `F` from an initial state, with a limit on the events
  /// posted with ``post(_:isolation:)`` that wait at once.
  ///
  /// The same as ``init(state:deps:diagnostics:recorder:)`` otherwise. Other stores have a limit
  /// of ``defaultPostLimit``; ``post(_:isolation:)`` says what happens at the limit.
  /// - Parameters:
  ///   - state: The initial state, before the core's start.
  ///   - deps: The dependencies decisions are performed with.
  ///   - diagnostics: The diagnostics hook, as for ``init(state:deps:diagnostics:)``.
  ///   - recorder: The flight recorder, or nil for none.
  ///   - postLimit: How many posted events may wait for the store at once; at least 1.
  public init(
    state: F.State,
    deps: F.Deps,
    diagnostics: (@Sendable (Diagnostic) -> Void)? = nil,
    recorder: FlightRecorder<F>? = nil,
    postLimit: Int
  ) {
    precondition(postLimit > 0, "Store: postLimit must be at least 1, not \(postLimit)")
    self.init(
      state: state, deps: deps, diagnostics: diagnostics, observer: nil, recorder: recorder,
      postLimit: postLimit)
  }

  /// How many events posted with ``post(_:isolation:)`` may wait for a store at once, unless its
  /// initializer says otherwise: 65,536.
  public static var defaultPostLimit: Int { 65_536 }

  /// How long a thread that may block waits for room when the store's posted events are at their
  /// limit, before its post is refused: 10 seconds.
  public static var postWaitLimit: Duration { .seconds(10) }

  /// Creates a store whose start the caller already ran, or that runs it here: for tests that
  /// begin after the start.
  /// - Parameters:
  ///   - state: The initial state: after the core's start when `startDecisions` is given.
  ///   - deps: The dependencies decisions are performed with.
  ///   - diagnostics: The diagnostics hook.
  ///   - startDecisions: The start decisions to perform, or `nil` to run the core's start here.
  package init(
    state: F.State, deps: F.Deps, diagnostics: (@Sendable (Diagnostic) -> Void)?,
    startDecisions: [F.Decision]?
  ) {
    self.init(
      state: state, deps: deps, diagnostics: diagnostics, observer: nil,
      startDecisions: startDecisions)
  }

  /// Creates a store with a latest-state observer already attached, so it sees every change.
  /// - Parameters:
  ///   - state: The initial state: after the core's start when `startDecisions` is given.
  ///   - deps: The dependencies decisions are performed with.
  ///   - diagnostics: The diagnostics hook.
  ///   - observer: The latest-state observer to attach, if any.
  ///   - startDecisions: The start decisions the caller already had the core make, or `nil` to
  ///     run the core's start here.
  ///   - recorder: The flight recorder, if any.
  ///   - postLimit: How many posted events may wait at once.
  init(
    state: F.State,
    deps: F.Deps,
    diagnostics: (@Sendable (Diagnostic) -> Void)?,
    observer: StateObserver?,
    startDecisions: [F.Decision]? = nil,
    recorder: FlightRecorder<F>? = nil,
    postLimit: Int = Store.defaultPostLimit
  ) {
    let posted = PostedEvents<F.Event>(limit: postLimit)
    let loop = EventLoop<F>(
      state: state, deps: deps, diagnostics: diagnostics, startDecisions: startDecisions,
      posted: posted, recorder: recorder?.savingFromAnActor())
    self.loop = loop
    self.posted = posted
    self.testWaits = loop.registry.testWaits
    if let observer {
      let publisher = StorePublisher<F>(posted: posted)
      publisher.add(observer, latestOnly: true)
      self.publisher = publisher
      loop.setHook(publisher)
    }
    loop.connect(owner: self, isolation: self)
    // NB: the start decisions run the first time the store's executor runs, whatever asks first:
    // this task, a send, posted events, `settle()` or `stop()`.
    if loop.isStartPending {
      Task { [weak self] in await self?.start() }
    }
  }

  // NB: a store released without `stop()` still ends its observers' sequences, or a `for await`
  // over `states()` would wait forever. (Its work is cancelled by the registry's `deinit`.)
  deinit {
    publisher?.finishAll()
  }

  // MARK: - Sending events

  /// Processes an event: runs the core, stores and publishes the new state, performs the decisions.
  ///
  /// Returns once the event has been processed: its quick work is done and its long work has started.
  /// Events posted earlier with ``post(_:isolation:)`` are processed first. After ``stop()`` the event is ignored
  /// and reported to the diagnostics hook.
  public func send(_ event: F.Event) {
    loop.send(event)
  }

  /// Processes an event as ``send(_:)`` does, then hands the latest state to the latest-state
  /// observers at once, even while posted events wait: for ``ObservableStore/sendAndWait(_:)``,
  /// whose model must show the event when it returns.
  func sendShowingLatest(_ event: F.Event) {
    loop.send(event)
    publisher?.publishLatestNow(loop.state)
  }

  /// Processes events in order, as many `send(_:)` calls in a row would, in one visit to the
  /// store's executor: for a burst (an import, a batch of readings) sent from another actor.
  ///
  /// Each event is its own step: the core runs once per event, observers see the state after
  /// each, and a journal records each. Events posted earlier with ``post(_:isolation:)`` are processed
  /// first. Events that work sends back while the batch runs come after the whole batch, because
  /// the batch does not suspend.
  /// - Parameter events: The events, in the order to process them.
  public func send(contentsOf events: [F.Event]) {
    loop.send(contentsOf: events)
  }

  /// Reports an event that never reached the core, for `reason`, to the diagnostics hook: for an
  /// event of a child model whose child is gone.
  package func ignore(_ event: F.Event, reason: IgnoredReason) {
    loop.ignore(event, reason: reason)
  }

  /// Sends an event from synchronous code, without waiting for it to be processed: for UI
  /// callbacks.
  ///
  /// Events posted from one thread are processed in the order posted, and before any event that
  /// thread later sends with ``send(_:)``.
  ///
  /// Posted events wait for the store's executor, at most ``defaultPostLimit`` of them at once, or
  /// the `postLimit` the store was made with. A post that finds them at the limit:
  /// - waits until the store takes them, on the main actor or on a thread outside Swift
  ///   concurrency (a thread of your own, a dispatch queue's, a UI callback), so that a poster goes
  ///   at the store's pace; but waits at most ``postWaitLimit``, and is then refused, so that a
  ///   thread the store itself waits for never deadlocks with it;
  /// - is refused at once in a task off the main actor: on the cooperative pool, which a blocked
  ///   thread would starve, or on the store's own executor, where a wait would never end.
  ///
  /// Refused events are never processed, and never silent: the diagnostics hook hears
  /// ``StoreReport/postLimitReached(limit:refused:)`` after the events that filled the limit
  /// (it hears it too when every post could wait), and a store without a hook has a debug build
  /// print how many it refused. Code in a task that sends many events should `await` ``send(_:)``,
  /// which waits for the store without blocking a thread.
  /// - Parameters:
  ///   - event: The event.
  ///   - isolation: The caller's actor, which tells whether it is the main actor; leave it to its
  ///     default.
  public func post(
    _ event: F.Event, isolation: isolated (any Actor)? = #isolation
  ) {
    switch posted.append(event) {
    case .queuedFirst: Task { await self.processPosted() }
    case .queued, .refused: break
    case .full: postAtLimit(event, onMainActor: isolation === MainActor.shared)
    }
  }

  // NB: the main actor may wait: the store never needs it to make room (it hands states to the
  // main actor without waiting), and a UI whose posts were refused would lose its events. It is
  // told by the caller's isolation, not the thread: on Linux the main actor's jobs may run on a
  // thread other than the main thread.
  /// Posts an event that found the posted events at their limit: waits for room when the caller
  /// may block, else has it refused and counted.
  @inline(never)
  private nonisolated func postAtLimit(_ event: F.Event, onMainActor: Bool) {
    let canWait = onMainActor || withUnsafeCurrentTask { $0 == nil }
    let deadline = DispatchTime.now() + .seconds(Int(Self.postWaitLimit.components.seconds))
    if posted.appendAtLimit(event, canWait: canWait, until: deadline) == .queuedFirst {
      Task { await self.processPosted() }
    }
  }

  private func processPosted() {
    loop.processPosted()
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
    await loop.settle()
  }

  /// Stops the store: cancels all work and ends state observation.
  ///
  /// Events posted with ``post(_:isolation:)`` before the call are processed first; events sent after it are
  /// ignored. Each ignored event is reported as ``StoreReport/ignored(_:reason:)`` with
  /// ``IgnoredReason/stopped``. Stopping twice does nothing.
  public func stop() {
    guard !loop.isStopped else { return }
    // NB: events posted before `stop()` came first, so they are processed before the store stops;
    // and the start decisions came before them.
    loop.processPosted()
    loop.stop()
    publisher?.finishAll()
  }

  /// Whether the store has been stopped.
  public var isStopped: Bool { loop.isStopped }

  /// The flight recorder's last events, with the state before the first of them, for a bug report:
  /// nil when the store has no recorder.
  ///
  /// Events posted before the call are processed first, so the recording ends with them. The
  /// recording is redacted by the recorder's ``FlightRecorder/Redaction``. It works after
  /// ``stop()`` too.
  /// - Parameter note: Why the recording was made, in the app's words: "the user tapped Report".
  /// - Returns: The recording, or nil when the store has no recorder.
  /// - Complexity: O(capacity), plus the redaction's closures.
  public func flightRecording(note: String = "") -> FlightRecording<F>? {
    loop.processPosted()
    return loop.flightRecording(.requested(note: note))
  }

  /// Performs the core's start decisions, if they wait, then the events they queued: for a test
  /// that asserts them.
  package func start() {
    loop.performStartIfPending()
  }

  /// Whether the store's buffers hold far more room than a quiet store needs, for tests of memory
  /// after a burst.
  var isOversized: Bool { loop.isOversized }

  /// How many events and checkpoints the flight recorder holds, for tests of its memory.
  var flightLogHeld: (events: Int, checkpoints: Int)? { loop.flightLogHeld }
}

extension Store: StoreFacade {
  /// The store itself: its loop runs on its own executor.
  package nonisolated var isolation: any Actor { self }

  /// The work that has started and not ended, in the order it started.
  package var workInFlight: [(token: UInt64, scope: [WorkID], id: WorkID?)] {
    loop.registry.entries.all.sorted { $0.token < $1.token }.map {
      ($0.token, $0.entry.scope, $0.entry.id)
    }
  }
}
