/// The event loop behind ``Store`` and ``MainStore``: everything that happens after an event
/// reaches a store, whatever the store's isolation.
///
/// It runs the core on each event, keeps the state, performs decisions through the executor,
/// applies the events decisions queue, ends the work of children that leave the state, takes work's
/// reports (started, an event, finished, waiting for the test), settles, starts and stops. The
/// stores are facades: each keeps its public API, its isolation, its inbox and its observation, and
/// hears of state changes through a ``StateHook``.
///
/// Used only on its store's isolation: the store's actor for a ``Store``, the main actor for a
/// ``MainStore``. Work reaches it through its ``LoopLink``, which hops to that isolation.
///
/// ## Hot-path rules
///
/// The loop's code is generic and not specialized for `F`: every use of a type built from `F`
/// (`[F.Decision]`, `Diagnostic`, an iterator, an optional of a generic struct) can cost a lookup
/// in the runtime's metadata cache, hundreds of instructions, on every event. Docs/Performance.md
/// measures each rule; `decisions-bench --check-allocations`, run by CI, fails when a plain send
/// allocates or an event with one quick decision allocates more than its decisions array.
///
/// 1. No per-event use of a generic struct or collection type built from `F`: keep such state in a
///    final class (`QueuedEvents`, the stores' observers), which carries its own metadata, and keep
///    what every event reads (flags, the registry, the route) in the loop's own fields.
/// 2. Flags, not `isEmpty`, for "is there anything to do" checks on every event.
/// 3. Index loops, not `for … in` (an iterator is a generic struct).
/// 4. Diagnostics are built in `@inline(never)` functions, called only when a hook is set: building
///    a `Diagnostic` inline looks up its metadata even when no one listens.
/// 5. No suspension point between taking an event and performing its last decision: that is what
///    makes event processing atomic (guarantee 1).
/// 6. A rare path that copies an `F.Event` or `F.State` goes in an `@inline(never)` function: the
///    compiler looks up the type's metadata at the top of the function that holds the copy, on
///    every call, whether or not the path runs.
final class EventLoop<F: Feature> {
  typealias Diagnostic = StoreDiagnostic<F>

