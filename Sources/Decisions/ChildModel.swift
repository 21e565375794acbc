#if canImport(Observation)
  import Observation

  /// The model of one child of a ``ViewModel``: it holds the child's state and sends the child's
  /// events to the parent.
  ///
  /// Make one with a parent's `child` methods, such as
  /// `child(_:state:event:)`. The parent updates it after each change of its own
  /// state, in the same main-actor turn, and replaces ``state`` only when the child's state has
  /// changed: a view that reads a child model is invalidated only by its child. A child model can
  /// make models of its own children in turn.
  ///
  /// The child's events go through the parent, and so through the parent's core, which embeds the
  /// child's core with the composition helpers: a child model adds no logic of its own.
  @MainActor
  public final class ChildModel<Child: Core>: ViewModel, Observable where Child.State: Equatable {
    /// The child's core.
    public typealias ModelCore = Child

    /// The child's state, as of the parent's latest state.
    ///
    /// When the child leaves the parent's state (an optional child set to `nil`, a child removed
    /// from its collection), the model keeps the last state it had, and the parent lets it go.
    public var state: Child.State {
      registrar.access(self, keyPath: stateKeyPath)
      return current
    }

    // NB: observation by hand, with the key path built once: see `MainStore.current`.
    private var current: Child.State
    private let registrar = ObservationRegistrar()
    private let stateKeyPath: KeyPath<ChildModel<Child>, Child.State>
    private let sendToParent: (Child.Event) -> Void
    private var children: ChildModels<Child.State>?

    /// Creates the model of a child with its current state, sending its events with `send`.
    init(state: Child.State, send: @escaping (Child.Event) -> Void) {
      self.current = state
      self.stateKeyPath = \ChildModel<Child>.state
      self.sendToParent = send
    }

    /// Sends an event of the child to the parent, wrapped as the parent's event.
    ///
    /// Once the parent is gone, the event goes nowhere.
    public func send(_ event: Child.Event) {
      sendToParent(event)
    }

    /// The models of this child's own children.
    public var childModels: ChildModels<Child.State> {
      if let children { return children }
      let children = ChildModels<Child.State>()
      self.children = children
      return children
    }

    /// Takes the child's state from the parent's latest state, if it changed.
    fileprivate func update(_ state: Child.State) {
      guard state != current else { return }
      registrar.withMutation(of: self, keyPath: stateKeyPath) { current = state }
      children?.update(from: state)
    }
  }

  /// The child models a ``ViewModel`` made, kept up to date with its state.
  ///
  /// Each view model has one; the library uses it, and it has no API of its own.
  @MainActor
  public final class ChildModels<ParentState> {
    /// What names one child model: the key path of the child's state, the child's id in a
    /// collection, and the child's core.
    struct Key: Hashable {
      let path: AnyKeyPath
      let id: AnyHashable?
      let core: ObjectIdentifier

      init(path: AnyKeyPath, id: AnyHashable?, core: any Core.Type) {
        self.path = path
        self.id = id
        self.core = ObjectIdentifier(core)
      }
    }

    /// One child model and how it follows the parent's state.
    private struct Entry {
      let model: AnyObject
      /// Updates the model from the parent's state; returns `false` when the child is gone.
      let update: (ParentState) -> Bool
    }

    private var entries: [Key: Entry] = [:]

    /// Creates an empty set of child models.
    package init() {}

    /// How many child models are kept.
    package var count: Int { entries.count }

    /// Returns the kept model for `key`, or makes and keeps one, for a child that is always
    /// present.
    func model<Child: Core>(
      key: Key, from state: ParentState,
      read: @escaping (ParentState) -> Child.State,
      send: @escaping (Child.Event) -> Void
    ) -> ChildModel<Child> {
      if let model = entries[key]?.model as? ChildModel<Child> { return model }
      return keep(ChildModel<Child>(state: read(state), send: send), key: key) { read($0) }
    }

    /// Returns the kept model for `key`, or makes and keeps one, for a child that may be absent;
    /// `nil` while it is.
    func optionalModel<Child: Core>(
      key: Key, from state: ParentState,
      read: @escaping (ParentState) -> Child.State?,
      send: @escaping (Child.Event) -> Void
    ) -> ChildModel<Child>? {
      guard let childState = read(state) else {
        entries[key] = nil
        return nil
      }
      if let model = entries[key]?.model as? ChildModel<Child> { return model }
      return keep(ChildModel<Child>(state: childState, send: send), key: key, read: read)
    }

    private func keep<Child: Core>(
      _ model: ChildModel<Child>, key: Key, read: @escaping (ParentState) -> Child.State?
    ) -> ChildModel<Child> {
      // NB: the entry holds the model weakly in its closure and strongly as `model`: removing the
      // entry lets the model go.
      entries[key] = Entry(model: model) { [weak model] state in
        guard let model, let childState = read(state) else { return false }
        model.update(childState)
        return true
      }
      return model
    }

    /// Updates every kept model from the parent's new state, and lets go of the models whose child
    /// is gone.
    func update(from state: ParentState) {
      var gone: [Key] = []
      for (key, entry) in entries where !entry.update(state) {
        gone.append(key)
      }
      for key in gone { entries[key] = nil }
    }
  }
#endif
