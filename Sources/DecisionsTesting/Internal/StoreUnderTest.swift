import Decisions

/// The store a ``StoreTest`` drives, of either kind, with the calls its steps make.
///
/// Each call runs on the store's isolation: the actor's executor, or the main actor. A step that
/// awaits one has what the store recorded during it, whole.
// NB: a protocol with a type per kind, not an enum of the two stores: `Store` needs
// `F: SendableMetatype`, which a main-actor feature is not, so only `StoreTest`'s initializers
// for such features may name it. A closure per call would capture `F.Type`, which is not
// `Sendable` for those features.
protocol StoreUnderTest<Event, State>: Sendable {
  associatedtype Event: Sendable
  associatedtype State: Sendable

  /// Which kind of store this is.
  var kind: StoreKind { get }

  /// Performs the start decisions, if they wait: a `Store` defers them to its executor's first
  /// turn, a `MainStore` performed them in its initializer.
  nonisolated(nonsending) func start() async

  /// Sends an event, and returns once the store has processed it.
  nonisolated(nonsending) func send(_ event: Event) async

  /// Returns once the store has settled (see ``Decisions/Store/settle()``).
  nonisolated(nonsending) func settle() async

  /// Stops the store.
  nonisolated(nonsending) func stop() async

  /// Returns after one turn on the store's isolation: an event it was processing is then recorded
  /// whole.
  nonisolated(nonsending) func hop() async

  /// The store's current state.
  nonisolated(nonsending) func state() async -> State
}

/// An actor ``Decisions/Store`` under test.
struct ActorStoreUnderTest<F: Feature & SendableMetatype>: StoreUnderTest {
  /// The store.
  let store: Store<F>

  var kind: StoreKind { .store }

  nonisolated(nonsending) func start() async {
    await store.start()
  }

  nonisolated(nonsending) func send(_ event: F.Event) async {
    await store.send(event)
  }

  nonisolated(nonsending) func settle() async {
    await store.settle()
  }

  nonisolated(nonsending) func stop() async {
    await store.stop()
  }

  nonisolated(nonsending) func hop() async {
    _ = await store.isStopped
  }

  nonisolated(nonsending) func state() async -> F.State {
    await store.state
  }
}

#if canImport(Observation)
  /// A ``Decisions/MainStore`` under test: its calls run on the main actor.
  struct MainStoreUnderTest<F: Feature>: StoreUnderTest {
    /// The store.
    let store: MainStore<F>

    var kind: StoreKind { .mainStore }

    /// Does nothing: a `MainStore` performed its start decisions in its initializer.
    nonisolated(nonsending) func start() async {}

    nonisolated(nonsending) func send(_ event: F.Event) async {
      await store.send(event)
    }

    nonisolated(nonsending) func settle() async {
      await store.settle()
    }

    nonisolated(nonsending) func stop() async {
      await store.stop()
    }

    nonisolated(nonsending) func hop() async {
      _ = await store.isStopped
    }

    nonisolated(nonsending) func state() async -> F.State {
      await store.state
    }
  }
#endif