  private let diagnostics: (@Sendable (Diagnostic) -> Void)?
  // NB: a flag rather than `diagnostics != nil` (rules 2 and 4): comparing the optional closure
  // with `nil` instantiates the metadata of `Report<any Error>`, twice per event.
  /// Whether `diagnostics` is set and hears everything the loop does.
  private let hasDiagnostics: Bool
  /// The registry, route and queue that ``replay(_:startingAs:with:)`` performs a decision against,
  /// and the token it starts the work with.
  private var replayRegistry: WorkRegistry?
  private var replayRoute: RootRoute<F>?
  private var replayQueue: QueuedEvents<F.Event>?
  private var replayTarget: ReplayTarget?
  /// Hears each decision before it is performed: for the exploration of effects, which starts a
  /// piece of work again from the decision that started it (see ``replay(_:startingAs:with:)``).
  @exclusivity(unchecked) private var decisionHook: ((F.Decision) -> Void)?
  // NB: one flag for the diagnostics and the hook: one branch per decision, as before the hook.
  /// Whether a decision is reported or heard before it is performed.
  @exclusivity(unchecked) private var watchesDecisions: Bool
  // NB: for the exploration of effects, which needs only the problems: every other report cost it
  // a `Diagnostic` built, its metadata looked up and the hook called, several times per step.
  /// Whether `diagnostics` is set and hears only problems: work that failed with an error no
  /// handler took, and work without a child lifetime.
  private let hasProblemsHook: Bool
  /// The work the executor started.
  let registry: WorkRegistry
  // NB: kept, not built per event: a handle built for each event retained and released the
  // registry and the route. Its size does not depend on `F` (three references), so its offset is
  // known (rule 1).
  /// The handle the executor starts work with, at the top scope.
  private let effects: Effects<F.Event>
  /// The events that decisions queued with `Effects.send`.
  private let queued: QueuedEvents<F.Event>
  /// How work reaches this loop.
  let link: LoopLink<F>
  /// Whether ``stop()`` was called.
  private(set) var isStopped = false
  /// Whether the core's start decisions wait to be performed (rule 2).
  private(set) var isStartPending = false
  /// The core's start decisions, until they are performed.
  private var startDecisions: [F.Decision] = []
  /// Whether an event is being processed: an event sent meanwhile (by a state hook, or by a dep
  /// that calls the store) waits in `waiting`.
  private var isProcessing = false
  /// Events sent while another was being processed, oldest first.
  @exclusivity(unchecked) private var waiting: [F.Event] = []
  /// Whether `waiting` holds events (rule 2).
  private var hasWaiting = false
  // NB: not optional: a `MainStore`, which has no inbox, gets an empty one, so each send checks
  // it with one atomic load and no retain.
  /// Events posted from synchronous code to a ``Store``, waiting for its executor.
  private let posted: PostedEvents<F.Event>
  // NB: unchecked exclusivity: only the store's isolation touches it; read once per finished work.
  @exclusivity(unchecked) private var settleWaiters = SettleWaiters()
  /// What the store does when the state changes; set only while `hasHook`.
  private var hook: StateHook<F.State>?
  // NB: calls go through an unowned reference: through `hook`, each cost a retain and a release.
  /// `hook`, for calls: `hook` keeps it alive.
  private unowned(unsafe) var hookRef: StateHook<F.State>?
  /// Whether `hook` is set (rule 2).
  private var hasHook = false
  /// Whether the hook asked to hear of each state change before it happens.
  private var hookWantsWillChange = false
  /// Whether a hook is set and wants to hear when the loop has caught up, after each send.
  private var hookWantsCatchUp: Bool {
    hasHook && hookRef.unsafelyUnwrapped.wantsCatchUp
  }
  /// The fingerprints of the children of each declaration in `F.childWork` at the last check of
  /// their work's lifetimes (see ``Feature/changedChildren(in:marks:)``).
  @exclusivity(unchecked) private var checkedMarks: [UInt64?] = []
  // NB: read from `F.childWork` once, at the first check: each is specialized for the feature, and
  // the array's type does not depend on `F` (rule 1).
  /// The fingerprint of each declaration in `F.childWork`, of the state at a pointer.
  @exclusivity(unchecked) private var childFingerprints: [(UnsafeRawPointer) -> UInt64?]?
  // NB: a class, which keeps its own metadata (rule 1). A `let`: calls through it need no retain
  // and release, which calls through an unowned reference loaded from a field cost (about 40
  // instructions per event, callgrind).
  /// The flight recorder's memory, if the store has a recorder.
  private let flight: FlightLog<F.Event, F.State>?
  /// Whether the store has a flight recorder (rule 2).
  private let isRecording: Bool
  /// Whether the flight recorder checks an invariant after each event (rule 2).
  private let checksInvariant: Bool

  // NB: the two fields whose size depends on `F` come last: every field before them has an offset
  // the compiler knows, rather than one read from the class's metadata at each use.
  // NB: unchecked exclusivity: only the store's isolation touches `state`, and the pure core cannot
  // reach it during `makeDecisions`. Unspecialized, the dynamic check costs about 80 instructions
  // per event, a third of an event without decisions.
  /// The current state.
  @exclusivity(unchecked) package private(set) var state: F.State

  // NB: not public anywhere: deps are for performing decisions, and code outside a decision that
  // calls them would act behind the core's back.
  private let deps: F.Deps
  // NB: after the fields whose size depends on `F`: read only on the recorder's rare paths.
  /// The flight recorder's settings, if the store has a recorder.
  private let recorder: FlightRecorder<F>?

