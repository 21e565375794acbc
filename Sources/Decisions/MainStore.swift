#if canImport(Observation)
  import Observation

  /// A store that runs a ``Feature`` on the main actor, for UI code: ``send(_:)`` has processed the
  /// event when it returns, so a view that reads ``state`` right after sees the new state.
  ///
  /// ```swift
  /// @State var model = MainStore<SearchFeature>(state: .init(), deps: .live)
  /// // ...
  /// TextField("Search", text: Binding(
  ///   get: { model.state.query },
  ///   set: { model.send(.view(.queryChanged($0))) }))   // model.state.query is the new text now
  /// ```
  ///
  /// It runs the same feature as a ``Store``: the same core, the same executor, the same deps, with
  /// the same guarantees for events and work, and the same `DecisionsTesting` tests apply to the
  /// feature. What differs is where the core runs:
  /// - The core and the executor's quick work run on the main actor, inside ``send(_:)``. Keep both
  ///   quick: a core is a pure function, and quick work (logging, tracking) should not block.
  /// - Long work, started with ``Effects/run(id:priority:operation:catch:)``, runs off the main
  ///   actor, as with a ``Store``; its events come back to the main actor.
  /// - ``state`` changes in the same main-actor turn as the event: a text field bound to it never
  ///   lags behind what was typed. SwiftUI views observe it through the Observation framework, and
  ///   UIKit code can use `withObservationTracking`.
  ///
  /// Choose a `MainStore` for a screen's feature, and an actor ``Store`` (with an
  /// ``ObservableStore`` for its views) for a feature that lives off the main actor, such as a
  /// download manager that many screens share. Docs/Observation.md compares the two.
  @MainActor
  public final class MainStore<F: Feature>: ViewModel, Observable {
    /// What the diagnostics hook receives; the same values as a ``Store``'s.
    public typealias Diagnostic = Store<F>.Diagnostic

    /// The feature this store runs.
    public typealias ModelCore = F

    /// The current state: after ``send(_:)`` returns, the state after that event.
    ///
    /// Observable: SwiftUI views and `withObservationTracking` that read it hear of each event
    /// that changes it.
    public var state: F.State {
      registrar.access(self, keyPath: stateKeyPath)
      return current
    }

    // NB: observation by hand rather than with `@Observable`: the macro names `\.state` at each
    // access, and a key path into a generic class is built anew each time, which made each event
    // cost about 4 µs. The key path is built once per store instead.
    @exclusivity(unchecked) private var current: F.State
    private let registrar = ObservationRegistrar()
    private let stateKeyPath: KeyPath<MainStore<F>, F.State>

    // NB: not public: deps are for performing decisions; see `Store.deps`.
    private let deps: F.Deps
    private let diagnostics: (@Sendable (Diagnostic) -> Void)?
    /// Whether ``stop()`` was called.
    public private(set) var isStopped = false
    /// The work the executor started.
    private let registry: WorkRegistry
    /// The route that work sends events along.
    private let root: EventRoute<F.Event>
    /// The events that decisions queued with `Effects.send`.
    private let queued: QueuedEvents<F.Event>
    /// Which work waits for the test, in a process with test doubles.
    package let workActivity: WorkActivity?
    private var settleWaiters = SettleWaiters()
    /// Whether an event is being processed: an event sent meanwhile waits in `waiting`.
    private var isProcessing = false
    /// Events sent while another was being processed, oldest first.
    private var waiting: [F.Event] = []
    // NB: created with the first child model: most stores have none.
    private var children: ChildModels<F.State>?

    /// Creates a store that runs feature `F` on the main actor, from an initial state.
    ///
    /// The core's start (``Core/makeStartDecisions(state:)``) runs here: its state is the store's
    /// first state, and its decisions are performed before the initializer returns.
    /// - Parameters:
    ///   - state: The initial state, before the core's start.
    ///   - deps: The dependencies decisions are performed with.
    ///   - diagnostics: Called on the main actor with every event, state, decision, ignored event
    ///     and unhandled error, in order; see ``Store/Diagnostic``.
    public init(
      state: F.State,
      deps: F.Deps,
      diagnostics: (@Sendable (Diagnostic) -> Void)? = nil
    ) {
      var started = state
      let startDecisions = F.makeStartDecisions(state: &started)
      self.current = started
      self.stateKeyPath = \MainStore<F>.state
      self.deps = deps
      self.diagnostics = diagnostics
      let link = MainStoreLink<F>()
      let workHost = WorkHost(link: link, reportsRequests: diagnostics != nil)
      self.registry = workHost.registry
      self.root = workHost.root
      self.queued = workHost.queued
      self.workActivity = workHost.registry.activity
      link.owner = self
      if let diagnostics {
        diagnostics(.started)
        diagnostics(.state(started))
      }
      if !startDecisions.isEmpty { start(startDecisions) }
    }

    /// Performs the core's start decisions, and the events they queue, before the initializer
    /// returns.
    private func start(_ decisions: [F.Decision]) {
      isProcessing = true
      defer { isProcessing = false }
      perform(decisions)
      processQueued()
      if registry.childWorkCount != 0 { endWorkOfGoneChildren() }
      var index = 0
      while index < waiting.count {
        process(waiting[index])
        index += 1
      }
      waiting.removeAll()
    }

    // MARK: - Sending events

    /// Processes an event before returning: runs the core, stores the new state, performs the
    /// decisions.
    ///
    /// When it returns, ``state`` is the state after the event and the events its decisions queued,
    /// its quick work is done, and its long work has started. An event sent while another is being
    /// processed (from a state observer, say) is processed right after it, in order. After
    /// ``stop()`` the event is ignored and reported to the diagnostics hook.
    public func send(_ event: F.Event) {
      guard !isProcessing else {
        waiting.append(event)
        return
      }
      isProcessing = true
      defer { isProcessing = false }
      process(event)
      // NB: index loops: an event processed here, or an observer of a child model that the update
      // tells of a change, may send more.
      var index = 0
      repeat {
        while index < waiting.count {
          process(waiting[index])
          index += 1
        }
        children?.update(from: current)
      } while index < waiting.count
      if index != 0 { waiting.removeAll(keepingCapacity: waiting.capacity <= 64) }
      resumeSettleWaitersIfSettled()
    }

    /// The models of this store's children, made with `child(_:state:event:)` and its
    /// siblings.
    public var childModels: ChildModels<F.State> {
      if let children { return children }
      let children = ChildModels<F.State>()
      self.children = children
      return children
    }

    /// Returns once no tracked work is running, cancelled work included, except work that waits for
    /// the test.
    ///
    /// The same as ``Store/settle()``, for a store on the main actor. Returns at once when the
    /// waiting task is cancelled.
    public func settle() async {
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
        Task { @MainActor in self.settleWaiters.resume(id: id) }
      }
    }

    /// Stops the store: cancels all work.
    ///
    /// Events sent afterwards are ignored and reported as ``IgnoredReason/stopped``. Stopping twice
    /// does nothing.
    public func stop() {
      guard !isStopped else { return }
      isStopped = true
      registry.cancelEverything()
      resumeSettleWaitersIfSettled()
    }

    // MARK: - The event loop

    /// Processes one event, then the events its decisions queued, in order.
    private func process(_ event: F.Event) {
      guard !isStopped else {
        if diagnostics != nil { report(.ignored(event, reason: .stopped)) }
        return
      }
      if apply(event) { processQueued() }
      if registry.childWorkCount != 0 { endWorkOfGoneChildren() }
    }

    /// Applies the events queued with `Effects.send`, including ones queued while applying them.
    private func processQueued() {
      guard queued.events.count != 0 else { return }
      var index = 0
      while index < queued.events.count {
        _ = apply(queued.events[index])
        index += 1
      }
      queued.removeAll()
    }

    /// Cancels the work of the children that left the state, and reports work that no child
    /// lifetime covers (see ``Feature/childWork``).
    @inline(never)
    private func endWorkOfGoneChildren() {
      registry.endWorkOfGoneChildren(of: F.self, in: current, diagnostics: diagnostics)
    }

    /// Runs the core on one event, stores the new state, and performs the decisions.
    ///
    /// Returns whether the event decided anything.
    private func apply(_ event: F.Event) -> Bool {
      if diagnostics != nil { report(.received(event)) }
      let decisions = registrar.withMutation(of: self, keyPath: stateKeyPath) {
        F.makeDecisions(event: event, state: &current)
      }
      if diagnostics != nil { report(.state(current)) }
      guard decisions.count != 0 else { return false }
      perform(decisions)
      return true
    }

    /// Performs decisions through the executor, in order.
    private func perform(_ decisions: [F.Decision]) {
      let effects = Effects(registry: registry, route: root, scope: [])
      var index = 0
      while index < decisions.count {
        if diagnostics != nil { report(.decided(decisions[index])) }
        F.execute(decisions[index], deps: deps, effects: effects)
        index += 1
      }
    }

    // MARK: - Settling

    /// Whether no work runs, except work that waits for the test.
    private var isSettled: Bool {
      registry.isWaitingForTest
    }

    private func resumeSettleWaitersIfSettled() {
      guard !settleWaiters.isEmpty, isSettled else { return }
      settleWaiters.resumeAll()
    }

    // MARK: - Work

    /// An event from the work with `token` arrived: processes it if the work may still send.
    fileprivate func receive(_ event: F.Event, fromWork token: UInt64) {
      if let reason = registry.reasonToDrop(token) {
        if diagnostics != nil { report(.ignored(event, reason: isStopped ? .stopped : reason)) }
      } else {
        send(event)
      }
    }

    /// The work with `token` ended, on `error` if it threw one that no handler took.
    fileprivate func finish(_ token: UInt64, error: (any Error)?) {
      guard let entry = registry.finished(token) else { return }
      if diagnostics != nil {
        if !entry.isCancelled, let error { report(.workFailed(id: entry.id, error: error)) }
        report(.workFinished(id: entry.id))
      } else if !entry.isCancelled, let error {
        UnheardErrors.report(error, id: entry.id, feature: F.self)
      }
      resumeSettleWaitersIfSettled()
    }

    /// Work began to wait for the test: the store may have settled.
    fileprivate func workBeganWaiting() {
      resumeSettleWaitersIfSettled()
    }

    /// Work started; reported to the diagnostics hook.
    fileprivate func workStarted(id: WorkID?) {
      report(.workStarted(id: id))
    }

    @inline(never)
    private func report(_ diagnostic: Diagnostic) {
      diagnostics?(diagnostic)
    }
  }

  /// How a ``MainStore``'s work reaches it: on the main actor, through a weak reference.
  private final class MainStoreLink<F: Feature>: WorkHostLink<F.Event>, @unchecked Sendable {
    // NB: written once, in the store's init, before any work can read it.
    weak var owner: MainStore<F>?

    override func waitBegan() {
      guard let owner else { return }
      Task { @MainActor in owner.workBeganWaiting() }
    }

    override func settle() async {
      guard let owner else { return }
      await owner.settle()
    }

    override var isAlive: Bool { owner != nil }

    override func started(_ id: WorkID?) {
      guard let owner else { return }
      // NB: called inside `execute`, which the store calls on the main actor.
      MainActor.assumeIsolated { owner.workStarted(id: id) }
    }

    override func deliver(_ event: F.Event, from token: UInt64) async {
      guard let owner else { return }
      await owner.receive(event, fromWork: token)
    }

    override func finish(_ token: UInt64, error: (any Error)?) async {
      guard let owner else { return }
      await owner.finish(token, error: error)
    }
  }
#endif
