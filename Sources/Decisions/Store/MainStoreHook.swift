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