  /// Creates the loop of a store, and has the core make its start decisions: performed the first
  /// time the loop runs (see ``performStartIfPending()``).
  /// - Parameters:
  ///   - state: The initial state, before the core's start.
  ///   - deps: The dependencies decisions are performed with.
  ///   - diagnostics: The store's diagnostics hook; hears ``StoreReport/started`` and the
  ///     state after the start before this returns.
  ///   - startDecisions: The start decisions the caller already had the core make (with `state`
  ///     the state after them), or `nil` to run the core's start here.
  ///   - posted: The store's inbox of events posted from synchronous code, if it has one: each
  ///     send processes them first.
  ///   - recorder: The store's flight recorder, if it has one.
  ///   - reportsOnlyProblems: Whether `diagnostics` hears only ``StoreReport/workFailed(id:error:)``
  ///     and ``StoreReport/workWithoutLifetime(scope:)``, and not what the loop does otherwise.
  init(
    state: F.State,
    deps: F.Deps,
    diagnostics: (@Sendable (Diagnostic) -> Void)?,
    startDecisions: [F.Decision]? = nil,
    posted: PostedEvents<F.Event>? = nil,
    recorder: FlightRecorder<F>? = nil,
    reportsOnlyProblems: Bool = false
  ) {
    var state = state
    let start = startDecisions ?? F.makeStartDecisions(state: &state)
    self.state = state
    self.deps = deps
    self.diagnostics = diagnostics
    self.hasDiagnostics = diagnostics != nil && !reportsOnlyProblems
    self.hasProblemsHook = diagnostics != nil && reportsOnlyProblems
    self.watchesDecisions = hasDiagnostics
    self.posted = posted ?? PostedEvents()
    let link = LoopLink<F>()
    let queued = QueuedEvents<F.Event>()
    self.link = link
    self.queued = queued
    // NB: starts are reported only to a diagnostics hook.
    self.registry = WorkRegistry(link: link, reportsRequests: hasDiagnostics)
    self.effects = Effects(
      registry: registry, route: RootRoute(queued: queued, link: link), scope: [])
    self.recorder = recorder
    let flight = recorder.map { recorder in
      FlightLog<F.Event, F.State>(
        capacity: recorder.capacity, interval: recorder.checkpointInterval,
        invariant: recorder.invariant?.holds)
    }
    self.flight = flight
    self.isRecording = flight != nil
    self.checksInvariant = flight?.checksInvariant ?? false
    // NB: the loop hears of work's waits only while a caller waits for it to settle: the report
    // is a task that holds the store, which would outlive its last reference otherwise.
    registry.setListening(false)
    if !start.isEmpty {
      self.startDecisions = start
      isStartPending = true
    }
    if hasDiagnostics, let diagnostics {
      diagnostics(.started)
      diagnostics(.state(state))
    }
  }

  /// Connects the loop to the store that owns it, which keeps it alive, and to the isolation it
  /// runs on: the store itself for a ``Store``, the main actor for a ``MainStore``.
  func connect(owner: AnyObject & Sendable, isolation: any Actor) {
    link.connect(owner: owner, isolation: isolation, loop: self)
  }

  // MARK: - State hooks

  /// Has the hook hear when the loop has caught up, after each send, or not.
  ///
  /// A store whose hook has nothing to do then saves the call. On by default once a hook is set.
  func setHookWantsCatchUp(_ wants: Bool) {
    hookRef?.wantsCatchUp = wants
  }

  /// Has `hook` hear of every state change from now on, or no hook, with `nil`.
  func setHook(_ hook: StateHook<F.State>?) {
    self.hook = hook
    hookRef = hook
    hasHook = hook != nil
    hookWantsWillChange = hook?.wantsWillChange ?? false
  }

  // MARK: - Events

  /// Processes an event: runs the core, stores the new state, performs the decisions, then the
  /// events they queued.
  ///
  /// Events posted earlier are processed first. An event sent while another is being processed (by
  /// a state hook, or by a dep that calls the store) is processed right after it, in order. After
  /// ``stop()`` the event is ignored and reported to the diagnostics hook.
  func send(_ event: F.Event) {
    if isStartPending { performStartIfPending() }  // rule 2
    guard !isProcessing else { return wait(event) }
    isProcessing = true
    if !posted.isEmpty { processPostedBatch() }
    process(event)
    if hasWaiting || hookWantsCatchUp { finishSend() }
    isProcessing = false
  }

  // NB: rule 6: a path that copies an `F.Event` (here, into `waiting`) needs the event type's
  // metadata, which the compiler looks up at the top of the function whether or not the path runs.
  /// Keeps an event sent while another is processed, to process right after it.
  @inline(never)
  private func wait(_ event: F.Event) {
    waiting.append(event)
    hasWaiting = true
  }

