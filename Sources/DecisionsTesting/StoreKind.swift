/// Which store a ``StoreTest`` runs the feature on: an actor ``Decisions/Store``, or a
/// ``Decisions/MainStore`` on the main actor.
///
/// Test a feature on the store it ships on. Both run the same event loop with the same guarantees,
/// and a `StoreTest` checks them with the same steps and the same failure messages:
/// ```swift
/// @MainActor
/// @Test func searchShowsResults() async {
///   let test = StoreTest<SearchFeature>(state: .init(), deps: deps, on: .mainStore)
///   // ...
/// }
/// ```
/// To run one test on both, take the kind as an argument:
/// `@Test(arguments: StoreKind.allCases) func ... (on kind: StoreKind)`.
public enum StoreKind: Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// An actor ``Decisions/Store``: what ``StoreTest/init(state:deps:clocks:exhaustivity:endChecks:fileID:filePath:line:column:)``
  /// makes.
  case store
  #if canImport(Observation)
    /// A ``Decisions/MainStore``, made and driven on the main actor.
    case mainStore
  #endif

  /// The kind's name, as a parameterised test shows it.
  public var description: String {
    switch self {
    case .store: "Store"
    #if canImport(Observation)
      case .mainStore: "MainStore"
    #endif
    }
  }
}
