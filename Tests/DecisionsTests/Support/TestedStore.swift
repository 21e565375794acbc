import Decisions
import DecisionsTesting

/// What the guarantee tests do with a store, whichever kind it is: the calls a ``Store`` and a
/// ``MainStore`` both have, each awaited on the store's own isolation.
protocol TestedStore<F>: AnyObject, Sendable {
  associatedtype F: Feature
  /// Sends an event, and returns once the store has processed it.
  func send(_ event: F.Event) async
  /// Returns once the store has settled.
  func settle() async
  /// Stops the store.
  func stop() async
  /// The store's current state.
  var state: F.State { get async }
  /// Whether the store was stopped.
  var isStopped: Bool { get async }
}

extension Store: TestedStore {}
extension MainStore: TestedStore {}

extension StoreKind {
  /// Makes a store of this kind, on the main actor as a `MainStore` must be.
  @MainActor
  func make<F: Feature & SendableMetatype>(
    _ feature: F.Type, state: F.State, deps: F.Deps,
    diagnostics: (@Sendable (StoreDiagnostic<F>) -> Void)? = nil
  ) -> any TestedStore<F> {
    switch self {
    case .store: Store<F>(state: state, deps: deps, diagnostics: diagnostics)
    case .mainStore: MainStore<F>(state: state, deps: deps, diagnostics: diagnostics)
    }
  }
}