  /// Processes events in order, as many ``send(_:)`` calls in a row would, and tells the hook
  /// once, at the end.
  func send(contentsOf events: [F.Event]) {
    if isStartPending { performStartIfPending() }
    guard !isProcessing else {
      waiting.append(contentsOf: events)
      hasWaiting = !waiting.isEmpty
      return
    }
    isProcessing = true
    if !posted.isEmpty { processPostedBatch() }
    var index = 0  // rule 3
    while index < events.count {
      process(events[index])
      index += 1
    }
    if hasWaiting || hookWantsCatchUp { finishSend() }
    isProcessing = false
  }

  /// Processes the events posted so far, tells the hook, and resumes settled waiters.
  func processPosted() {
    if isStartPending { performStartIfPending() }
    if !isProcessing, !posted.isEmpty {
      isProcessing = true
      processPostedBatch()
      if hasWaiting || hookWantsCatchUp { finishSend() }
      isProcessing = false
    }
    resumeSettleWaitersIfSettled()
  }

  /// Processes the events posted so far, then reports that they reached the store's limit of
  /// posted events, if they did.
  private func processPostedBatch() {
    if let refused = posted.processAll({ process($0) }) { reportPostLimit(refused: refused) }
  }

  /// Processes the events sent while the last one was processed, and tells the hook that the loop
  /// caught up, until neither adds more.
  @inline(never)
  private func finishSend() {
    // NB: index loops: an event processed here, or a hook that hears of the change, may send more.
    var index = 0
    repeat {
      while index < waiting.count {
        process(waiting[index])
        index += 1
      }
      if hookWantsCatchUp { hookRef.unsafelyUnwrapped.didCatchUp(with: state) }
    } while index < waiting.count
    if index != 0 {
      waiting.removeAll(keepingCapacity: waiting.capacity <= 64)
      hasWaiting = false
    }
  }

  /// Processes one event, then the events its decisions queued, in order.
  private func process(_ event: F.Event) {
    guard !isStopped else {
      if hasDiagnostics { report(ignored: event, reason: .stopped) }
      return
    }
    // NB: only decisions queue events (with `Effects.send`), so after an event that decided
    // nothing the queue is still empty and need not be read.
    if apply(event) { processQueued() }
  }

  /// Applies the events queued with `Effects.send`, including ones queued while applying them.
  private func processQueued() {
    // NB: no `removeAll` when nothing was queued: unspecialized, it costs more than the check.
    guard !queued.isEmpty else { return }
    var index = 0  // rule 3
    while index < queued.events.count {
      if isStopped {
        if hasDiagnostics { reportStopped(queued.events[index...]) }
        break
      }
      _ = apply(queued.events[index])
      index += 1
    }
    queued.removeAll()
  }

  // NB: rule 5: no suspension point from here to the event's last decision.
  /// Runs the core on one event, stores the new state, performs the decisions, and ends the work of
  /// the children the event removed.
  ///
  /// Returns whether the event decided anything.
  private func apply(_ event: F.Event) -> Bool {
    if hasDiagnostics { report(received: event) }  // rule 4
    if isRecording, flight.unsafelyUnwrapped.record(event) { keepCheckpoint() }  // rule 6
    if hookWantsWillChange { hookRef.unsafelyUnwrapped.willChange() }
    let decisions = F.makeDecisions(event: event, state: &state)
    if checksInvariant { checkInvariant() }
    if hasDiagnostics { reportState() }
    if hasHook { tellHookOfChange() }  // rule 6
    let decided = decisions.count != 0  // rule 2
    if decided { perform(decisions) }
    // NB: after each event, not each send: a child that this event removes and a queued event adds
    // back is a new child. Before any suspension point (rule 5): a gone child's result that arrives
    // from now on finds its work cancelled.
    if registry.childWorkCount != 0 { endWorkOfGoneChildren() }
    return decided
  }

  /// Tells the hook the state after an event.
  @inline(never)
  private func tellHookOfChange() {
    hookRef.unsafelyUnwrapped.didChange(to: state)
  }

  /// Performs decisions through the executor, in order, until a decision stops the store.
  private func perform(_ decisions: [F.Decision]) {
    var index = 0  // rule 3
    while index < decisions.count, !isStopped {
      if watchesDecisions { watch(decisions[index]) }
      F.execute(decisions[index], deps: deps, effects: effects)
      index += 1
    }
  }

