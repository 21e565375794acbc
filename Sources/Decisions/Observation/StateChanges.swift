#if canImport(Observation)
  import Observation

  /// What a view model's observers register with and hear from: one per model, standing for its
  /// `state`.
  ///
  /// The model reports a read of its `state` with ``access()`` and a change with ``willSet()`` and
  /// ``didSet()``; `withObservationTracking` and SwiftUI see them as accesses and changes of this
  /// object, which is as good for them as the model itself.
  // NB: not generic, unlike the models: the registrar's methods are generic over the subject and
  // the key path, and called from a generic model each looked up the model's type metadata and its
  // `Observable` conformance at run time, about 2,400 instructions per event. Here the types, the
  // conformance and the key path are known when the library is compiled.
  final class StateChanges: Observable, @unchecked Sendable {
    private let registrar = ObservationRegistrar()
    /// The property that stands for the model's state; its value is never read.
    private var state: Void { () }
    // NB: the key path is built once: each `\StateChanges.state` would build it anew.
    private nonisolated(unsafe) static let stateKeyPath: KeyPath<StateChanges, Void> =
      \StateChanges.state

    /// Creates the observable stand-in of one model's state.
    init() {}

    /// The model's state is being read: a tracking observer registers for its next change.
    func access() {
      registrar.access(self, keyPath: Self.stateKeyPath)
    }

    /// The model's state is about to change.
    func willSet() {
      registrar.willSet(self, keyPath: Self.stateKeyPath)
    }

    /// The model's state changed.
    func didSet() {
      registrar.didSet(self, keyPath: Self.stateKeyPath)
    }
  }
#endif
