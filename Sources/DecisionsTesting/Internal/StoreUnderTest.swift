import Decisions

/// The store a ``StoreTest`` drives, of either kind, with the calls its steps make.
///
/// Each call runs on the store's isolation: the actor's executor, or the main actor. A step that
/// awaits one has what the store recorded during it, whole.
enum StoreUnderTest<F: Feature & SendableMetatype>: Sendable {
  /// An actor store.
  case store(Store<F>)
  #if canImport(Observation)
    /// A store on the main actor.
    case mainStore(MainStore<F>)
  #endif

  /// Performs the start decisions, if they wait: a `Store` defers them to its executor's first
  /// turn, a `MainStore` performed them in its initializer.
  nonisolated(nonsending) func start() async {
    switch self {
    case .store(let store): await store.start()
    #if canImport(Observation)
      case .mainStore: break
    #endif
    }
  }

  /// Sends an event, and returns once the store has processed it.
  nonisolated(nonsending) func send(_ event: F.Event) async {
    switch self {
    case .store(let store): await store.send(event)
    #if canImport(Observation)
      case .mainStore(let store): await store.send(event)
    #endif
    }
  }

  /// Returns once the store has settled (see ``Decisions/Store/settle()``).
  nonisolated(nonsending) func settle() async {
    switch self {
    case .store(let store): await store.settle()
    #if canImport(Observation)
      case .mainStore(let store): await store.settle()
    #endif
    }
  }

  /// Stops the store.
  nonisolated(nonsending) func stop() async {
    switch self {
    case .store(let store): await store.stop()
    #if canImport(Observation)
      case .mainStore(let store): await store.stop()
    #endif
    }
  }

  /// Returns after one turn on the store's isolation: an event it was processing is then recorded
  /// whole.
  nonisolated(nonsending) func hop() async {
    switch self {
    case .store(let store): _ = await store.isStopped
    #if canImport(Observation)
      case .mainStore(let store): _ = await store.isStopped
    #endif
    }
  }

  /// The store's current state.
  var state: F.State {
    get async {
      switch self {
      case .store(let store): await store.state
      #if canImport(Observation)
        case .mainStore(let store): await store.state
      #endif
      }
    }
  }
}