  /// Cancels the work of the children that left the state, and reports work that no child lifetime
  /// covers (see ``Feature/childWork``).
  // NB: an event costs what it changed, not the number of children with work: by the declarations'
  // fingerprints, the check is skipped when no child came or went, and looks only at the work of
  // the children added or removed when a declaration can name them. This is sound because every
  // piece of child work was either checked in a state with the declaration's last fingerprint, or
  // started since, in the current state (work starts only while an event is applied, before its
  // check), and so is alive unless its own child is one that came or went.
  @inline(never)
  private func endWorkOfGoneChildren() {
    // NB: `&state` as a pointer, not `withUnsafeMutablePointer(to:)`: unspecialized, that looked up
    // `Result`'s metadata at each call (about 330 instructions).
    if !registry.hasUnreported, childrenAreAsChecked(state: &state) { return }
    let change = F.changedChildren(in: state, marks: &checkedMarks)
    let scopes: [[WorkID]]?
    switch change {
    case .none:
      guard registry.hasUnreported else { return }
      scopes = []
    case .scopes(let changed): scopes = changed
    case .unknown: scopes = nil
    }
    registry.endWorkOfGoneChildren(
      of: F.self, in: state, scopes: scopes, diagnostics: diagnostics)
  }

  /// Whether every declaration's fingerprint of `state`, the loop's state, is the one it had at the
  /// last check: no child came or went since.
  private func childrenAreAsChecked(state: UnsafeMutablePointer<F.State>) -> Bool {
    guard let childFingerprints else {
      childFingerprints = F.childWork.map(\.fingerprintOfStateAt)
      return false
    }
    guard checkedMarks.count == childFingerprints.count else { return false }
    let state = UnsafeRawPointer(state)
    var index = 0  // rule 3
    while index < childFingerprints.count {
      guard let fingerprint = childFingerprints[index](state), fingerprint == checkedMarks[index]
      else { return false }
      index += 1
    }
    return true
  }

  // MARK: - Start and stop

  /// Performs the core's start decisions, if they wait, then the events they queued.
  func performStartIfPending() {
    guard isStartPending else { return }
    isStartPending = false
    let decisions = startDecisions
    startDecisions = []
    let wasProcessing = isProcessing
    isProcessing = true
    perform(decisions)
    processQueued()
    if registry.childWorkCount != 0 { endWorkOfGoneChildren() }
    if !wasProcessing, hasWaiting || hookWantsCatchUp { finishSend() }
    isProcessing = wasProcessing
    resumeSettleWaitersIfSettled()
  }

  /// Moves a loop with no work, nothing queued and no event being processed to `state`, as if it
  /// had been made from it, with its start decisions performed: for the exploration of effects
  /// (see ``SteppedLoop/reset(to:)``).
  func reset(to state: F.State) {
    self.state = state
    // NB: as a new loop's: the first check of the children's lifetimes looks at every declaration.
    checkedMarks = []
    childFingerprints = nil
  }

  /// Sets the hook that hears each decision before it is performed.
  func setDecisionHook(_ hook: @escaping (F.Decision) -> Void) {
    decisionHook = hook
    watchesDecisions = true
  }

  // NB: against a registry and a route of its own: what `execute` does besides starting the work
  // (queue an event, cancel work) reaches neither the loop's queue nor its work. The work's token
  // is the one it had, which its sends carry, and its end reaches the loop's link.
  /// Performs `decision` again to start again the one piece of work it started, with `token`,
  /// through `startTask`; for the exploration of effects.
  ///
  /// The work is not recorded in the loop's registry, so its sends are dropped until the caller
  /// records it (``WorkRegistry/reinstate(_:entry:)``).
  /// - Returns: How the registry recorded the work, with its task; nil if performing the decision
  ///   started no work, or more, or other work.
  func replay(
    _ decision: F.Decision, startingAs token: UInt64,
    with startTask: @escaping WorkRegistry.TaskStarter
  ) -> WorkRegistry.Entry? {
    // NB: the registry, route and queue are made once and kept, emptied after each use: making
    // them for each piece of work started again cost about 3,000 instructions (row 13e).
    let target = replayTarget ?? ReplayTarget()
    let scratch = replayRegistry ?? WorkRegistry(link: link, reportsRequests: false)
    let queue = replayQueue ?? QueuedEvents<F.Event>()
    let route = replayRoute ?? RootRoute(queued: queue, link: link)
    if replayRegistry == nil {
      scratch.startTask = { started, priority, body in
        // NB: a second piece of work would have another loop's token: it never runs.
        guard started == target.token, let startTask = target.startTask else { return Task {} }
        return startTask(started, priority, body)
      }
    }
    target.token = token
    target.startTask = startTask
    defer { target.startTask = nil }
    scratch.setNextToken(after: token &- 1)
    F.execute(decision, deps: deps, effects: Effects(registry: scratch, route: route, scope: []))
    queue.removeAll()
    var others = 0
    for (other, entry) in scratch.entries.all where other != token {
      others += 1
      entry.task?.cancel()
    }
    let entry = scratch.finished(token)
    guard others == 0, let entry else {
      // NB: a decision that started other work this time: the registry holds it; a new one
      // serves the next work started again.
      entry?.task?.cancel()
      replayRegistry = nil
      return nil
    }
    replayTarget = target
    // NB: work in a scope no lifetime covers stays on the registry's list to report: a registry
    // with such a list is not used again.
    replayRegistry = scratch.hasUnreported ? nil : scratch
    replayQueue = queue
    replayRoute = route
    return entry
  }

