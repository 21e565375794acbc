#if canImport(Observation)
  import Observation
  import Synchronization

  /// A main-actor model of a ``Store`` for UI code: it reads state synchronously and forwards events.
  ///
  /// SwiftUI views observe ``state`` through the Observation framework; UIKit code can use
  /// `withObservationTracking`. Events go to the store in order with ``send(_:)``, without `await`.
  ///
  /// State delivery is coalesced: however many events the store processes in a burst, the model is
  /// updated at most once per main-actor turn, with the latest state.
  ///
  /// ```swift
  /// @State var model = ObservableStore<FactFeature>(state: .idle, deps: .live)
  /// // ...
  /// Button("Load") { model.send(.view(.didTapButton)) }
  /// Text(model.state.text)
  /// ```
  @MainActor
  @Observable
  public final class ObservableStore<F: Feature> {
    /// The latest state delivered from the store.
    public private(set) var state: F.State

    /// The store this model observes.
    @ObservationIgnored public let store: Store<F>

    @ObservationIgnored private let mailbox: StateMailbox<F>

    /// Creates a store for feature `F` and a model that observes it.
    /// - Parameters:
    ///   - state: The initial state.
    ///   - deps: The dependencies decisions are performed with.
    ///   - diagnostics: The store's diagnostics hook; see ``Store/init(state:deps:diagnostics:)``.
    public init(
      state: F.State,
      deps: F.Deps,
      diagnostics: (@Sendable (Store<F>.Diagnostic) -> Void)? = nil
    ) {
      let mailbox = StateMailbox<F>()
      self.state = state
      self.mailbox = mailbox
      // NB: the observer is in place before the store exists to anyone else, so no state is missed.
      self.store = Store(
        state: state, deps: deps, diagnostics: diagnostics, observer: mailbox.observer(id: 0))
      mailbox.connect(to: self)
    }

    /// Creates a model that observes an existing store, starting from its current state.
    public init(observing store: Store<F>) async {
      let mailbox = StateMailbox<F>()
      self.mailbox = mailbox
      self.store = store
      self.state = await store.addObserver(mailbox.observer(id: await store.makeObserverID()))
      mailbox.connect(to: self)
    }

    /// Sends an event to the store from synchronous code, in order. See ``Store/post(_:)``.
    public func send(_ event: F.Event) {
      store.post(event)
    }

    /// Sends an event and waits until the store has processed it and the model shows the result.
    public func send(_ event: F.Event) async {
      store.post(event)
      await store.drainPosted()
      flush()
    }

    /// Waits until the store has settled (see ``Store/settle()``), then shows its latest state.
    public func settle() async {
      await store.settle()
      flush()
    }

    /// Applies the latest state the store has delivered, if any is waiting.
    func flush() {
      if let state = mailbox.take() { self.state = state }
    }
  }

  /// Carries states from a store's executor to its main-actor model, keeping only the latest.
  final class StateMailbox<F: Feature>: Sendable {
    private struct Contents: ~Copyable {
      var latest: F.State?
      var deliveryScheduled = false
      weak var model: ObservableStore<F>?
    }

    private let contents = Mutex(Contents())

    /// Connects the model that deliveries go to.
    func connect(to model: ObservableStore<F>) {
      contents.withLock { $0.model = model }
    }

    /// An observer for the store that offers each state to this mailbox.
    func observer(id: UInt64) -> Store<F>.StateObserver {
      Store<F>.StateObserver(id: id, receive: { self.offer($0) }, finish: {})
    }

    /// Keeps `state` as the latest and schedules one delivery to the main actor if none is on its way.
    /// Returns `false` once the model is gone.
    private func offer(_ state: F.State) -> Bool {
      let (isAlive, mustSchedule) = contents.withLock { contents -> (Bool, Bool) in
        contents.latest = state
        guard contents.model != nil else { return (false, false) }
        guard !contents.deliveryScheduled else { return (true, false) }
        contents.deliveryScheduled = true
        return (true, true)
      }
      if mustSchedule {
        Task { @MainActor in self.deliver() }
      }
      return isAlive
    }

    @MainActor
    private func deliver() {
      let model = contents.withLock { $0.model }
      model?.flush()
    }

    /// Takes the latest undelivered state, if any.
    func take() -> F.State? {
      contents.withLock { contents in
        contents.deliveryScheduled = false
        defer { contents.latest = nil }
        return contents.latest
      }
    }
  }

  extension Store {
    /// Processes every event posted so far with ``post(_:)``.
    func drainPosted() {
      drainInbox()
    }
  }
#endif
