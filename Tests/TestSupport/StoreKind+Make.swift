import Decisions
import DecisionsTesting

extension StoreKind {
  /// Makes a store of this kind, on the main actor as a `MainStore` must be: the guarantee tests
  /// drive either through the calls both have (`StoreFacade`), each awaited on the store's own
  /// isolation.
  @MainActor
  package func make<F: Feature & SendableMetatype>(
    _ feature: F.Type, state: F.State, deps: F.Deps,
    diagnostics: (@Sendable (StoreDiagnostic<F>) -> Void)? = nil
  ) -> any StoreFacade<F> {
    switch self {
    case .store: Store<F>(state: state, deps: deps, diagnostics: diagnostics)
    case .mainStore: MainStore<F>(state: state, deps: deps, diagnostics: diagnostics)
    }
  }
}
