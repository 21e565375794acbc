import Decisions

/// The fact screen's `@MainActor` observable model, for UI code.
///
/// It is the library's ``Decisions/ObservableStore`` for ``FactFeature``, with names for what a view
/// reads and does:
/// ```swift
/// let model = FactViewModel(state: .idle, deps: .live(source: .bundled()))
/// Text(model.factText ?? "Tap to load a fact")
/// ProgressView().opacity(model.isLoading ? 1 : 0)
/// Button("Load") { model.didTapButton() }
/// ```
public typealias FactViewModel = ObservableStore<FactFeature>

extension ObservableStore where F == FactFeature {
  /// The fact on screen, if any.
  public var factText: String? { state.text }

  /// Whether a load is in flight.
  public var isLoading: Bool { state.isLoading }

  /// Forwards a tap on the button.
  public func didTapButton() {
    send(.view(.didTapButton))
  }
}
