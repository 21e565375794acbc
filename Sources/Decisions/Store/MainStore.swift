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
  // NB: `StoreFacade` here, not on an extension: the Sendable it implies would then be listed with
  // the extension's `where F: Feature` in the public API's symbol graph.
  public final class MainStore<F: Feature>: ViewModel, Observable, StoreFacade {
    /// What the diagnostics hook receives; the same values as a ``Store``'s.
    public typealias Diagnostic = StoreDiagnostic<F>

    /// The feature this store runs.
    public typealias ModelCore = F

    /// The current state: after ``send(_:)`` returns, the state after that event.
    ///
    /// Observable: SwiftUI views and `withObservationTracking` that read it hear of each event
    /// that changes it.
    public var state: F.State {
      isStateRead = true
      changes.access()
      return loop.state
    }

    // NB: an observer registers only by reading `state`, and hears only the next change, so a
    // change after which nobody read `state` has nobody to tell: the hook skips the registrar, whose
    // generic calls cost about four times the rest of a send. Unsafe only so that the hook, which
    // runs on the main actor, reads it without a check per event.
    /// Whether `state` was read since the observers were last told of a change.
    nonisolated(unsafe) var isStateRead = false

    // NB: observation by hand rather than with `@Observable`: the macro names `\.state` at each
    // access, and a key path into a generic class is built anew each time, which made each event
    // cost about 4 µs; and the registrar's generic calls, made from this generic class, looked up
    // its metadata at each call. `StateChanges` is not generic.
    /// What observers of `state` register with and hear from.
    nonisolated let changes = StateChanges()
    /// The loop that processes events and runs work, the same as a ``Store``'s.
    fileprivate let loop: EventLoop<F>
    /// Which work waits for the test, in a process with test doubles.
    package nonisolated let testWaits: WorkRegistry.TestWaits?
    // NB: created with the first child model: most stores have none. Unsafe only so that the
    // loop's hook, which runs on the main actor, reads it without a check per event.
    nonisolated(unsafe) var children: ChildModels<F.State>?

    /// Whether ``stop()`` was called.
    public var isStopped: Bool { loop.isStopped }

    /// The work that has started and not ended, in the order it started.
    package var workInFlight: [(token: UInt64, scope: [WorkID], id: WorkID?)] {
      loop.registry.entries.all.sorted { $0.token < $1.token }.map {
        ($0.token, $0.entry.scope, $0.entry.id)
      }
    }

    /// Creates a store that runs feature `F` on the main actor, from an initial state.
    ///
    /// The core's start (``Core/makeStartDecisions(state:)``) runs here: its state is the store's
    /// first state, and its decisions are performed before the initializer returns.
    /// - Parameters:
    ///   - state: The initial state, before the core's start.
    ///   - deps: The dependencies decisions are performed with.
    ///   - diagnostics: Called on the main actor with every event, state, decision, ignored event
    ///     and unhandled error, in order; see ``StoreDiagnostic``.
    public convenience init(
      state: F.State,
      deps: F.Deps,
      diagnostics: (@Sendable (Diagnostic) -> Void)? = nil
    ) {
      self.init(state: state, deps: deps, diagnostics: diagnostics, recorder: nil)
    }

    /// Creates a store that runs feature `F` on the main actor with a flight recorder, as
    /// ``Store/init(state:deps:diagnostics:recorder:)`` does off it.
    /// - Parameters:
    ///   - state: The initial state, before the core's start.
    ///   - deps: The dependencies.
    ///   - diagnostics: The diagnostics hook, as for ``init(state:deps:diagnostics:)``.
    ///   - recorder: The flight recorder, or nil for none.
    public convenience init(
      state: F.State, deps: F.Deps, diagnostics: (@Sendable (Diagnostic) -> Void)? = nil,
      recorder: FlightRecorder<F>?
    ) {
      self.init(
        state: state, deps: deps, diagnostics: diagnostics, startDecisions: nil, recorder: recorder)
    }

    /// Creates a store that runs feature `F` on the main actor.
    /// - Parameters:
    ///   - state: The initial state: after the core's start when `startDecisions` is given.
    ///   - deps: The dependencies.
    ///   - diagnostics: The diagnostics hook.
    ///   - startDecisions: The start decisions the caller already had the core make, or `nil` to
    ///     run the core's start here.
    ///   - recorder: The flight recorder, or nil for none.
    package init(
      state: F.State, deps: F.Deps, diagnostics: (@Sendable (Diagnostic) -> Void)?,
      startDecisions: [F.Decision]?, recorder: FlightRecorder<F>?
    ) {
      let loop = EventLoop<F>(
        state: state, deps: deps, diagnostics: diagnostics, startDecisions: startDecisions,
        recorder: recorder)
      self.loop = loop
      self.testWaits = loop.registry.testWaits
      loop.connect(owner: self, isolation: MainActor.shared)
      loop.setHook(MainStoreHook(store: self))
      // NB: the hook updates child models once the loop has caught up: until the first one is
      // made, there is nothing to update.
      loop.setHookWantsCatchUp(false)
      loop.performStartIfPending()
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
      loop.send(event)
      loop.resumeSettleWaitersIfSettled()
    }

    /// Processes events in order, as many ``send(_:)`` calls in a row would.
    ///
    /// Each event is its own step for the core and the diagnostics hook, and child models are
    /// updated once, from the state at the end. After ``stop()`` each event is ignored and
    /// reported.
    /// - Parameter events: The events, in the order to process them.
    public func send(contentsOf events: [F.Event]) {
      loop.send(contentsOf: events)
      loop.resumeSettleWaitersIfSettled()
    }

    /// The models of this store's children, made with `child(_:id:)` and `child(_:)` from the
    /// feature's embeddings.
    public var childModels: ChildModels<F.State> {
      if let children { return children }
      let children = ChildModels<F.State>()
      self.children = children
      loop.setHookWantsCatchUp(true)
      return children
    }

    /// Returns once no tracked work is running, cancelled work included, except work that waits for
    /// the test.
    ///
    /// The same as ``Store/settle()``, for a store on the main actor. Returns at once when the
    /// waiting task is cancelled.
    public func settle() async {
      await loop.settle()
    }

    /// The flight recorder's last events, with the state before the first of them, for a bug
    /// report: nil when the store has no recorder.
    ///
    /// The same as ``Store/flightRecording(note:)``, for a store on the main actor.
    /// - Parameter note: Why the recording was made, in the app's words.
    /// - Returns: The recording, or nil when the store has no recorder.
    /// - Complexity: O(capacity), plus the redaction's closures.
    public func flightRecording(note: String = "") -> FlightRecording<F>? {
      loop.flightRecording(.requested(note: note))
    }

    /// How many events and checkpoints the flight recorder holds, for tests of its memory.
    var flightLogHeld: (events: Int, checkpoints: Int)? { loop.flightLogHeld }

    /// Stops the store: cancels all work.
    ///
    /// Events sent afterwards are ignored and reported as ``IgnoredReason/stopped``, and so are the
    /// events queued by the event being processed, when a decision stops the store; the decisions
    /// after that one are not performed. Stopping twice does nothing.
    public func stop() {
      loop.stop()
    }
  }

  extension MainStore {
    /// The main actor, which the store's loop runs on.
    package nonisolated var isolation: any Actor { MainActor.shared }

    /// Performs the start decisions if they wait: they never do, as the initializer performed them.
    package func start() {
      loop.performStartIfPending()
    }
  }

  extension MainStore: StaleEventDropping {
    func dropStale(_ event: Any) {
      guard let event = event as? F.Event else { return }
      loop.ignore(event, reason: .goneChild)
    }
  }
#endif

#if canImport(Observation)
  /// How a ``MainStore`` hears of its loop's state changes: through its observation registrar,
  /// and by updating its child models once the loop has caught up.
  final class MainStoreHook<F: Feature>: StateHook<F.State> {
    // NB: the store owns the loop, which owns this hook: the store outlives every call.
    private unowned(unsafe) let store: MainStore<F>

    @MainActor
    init(store: MainStore<F>) {
      self.store = store
      super.init(wantsWillChange: true)
    }

    /// Whether observers were told that the state will change, and so must hear that it did.
    private var isTelling = false

    override func willChange() {
      guard store.isStateRead else { return }
      // NB: cleared first: an observer that reads `state` as it hears of the change registers for
      // the next one.
      store.isStateRead = false
      isTelling = true
      store.changes.willSet()
    }

    override func didChange(to state: borrowing F.State) {
      guard isTelling else { return }
      isTelling = false
      store.changes.didSet()
    }

    override func didCatchUp(with state: F.State) {
      guard let children = store.children else { return }
      MainActor.assumeIsolated { children.update(from: state) }
    }
  }
#endif
