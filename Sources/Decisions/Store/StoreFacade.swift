/// What a ``Store`` and a ``MainStore`` both are to code that drives either: the calls they share,
/// each awaited on the store's own isolation, and that isolation.
///
/// The two stores run one `EventLoop` and differ only in where it runs: on the actor itself, or
/// on the main actor. Code that drives a store from outside — `DecisionsTesting`'s `StoreTest`,
/// the guarantee tests run on both kinds — takes `any StoreFacade<F>` and is written once; code that
/// must run where the store runs takes ``isolation`` as an `isolated` parameter.
package protocol StoreFacade<F>: AnyObject, Sendable {
  /// The feature the store runs.
  associatedtype F: Feature

  /// The actor the store runs its loop on: the store itself, or the main actor.
  nonisolated var isolation: any Actor { get }

  /// Which work waits for the test, in a process with test doubles.
  nonisolated var testWaits: WorkRegistry.TestWaits? { get }

  /// Performs the core's start decisions if they still wait, then the events they queued: a
  /// `Store` defers them to its executor's first turn, a `MainStore` performed them as it was made.
  func start() async

  /// Processes an event, and returns once the store has processed it.
  func send(_ event: F.Event) async

  /// Returns once the store has settled (see ``Store/settle()``).
  func settle() async

  /// Stops the store.
  func stop() async

  /// The store's current state.
  var state: F.State { get async }

  /// The work that has started and not ended, in the order it started: its token in the
  /// registry, its scope and its id.
  var workInFlight: [(token: UInt64, scope: [WorkID], id: WorkID?)] { get async }

  /// Whether the store has been stopped.
  var isStopped: Bool { get async }
}
