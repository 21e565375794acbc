#if canImport(Observation)
  import Observation

  /// The model of one child of a ``ViewModel``: it holds the child's state and sends the child's
  /// events to the parent.
  ///
  /// Make one from the parent's `embed` declaration: `model.child(Parent.rows, id: id)` or
  /// `model.child(Parent.sheet)`. The parent updates it after each change of its own
  /// state, in the same main-actor turn, and replaces ``state`` only when the child's state has
  /// changed: a view that reads a child model is invalidated only by its child. A child model can
  /// make models of its own children in turn.
  ///
  /// The child's events go through the parent, and so through the parent's core, which embeds the
  /// child's core through the same declaration: a child model adds no logic of its own.
  @MainActor
  public final class ChildModel<Child: Core>: ViewModel, Observable where Child.State: Equatable {
    /// The child's core.
    public typealias ModelCore = Child

    /// The child's state, as of the parent's latest state.
    ///
    /// When the child leaves the parent's state (an optional child set to `nil`, a child removed
    /// from its collection), the model keeps the last state it had, and the parent lets it go. A
    /// new child in its place (the same id, added back) gets a new model: this one never shows it.
    public var state: Child.State {
      changes.access()
      return current
    }

    // NB: observation by hand, through a `StateChanges`: see `MainStore.changes`.
    private var current: Child.State
    /// What observers of `state` register with and hear from.
    private let changes = StateChanges()
    private let sendToParent: (Child.Event) -> Void
    private let dropAtParent: (Child.Event) -> Void
    private var children: ChildModels<Child.State>?
    /// Which child this model belongs to, where the parent's state can tell (see
    /// ``IdentifiedArray``): a new child with the same id has another identity.
    let identity: UInt64?
    /// Whether the child left the parent's state: the model's events are dropped from then on.
    public private(set) var isGone = false

    /// Creates the model of a child with its current state, sending its events with `send`, and
    /// reporting with `drop` the events sent once the child is gone.
    init(
      state: Child.State, identity: UInt64? = nil,
      send: @escaping (Child.Event) -> Void, drop: @escaping (Child.Event) -> Void
    ) {
      self.current = state
      self.identity = identity
      self.sendToParent = send
      self.dropAtParent = drop
    }

    /// Sends an event of the child to the parent, wrapped as the parent's event.
    ///
    /// Once the child has left the parent's state (``isGone``), the event is dropped, and reported
    /// to the store's diagnostics hook as ignored, with ``IgnoredReason/goneChild``: it never
    /// reaches the parent's core, nor a new child that took this one's place. Once the parent is
    /// gone, the event goes nowhere.
    public func send(_ event: Child.Event) {
      if isGone {
        dropAtParent(event)
      } else {
        sendToParent(event)
      }
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
      changes.willSet()
      current = state
      changes.didSet()
      children?.update(from: state)
    }

    /// The child left the parent's state: the model keeps its last state and drops its events,
    /// and so do the models of its own children.
    fileprivate func leave() {
      isGone = true
      children?.leaveAll()
    }
  }

  extension ChildModel: StaleEventDropping {
    func dropStale(_ event: Any) {
      guard let event = event as? Child.Event else { return }
      dropAtParent(event)
    }
  }

  extension ObservableStore: StaleEventDropping {
    func dropStale(_ event: Any) {
      guard let event = event as? F.Event else { return }
      let store = self.store
      Task { await store.ignore(event, reason: .goneChild) }
    }
  }

  /// A view model that reports the events of its children's models that were sent after their
  /// child left its state: dropped, and reported as ignored.
  // NB: a protocol of the library's own, so the view models' public protocol gets no requirement
  // that only the library can meet. The event is the model's own, type-erased.
  @MainActor
  protocol StaleEventDropping: AnyObject {
    /// Reports `event`, one of the model's own events, as dropped: its child model's child is gone.
    func dropStale(_ event: Any)
  }

  /// The child models a ``ViewModel`` made, kept up to date with its state.
  ///
  /// Each view model has one; the library uses it, and it has no API of its own.
  ///
  /// Updating after a change of the parent's state costs what changed: the models of children in
  /// an ``IdentifiedArray`` are updated only when their own child changed, found from the
  /// collection's log of changes, so a list with 10,000 models made costs the same to update as a
  /// list with 10. Models of other shapes (a child, an optional child, children in an array) are
  /// each looked at after every change.
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
      /// Tells the model that its child is gone.
      let leave: () -> Void
    }

    private var entries: [Key: Entry] = [:]
    /// The models of children in identified collections, by the collection's key path and core.
    private var groups: [Key: any ChildModelGroup<ParentState>] = [:]

    /// Creates an empty set of child models.
    package init() {}

    /// How many child models are kept.
    package var count: Int {
      groups.values.reduce(entries.count) { $0 + $1.count }
    }

    /// Returns the kept model for `key`, or makes and keeps one, for a child that is always
    /// present.
    func model<Child: Core>(
      key: Key, from state: ParentState,
      read: @escaping (ParentState) -> Child.State,
      send: @escaping (Child.Event) -> Void, drop: @escaping (Child.Event) -> Void
    ) -> ChildModel<Child> {
      if let model = entries[key]?.model as? ChildModel<Child> { return model }
      let model = ChildModel<Child>(state: read(state), send: send, drop: drop)
      return keep(model, key: key) { read($0) }
    }

    /// Returns the kept model for `key`, or makes and keeps one, for a child that may be absent;
    /// `nil` while it is.
    func optionalModel<Child: Core>(
      key: Key, from state: ParentState,
      read: @escaping (ParentState) -> (state: Child.State, identity: UInt64?)?,
      send: @escaping (Child.Event) -> Void, drop: @escaping (Child.Event) -> Void
    ) -> ChildModel<Child>? {
      guard let child = read(state) else {
        if let entry = entries.removeValue(forKey: key) { entry.leave() }
        return nil
      }
      if let model = entries[key]?.model as? ChildModel<Child> {
        if model.identity == child.identity { return model }
        entries.removeValue(forKey: key)?.leave()
      }
      let model = ChildModel<Child>(
        state: child.state, identity: child.identity, send: send, drop: drop)
      return keep(model, key: key) { state in
        guard let child = read(state), child.identity == model.identity else { return nil }
        return child.state
      }
    }

    /// Returns the kept model of the child with `id` in an identified collection, or makes and
    /// keeps one; `nil` while no child has the id.
    func identifiedModel<Child: Core>(
      key: Key, id: Child.State.ID, from state: ParentState,
      children: KeyPath<ParentState, IdentifiedArray<Child.State>>,
      send: @escaping (Child.Event) -> Void, drop: @escaping (Child.Event) -> Void
    ) -> ChildModel<Child>? where Child.State: Identifiable & Equatable {
      let group: IdentifiedModels<ParentState, Child>
      if let kept = groups[key] as? IdentifiedModels<ParentState, Child> {
        group = kept
      } else {
        group = IdentifiedModels(children: children, from: state)
        groups[key] = group
      }
      return group.model(id: id, from: state, send: send, drop: drop)
    }

    private func keep<Child: Core>(
      _ model: ChildModel<Child>, key: Key, read: @escaping (ParentState) -> Child.State?
    ) -> ChildModel<Child> {
      // NB: the entry holds the model weakly in its closures and strongly as `model`: removing the
      // entry lets the model go.
      entries[key] = Entry(
        model: model,
        update: { [weak model] state in
          guard let model, let childState = read(state) else { return false }
          model.update(childState)
          return true
        },
        leave: { [weak model] in model?.leave() })
      return model
    }

    /// Updates the kept models from the parent's new state, and lets go of the models whose child
    /// is gone.
    func update(from state: ParentState) {
      if !entries.isEmpty {
        var gone: [Key] = []
        for (key, entry) in entries where !entry.update(state) {
          gone.append(key)
        }
        for key in gone { entries.removeValue(forKey: key)?.leave() }
      }
      for group in groups.values { group.update(from: state) }
    }

    /// The parent is gone from its own parent's state: every model kept here is gone too.
    func leaveAll() {
      for entry in entries.values { entry.leave() }
      entries = [:]
      for group in groups.values { group.leaveAll() }
      groups = [:]
    }
  }

  /// The models of the children in one identified collection of a parent's state.
  @MainActor
  protocol ChildModelGroup<ParentState>: AnyObject {
    associatedtype ParentState
    /// How many models are kept.
    var count: Int { get }
    /// Updates the models whose child changed since the last update, and lets go of the models
    /// whose child is gone.
    func update(from state: ParentState)
    /// Tells every model that its child is gone, and lets them go.
    func leaveAll()
  }

  /// The models of the children in one ``IdentifiedArray`` of a parent's state, updated from the
  /// collection's log of changes: only the models whose child changed are looked at.
  @MainActor
  final class IdentifiedModels<ParentState, Child: Core>: ChildModelGroup
  where Child.State: Identifiable & Equatable {
    private let children: KeyPath<ParentState, IdentifiedArray<Child.State>>
    private var models: [Child.State.ID: ChildModel<Child>] = [:]
    /// The collection's version at the last update.
    private var seen: UInt64

    init(children: KeyPath<ParentState, IdentifiedArray<Child.State>>, from state: ParentState) {
      self.children = children
      self.seen = state[keyPath: children].version
    }

    var count: Int { models.count }

    func model(
      id: Child.State.ID, from state: ParentState,
      send: @escaping (Child.Event) -> Void, drop: @escaping (Child.Event) -> Void
    ) -> ChildModel<Child>? {
      let children = state[keyPath: self.children]
      guard let position = children.positions[id] else {
        models.removeValue(forKey: id)?.leave()
        return nil
      }
      let identity = children.stamps[position]
      if let model = models[id] {
        if model.identity == identity { return model }
        models.removeValue(forKey: id)?.leave()
      }
      let model = ChildModel<Child>(
        state: children.elements[position], identity: identity, send: send, drop: drop)
      models[id] = model
      return model
    }

    func update(from state: ParentState) {
      guard !models.isEmpty else { return }
      let children = state[keyPath: self.children]
      guard children.version != seen else { return }
      if let changed = children.changes(since: seen) {
        for id in changed { refresh(id, in: children) }
      } else {
        for id in Array(models.keys) { refresh(id, in: children) }
      }
      seen = children.version
    }

    private func refresh(_ id: Child.State.ID, in children: IdentifiedArray<Child.State>) {
      guard let model = models[id] else { return }
      if let position = children.positions[id], children.stamps[position] == model.identity {
        model.update(children.elements[position])
      } else {
        models[id] = nil
        model.leave()
      }
    }

    func leaveAll() {
      for model in models.values { model.leave() }
      models = [:]
    }
  }
#endif
