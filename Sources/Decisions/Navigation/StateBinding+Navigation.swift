#if canImport(Observation)
  // Bindings for navigation: a stack's path, which the platform writes when the user goes back,
  // and a presented child, which it sets to nil when the user dismisses it. Each is a
  // `StateBinding`, which `Binding(_:)` of DecisionsSwiftUI hands to SwiftUI's own modifiers.

  extension MainStore {
    /// A binding of the ids of a ``ScreenStack``, for a navigation stack's path: the platform's
    /// writes (a back button, a swipe) send `event` with the path it now shows.
    ///
    /// ```swift
    /// NavigationStack(path: Binding(store.binding(\.path, send: NoteList.Event.pathChanged))) {
    /// ```
    /// The core takes the path with ``ScreenStack/keep(_:)``. A write of the path the stack already
    /// shows sends nothing. A write is processed when it returns, as ``send(_:)`` is.
    /// - Parameters:
    ///   - stack: The stack in the state.
    ///   - event: Makes the event that a new path sends.
    /// - Returns: The binding.
    public func binding<Screen>(
      _ stack: KeyPath<F.State, ScreenStack<Screen>>,
      send event: @escaping ([ScreenStack<Screen>.ID]) -> F.Event
    ) -> StateBinding<[ScreenStack<Screen>.ID]> {
      makePathBinding(of: self, stack, send: event)
    }

    /// A binding of a presented child's model, for a sheet or a full-screen cover: `nil` while the
    /// child is not presented, and a write of `nil` (the user dismissed it) sends `dismiss`.
    ///
    /// ```swift
    /// .sheet(item: Binding(store.binding(Account.rename, dismiss: .dismissed))) { RenameView(model: $0) }
    /// ```
    /// The model is the one `child(_:)` returns, so a child presented in place of another is a new
    /// model with a new `id`: the platform dismisses the old sheet and presents the new one. A
    /// dismissal sends `dismiss` only while the child the binding last read is still presented:
    /// a late dismissal, after the core dismissed or replaced that child, sends nothing.
    /// - Parameters:
    ///   - embedding: The child's declaration, such as `static let rename = embed(...)`.
    ///   - dismiss: The event that a dismissal sends; the core sets the slot to `nil`.
    /// - Returns: The binding.
    public func binding<Parent: Core, Child: Core>(
      _ embedding: EmbeddedChild<Parent, Child>, dismiss: F.Event
    ) -> StateBinding<ChildModel<Child>?>
    where Parent.State == F.State, Parent.Event == F.Event, Child.State: Equatable {
      makePresentedBinding(of: self, embedding, dismiss: dismiss)
    }
  }

  extension ChildModel {
    /// A binding of the ids of a ``ScreenStack`` in the child's state, for a navigation stack's
    /// path: the platform's writes send the child's `event` with the path it now shows.
    ///
    /// As on a ``MainStore``: a write of the path the stack already shows sends nothing. Once the
    /// child is gone, writes are dropped.
    /// - Parameters:
    ///   - stack: The stack in the child's state.
    ///   - event: Makes the child's event that a new path sends.
    /// - Returns: The binding.
    public func binding<Screen>(
      _ stack: KeyPath<Child.State, ScreenStack<Screen>>,
      send event: @escaping ([ScreenStack<Screen>.ID]) -> Child.Event
    ) -> StateBinding<[ScreenStack<Screen>.ID]> {
      makePathBinding(of: self, stack, send: event)
    }

    /// A binding of the model of a child this child presents, for a sheet or a full-screen cover:
    /// `nil` while it is not presented, and a write of `nil` sends this child's `dismiss`.
    ///
    /// See ``MainStore/binding(_:dismiss:)``.
    /// - Parameters:
    ///   - embedding: The presented child's declaration in this child's feature.
    ///   - dismiss: This child's event that a dismissal sends.
    /// - Returns: The binding.
    public func binding<Parent: Core, Presented: Core>(
      _ embedding: EmbeddedChild<Parent, Presented>, dismiss: Child.Event
    ) -> StateBinding<ChildModel<Presented>?>
    where
      Parent.State == Child.State, Parent.Event == Child.Event, Presented.State: Equatable
    {
      makePresentedBinding(of: self, embedding, dismiss: dismiss)
    }
  }

  extension ChildModel: Identifiable {}

  /// A binding of the ids of `stack` in `model`'s state that sends `event` for a new path, holding
  /// the model weakly.
  @MainActor
  private func makePathBinding<Model: ViewModel, Screen>(
    of model: Model, _ stack: KeyPath<Model.ModelCore.State, ScreenStack<Screen>>,
    send event: @escaping ([ScreenStack<Screen>.ID]) -> Model.ModelCore.Event
  ) -> StateBinding<[ScreenStack<Screen>.ID]> {
    var last = model.state[keyPath: stack].ids
    return StateBinding(
      get: { [weak model] in
        if let model { last = model.state[keyPath: stack].ids }
        return last
      },
      set: { [weak model] path in
        // NB: a platform may write back the path it shows (SwiftUI does as views are re-created):
        // that is no navigation, and an event for it would only fill the journal.
        guard let model, path != model.state[keyPath: stack].ids else { return }
        model.send(event(path))
        last = model.state[keyPath: stack].ids
      })
  }

  /// A binding of the model of `embedding`'s child in `model`, whose write of `nil` sends
  /// `dismiss` while the child it last read is presented, holding the model weakly.
  @MainActor
  private func makePresentedBinding<Model: ViewModel, Parent: Core, Child: Core>(
    of model: Model, _ embedding: EmbeddedChild<Parent, Child>, dismiss: Model.ModelCore.Event
  ) -> StateBinding<ChildModel<Child>?>
  where
    Parent.State == Model.ModelCore.State, Parent.Event == Model.ModelCore.Event,
    Child.State: Equatable
  {
    weak var shown: ChildModel<Child>?
    return StateBinding(
      get: { [weak model] in
        let child = model?.child(embedding)
        shown = child
        return child
      },
      set: { [weak model] newValue in
        // NB: the platform writes nil for the child it shows, which is the one it last read. Once
        // that child is gone (dismissed or replaced by the core in the meantime), the dismissal is
        // late: sending it would dismiss the child that took its place.
        guard newValue == nil, let model, let child = shown, !child.isGone else { return }
        model.send(dismiss)
      })
  }
#endif
