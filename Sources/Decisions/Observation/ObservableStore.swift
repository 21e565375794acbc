#if canImport(Observation)
  import Observation

  /// A main-actor model of a ``Store`` for UI code: it reads state synchronously and forwards events.
  ///
  /// SwiftUI views observe ``state`` through the Observation framework; UIKit code can use
  /// `withObservationTracking`. Events go to the store in order with ``send(_:)``, without `await`.
  ///
  /// State delivery is coalesced: the store hands the model its latest state only when it has caught
  /// up with the events posted to it (or at once, for ``sendAndWait(_:)``), and the model applies at
  /// most one state per main-actor turn. A burst of events sent from the main actor therefore costs
  /// a few main-actor hops, not one per event. Intermediate states of a burst are skipped; observe
  /// ``Store/states(bufferingPolicy:)`` to see every state.
  ///
  /// ```swift
  /// @State var model = ObservableStore<FactFeature>(state: .idle, deps: .live)
  /// // ...
  /// Button("Load") { model.send(.view(.didTapButton)) }
  /// Text(model.state.text)
  /// ```
  ///
  /// It wraps an actor ``Store``, so it takes the features a ``Store`` takes (`SendableMetatype`).
  /// A feature written in a module with default main-actor isolation runs on ``MainStore``, which is
  /// the same kind of model with the core on the main actor.
  @MainActor
  public final class ObservableStore<F: Feature & SendableMetatype>: ViewModel, Observable {
    /// The feature the store runs.
    public typealias ModelCore = F

    /// The latest state delivered from the store.
    public var state: F.State {
      changes.access()
      return current
    }

    // NB: observation by hand, through a `StateChanges`: see `MainStore.changes`.
    private var current: F.State
    /// What observers of `state` register with and hear from.
    private let changes = StateChanges()

    /// The store this model observes.
    public let store: Store<F>

    private let mailbox: StateMailbox<F>
    // NB: created with the first child model: most models have none.
    private var children: ChildModels<F.State>?

    /// How many times the model applied a new state.
    ///
    /// One per main-actor delivery, however many events the store processed in between: for tests and
    /// benchmarks of coalescing.
    private(set) var deliveries = 0

    /// Creates a store for feature `F` and a model that observes it.
    /// - Parameters:
    ///   - state: The initial state.
    ///   - deps: The dependencies decisions are performed with.
    ///   - diagnostics: The store's diagnostics hook; see ``Store/init(state:deps:diagnostics:)``.
    public init(
      state: F.State,
      deps: F.Deps,
      diagnostics: (@Sendable (StoreDiagnostic<F>) -> Void)? = nil
    ) {
      let mailbox = StateMailbox<F>()
      // NB: the core's start runs here, so the model shows its state from the first moment.
      var started = state
      let startDecisions = F.makeStartDecisions(state: &started)
      self.current = started
      self.mailbox = mailbox
      // NB: the observer is in place before the store exists to anyone else, so no state is missed.
      self.store = Store(
        state: started, deps: deps, diagnostics: diagnostics, observer: mailbox.observer(id: 0),
        startDecisions: startDecisions)
      mailbox.connect(to: self)
    }

    /// Creates a model that observes an existing store, starting from its current state.
    public init(observing store: Store<F>) async {
      let mailbox = StateMailbox<F>()
      self.mailbox = mailbox
      self.store = store
      self.current = await store.addObserver(
        mailbox.observer(id: await store.makeObserverID()), latestOnly: true)
      // NB: states the store published between `addObserver` and here waited in the mailbox, which
      // keeps the observer until a model connects; show the latest of them now.
      mailbox.connect(to: self)
      showLatestState()
    }

    /// Sends an event to the store from synchronous code, in order.
    ///
    /// See ``Store/post(_:isolation:)``.
    public func send(_ event: F.Event) {
      store.post(event)
    }

    /// Sends an event and waits until the store has processed it and the model shows the result.
    ///
    /// The model then shows the state after the event, or a later one, even while events posted
    /// from other threads still wait to be processed.
    public func sendAndWait(_ event: F.Event) async {
      // NB: `sendShowingLatest` processes earlier posted events first, so order is kept; and it
      // hands the mailbox the state after this event even when more posted events wait, which
      // `send` would keep back until the store caught up with them (issue 24).
      await store.sendShowingLatest(event)
      showLatestState()
    }

    /// Waits until the store has settled (see ``Store/settle()``), then shows its latest state.
    public func settle() async {
      await store.settle()
      showLatestState()
    }

    /// Shows the latest state the store has delivered, if one is waiting.
    func showLatestState() {
      guard let state = mailbox.takeLatest() else { return }
      changes.willSet()
      current = state
      changes.didSet()
      deliveries += 1
      children?.update(from: state)
    }

    /// The models of this model's children, made with `child(_:id:)` and its
    /// siblings.
    public var childModels: ChildModels<F.State> {
      if let children { return children }
      let children = ChildModels<F.State>()
      self.children = children
      return children
    }
  }

#endif

#if canImport(Observation)
  /// Carries states from a store's executor to its main-actor model (``ObservableStore``), keeping
  /// only the latest.
  ///
  /// It is the model's latest-state observer: until a model connects, states wait here, and the
  /// model shows the latest of them when it connects, so none is lost in between.
  final class StateMailbox<F: Feature & SendableMetatype>: Sendable {
    private struct Contents: ~Copyable {
      var latest: F.State?
      var deliveryScheduled = false
      /// Whether a model has connected; until then states wait for it.
      var isConnected = false
      weak var model: ObservableStore<F>?
    }

    private let contents = Protected(Contents())

    /// Connects the model that deliveries go to.
    func connect(to model: ObservableStore<F>) {
      contents.withLock { contents in
        contents.model = model
        contents.isConnected = true
      }
    }

    /// An observer for the store that offers each state to this mailbox.
    func observer(id: UInt64) -> StateObserver {
      StateObserver(id: id, of: F.State.self, receive: { self.receive($0) }, finish: {})
    }

    /// Keeps `state` as the latest and schedules a delivery to the main actor if none is on its way.
    ///
    /// Before a model connects, the state only waits: the model shows it when it connects. Returns
    /// `false` once the connected model is gone, so the store drops this observer.
    private func receive(_ state: F.State) -> Bool {
      let (isAlive, mustSchedule) = contents.withLock { contents -> (Bool, Bool) in
        contents.latest = state
        guard contents.isConnected else { return (true, false) }
        guard contents.model != nil else { return (false, false) }
        guard !contents.deliveryScheduled else { return (true, false) }
        contents.deliveryScheduled = true
        return (true, true)
      }
      if mustSchedule {
        Task { @MainActor in self.deliverToModel() }
      }
      return isAlive
    }

    @MainActor
    private func deliverToModel() {
      let model = contents.withLock { $0.model }
      model?.showLatestState()
    }

    /// Takes the latest undelivered state, if any.
    func takeLatest() -> F.State? {
      contents.withLock { contents in
        contents.deliveryScheduled = false
        defer { contents.latest = nil }
        return contents.latest
      }
    }
  }
#endif