  /// The children the last check of their work's lifetimes saw: with the state, where the loop is
  /// between two steps of the exploration of effects, apart from its work.
  var childMarks: [UInt64?] { checkedMarks }

  /// Moves the loop back to `state`, with the children's `marks` it had there, keeping its work:
  /// for the exploration of effects, once the work started since has ended and the work of that
  /// moment is where it was (see ``SteppedLoop/rewindCore()``).
  func rewind(to state: F.State, marks: [UInt64?]) {
    self.state = state
    checkedMarks = marks
  }

  /// Stops the loop: cancels all work, and ignores events from then on.
  ///
  /// The remaining decisions and queued events of an event being processed are dropped too, when
  /// a decision stops the store. Stopping twice does nothing.
  func stop() {
    guard !isStopped else { return }
    isStopped = true
    registry.close()
    resumeSettleWaitersIfSettled()
  }

  // MARK: - Settling

  // NB: the queue of `Effects.send` events is not part of this: it is filled and emptied within one
  // call of `send(_:)`, which has no suspension point (rule 5), so whenever code can ask, it is
  // empty.
  /// Whether no event waits and no work runs, except work that waits for the test.
  var isSettled: Bool {
    posted.isEmpty && registry.isWaitingForTest
  }

  /// Processes the events posted so far, then returns once the loop has settled, or at once when
  /// the waiting task is cancelled.
  func settle(isolation: isolated (any Actor)? = #isolation) async {
    processPosted()
    if isSettled { return }
    let id = settleWaiters.makeID()
    // NB: a `WorkLink`, not `LoopLink<F>`: see `LoopLink.waitBegan`.
    let link: WorkLink = self.link
    await SettleWaiters.wait(
      isolation: isolation,
      keep: { continuation in
        settleWaiters.add(continuation, id: id)
        // NB: a wait that began after the check above, and before listening, would be missed.
        registry.setListening(true)
        resumeSettleWaitersIfSettled()
      },
      onCancel: { Task { await link.resumeSettleWaiter(id) } })
  }

  /// Resumes the settle waiter with `id`, whose task was cancelled.
  func resumeSettleWaiter(_ id: UInt64) {
    settleWaiters.resume(id: id)
    if settleWaiters.isEmpty { registry.setListening(false) }
  }

  /// Resumes the settle waiters if the loop has settled.
  func resumeSettleWaitersIfSettled() {
    guard !settleWaiters.isEmpty, isSettled else { return }
    settleWaiters.resumeAll()
    registry.setListening(false)
  }

  // MARK: - Work's reports

  /// An event from the work with `token` arrived: processes it if the work may still send.
  func receive(_ event: F.Event, fromWork token: UInt64) {
    if let reason = registry.reasonToDrop(token) {
      if hasDiagnostics { report(ignored: event, reason: isStopped ? .stopped : reason) }
    } else {
      send(event)
    }
  }

