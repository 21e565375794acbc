#if canImport(Observation)
  import Decisions

  /// The app's navigation as a `@MainActor` model for UI code: the library's
  /// ``Decisions/MainStore`` for ``Coordinator``, with a model per screen.
  ///
  /// Each screen's view gets a ``Decisions/ChildModel`` of its own, which the navigation updates
  /// only when that screen's state changes: pushing a screen, or a fetch finishing on another
  /// screen, does not invalidate it.
  /// ```swift
  /// let navigation = CoordinatorViewModel(state: .init(), deps: .library(library))
  /// ForEach(navigation.state.stack) { screen in
  ///   if let model = navigation.screenModel(id: screen.id) { ScreenView(model: model) }
  /// }
  /// ```
  public typealias CoordinatorViewModel = MainStore<Coordinator>

  extension MainStore where F == Coordinator {
    /// The model of the screen with `id`, or `nil` once back has closed it.
    ///
    /// Its events reach the coordinator as `.screen(id:, …)`.
    public func screenModel(id: Int) -> ChildModel<ContentScreen>? {
      child(Coordinator.screens, id: id)
    }

    /// Opens a deep link.
    public func open(_ link: String) {
      send(.open(link))
    }

    /// Goes back: closes the top screen, whose work the store then cancels.
    public func back() {
      send(.back)
    }
  }
#endif
