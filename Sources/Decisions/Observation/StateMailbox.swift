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