  /// The work with `token` ended, on `error` if it threw one that no handler took.
  func finish(_ token: UInt64, error: (any Error)?) {
    guard let entry = registry.finished(token) else { return }
    if hasDiagnostics {
      reportFinished(entry.id, error: entry.isCancelled ? nil : error)
    } else if !entry.isCancelled, let error {
      if hasProblemsHook {
        reportFailed(entry.id, error: error)
      } else {
        UnheardErrors.report(error, id: entry.id, feature: F.self)
      }
    }
    if isRecording, !entry.isCancelled, let error { saveFlightRecording(failed: entry.id, error) }
    resumeSettleWaitersIfSettled()
  }

  /// Reports an event that never reached the core, for `reason`, to the diagnostics hook.
  func ignore(_ event: F.Event, reason: IgnoredReason) {
    if hasDiagnostics { report(ignored: event, reason: reason) }
  }

  /// Work started; reported to the diagnostics hook.
  func workStarted(id: WorkID?) {
    if hasDiagnostics { report(workStarted: id) }
  }

  // MARK: - Diagnostics (rule 4)

  // NB: each builds its `Diagnostic` itself: built at the call site, the enum's metadata is looked
  // up on every event, even when no one listens, as the optimizer hoists it out of the branch.
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

  /// Reports a decision about to be performed, and tells the exploration's hook.
  @inline(never)
  private func watch(_ decision: F.Decision) {
    if hasDiagnostics { report(decided: decision) }
    decisionHook?(decision)
  }

  @inline(never)
  private func report(ignored event: F.Event, reason: IgnoredReason) {
    diagnostics?(.ignored(event, reason: reason))
  }

  @inline(never)
  private func report(workStarted id: WorkID?) {
    diagnostics?(.workStarted(id: id))
  }

  @inline(never)
  private func reportFailed(_ id: WorkID?, error: any Error) {
    diagnostics?(.workFailed(id: id, error: error))
  }

  @inline(never)
  private func reportFinished(_ id: WorkID?, error: (any Error)?) {
    if let error { diagnostics?(.workFailed(id: id, error: error)) }
    diagnostics?(.workFinished(id: id))
  }

  /// Reports that the posted events reached the store's limit, and how many posts were refused:
  /// to the diagnostics hook, or, without one, in a debug build's standard error when posts were
  /// refused.
  @inline(never)
  private func reportPostLimit(refused: Int) {
    if hasDiagnostics {
      diagnostics?(.postLimitReached(limit: posted.limit, refused: refused))
    } else if refused > 0 {
      UnheardErrors.reportRefusedPosts(refused, limit: posted.limit, feature: F.self)
    }
  }

  @inline(never)
  private func reportStopped(_ events: ArraySlice<F.Event>) {
    for event in events { diagnostics?(.ignored(event, reason: .stopped)) }
  }

  // MARK: - Flight recorder

  // NB: the recorder's per-event work is one call into its ring, whose class carries the event and
  // state types' metadata: the loop passes the event by reference and copies nothing. The state
  // goes `inout` (below) so that it is passed in place: passed by value, a class's stored property
  // is copied first, which needs the state type's metadata and a retain of the ring.
  /// Keeps the state as the recorder's checkpoint before the event being recorded.
  @inline(never)
  private func keepCheckpoint() {
    flight.unsafelyUnwrapped.keepCheckpoint(&state)
  }

  /// Checks the recorder's invariant on the state after an event, and saves a recording when it
  /// just broke.
  @inline(never)
  private func checkInvariant() {
    guard flight.unsafelyUnwrapped.invariantJustBroke(in: &state) else { return }
    saveFlightRecording(.invariantBroken(recorder?.invariant?.name ?? ""))
  }

  /// Saves a recording for work that failed with an error no handler took.
  @inline(never)
  private func saveFlightRecording(failed id: WorkID?, _ error: any Error) {
    guard let recorder else { return }
    saveFlightRecording(
      .workFailed(work: id.map(recorder.redaction.workID), error: recorder.redaction.error(error)))
  }

  /// Makes a recording for `trigger` and hands it to the recorder's `save` closure, if any.
  @inline(never)
  private func saveFlightRecording(_ trigger: FlightRecording<F>.Trigger) {
    guard let save = recorder?.save, let recording = flightRecording(trigger) else { return }
    save(recording)
  }

  /// The recorder's last events and the state before them, redacted, or nil without a recorder.
  ///
  /// - Complexity: O(capacity), plus the redaction's closures.
  @inline(never)
  func flightRecording(_ trigger: FlightRecording<F>.Trigger) -> FlightRecording<F>? {
    guard let recorder, let flight else { return nil }
    let redaction = recorder.redaction
    let window = flight.window()
    return FlightRecording(
      feature: recorder.feature, trigger: trigger, capacity: recorder.capacity,
      checkpointInterval: recorder.checkpointInterval, eventsBefore: window?.eventsBefore ?? 0,
      isRedacted: redaction.isRedacting, initialState: redaction.state(window?.start ?? state),
      events: (window?.events ?? []).map(redaction.event), finalState: redaction.state(state))
  }

  /// How many events and checkpoints the recorder holds, for tests of its memory.
  var flightLogHeld: (events: Int, checkpoints: Int)? {
    flight.map { ($0.heldEvents, $0.heldCheckpoints) }
  }

  // MARK: - For tests

  /// Whether the loop's buffers hold far more room than a quiet store needs, for tests of memory
  /// after a burst.
  var isOversized: Bool {
    registry.isOversized || queued.isOversized || waiting.capacity > 64
      || posted.isOversized
  }
}

/// What a store does when its loop changes the state: abstract; each store has its own.
///
/// Called on the store's isolation.
// NB: a class rather than a closure or a protocol: one virtual call, and no metadata lookup for a
// generic existential.
class StateHook<State> {
  /// Whether the store wants ``willChange()`` before each change.
  let wantsWillChange: Bool
  /// Whether the store wants ``didCatchUp(with:)`` after each send; the store changes it as its
  /// needs change.
  final var wantsCatchUp = true

  /// Creates a hook.
  init(wantsWillChange: Bool) {
    self.wantsWillChange = wantsWillChange
  }

  /// The core is about to change the state.
  func willChange() {}
  /// The core changed the state; the loop is still processing.
  func didChange(to state: borrowing State) {}
  /// The loop processed everything sent to it, and `state` is where it ended.
  func didCatchUp(with state: State) {}
}

/// The callers suspended in ``Store/settle()``, each resumed once the store is settled or its task
/// is cancelled.
///
/// Used only on the store's executor.
// NB: a struct in the store's own storage: it is not generic, so it costs no metadata lookup, and a
// class would cost every store an allocation.
struct SettleWaiters {
  private var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
  private var lastID: UInt64 = 0

  /// Whether no caller waits.
  var isEmpty: Bool { waiters.isEmpty }

  /// Returns an id for a caller about to wait.
  mutating func makeID() -> UInt64 {
    lastID += 1
    return lastID
  }

  /// Keeps a waiting caller's continuation under its id.
  mutating func add(_ continuation: CheckedContinuation<Void, Never>, id: UInt64) {
    waiters[id] = continuation
  }

  /// Resumes the caller with `id`, if it still waits.
  mutating func resume(id: UInt64) {
    waiters.removeValue(forKey: id)?.resume()
  }

  /// Resumes every waiting caller.
  mutating func resumeAll() {
    let resumed = waiters.values
    waiters = [:]
    for waiter in resumed { waiter.resume() }
  }

  /// Suspends the caller, on `isolation`, until the continuation handed to `keep` is resumed; at
  /// once if the task is cancelled already, and calls `onCancel` if it is cancelled meanwhile.
  // NB: `isolation` passed on explicitly: the closures do not capture it otherwise, so they would
  // not run on the caller's isolation, and a waiter kept off the isolation could miss the end of
  // the work it waits for and never be resumed.
  static func wait(
    isolation: isolated (any Actor)?,
    keep: (CheckedContinuation<Void, Never>) -> Void,
    onCancel: @escaping @Sendable () -> Void
  ) async {
    await withTaskCancellationHandler(
      operation: {
        await withCheckedContinuation(isolation: isolation) { continuation in
          if Task.isCancelled { continuation.resume() } else { keep(continuation) }
        }
      },
      onCancel: onCancel,
      isolation: isolation)
  }
}

/// The piece of work `EventLoop.replay` starts again: its token, and what starts its task.
private final class ReplayTarget: @unchecked Sendable {
  var token: UInt64 = 0
  var startTask: WorkRegistry.TaskStarter?
}
