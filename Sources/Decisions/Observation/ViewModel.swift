#if canImport(Observation)
  /// A main-actor model that a view reads state from and sends events to: a ``MainStore``, an
  /// ``ObservableStore``, or a ``ChildModel`` made from one of them.
  ///
  /// Every view model makes models for its children from the parent's `embed` declarations: a row
  /// or a screen with `child(_:id:)`, a presented or always-present child with `child(_:)`. A child
  /// model holds the child's state and sends the child's events; a view that reads it is
  /// invalidated only when the child's state changes, not when the rest of the parent's state
  /// does.
  ///
  /// ```swift
  /// struct CounterView: View {
  ///   let model: ChildModel<Counter>
  ///   var body: some View {
  ///     Button("\(model.state.count)") { model.send(.incrementTapped) }
  ///   }
  /// }
  /// // In the parent's view, with `static let sheet = embed(Counter.self, presented: \.$sheet, …)`:
  /// if let sheet = model.child(Parent.sheet) { CounterView(model: sheet) }
  /// ```
  @MainActor
  public protocol ViewModel<ModelCore>: AnyObject {
    /// The core whose state the model holds and whose events it sends.
    associatedtype ModelCore: Core

    /// The state the view shows.
    var state: ModelCore.State { get }

    /// Sends an event from the view.
    func send(_ event: ModelCore.Event)

    /// The child models made from this one: the library keeps them up to date. Not for use.
    var childModels: ChildModels<ModelCore.State> { get }
  }

  extension ViewModel {
    // NB: the models by key path are `package`, for the library's tests and benchmarks: a view
    // asks for a child's model with the parent's `embed` declaration (`child(_:id:)`,
    // `child(_:)`), which names the child's place and event once.

    /// Returns the model of a child whose state is always present, such as a counter inside a
    /// screen.
    ///
    /// Asking again with the same key path returns the same model. Its state follows the child's
    /// state after every change of the parent's, and it is replaced, and so invalidates the views
    /// that read it, only when the child's state changes.
    /// - Parameters:
    ///   - core: The child's core.
    ///   - state: The child's state in the parent's.
    ///   - event: Wraps a child's event as the parent's, usually a case of the parent's event enum.
    /// - Returns: The child's model.
    package func child<Child: Core>(
      _ core: Child.Type,
      state: KeyPath<ModelCore.State, Child.State>,
      event: @escaping (Child.Event) -> ModelCore.Event
    ) -> ChildModel<Child> where Child.State: Equatable {
      childModels.model(
        key: ChildModels.Key(path: state, id: nil, core: core), from: self.state,
        read: { $0[keyPath: state] }, send: { [weak self] in self?.send(event($0)) },
        drop: { [weak self] in self?.dropStale(event($0)) })
    }

    /// Returns the model of an optional child, such as a sheet, or `nil` while the child's state is
    /// `nil`.
    ///
    /// Asking again while the child is present returns the same model. When the child's state
    /// becomes `nil`, the model is let go: asking after the child appears again returns a new one.
    /// - Parameters:
    ///   - core: The child's core.
    ///   - state: The child's optional state in the parent's.
    ///   - event: Wraps a child's event as the parent's.
    /// - Returns: The child's model, or `nil` when the child is absent.
    package func child<Child: Core>(
      _ core: Child.Type,
      state: KeyPath<ModelCore.State, Child.State?>,
      event: @escaping (Child.Event) -> ModelCore.Event
    ) -> ChildModel<Child>? where Child.State: Equatable {
      childModels.optionalModel(
        key: ChildModels.Key(path: state, id: nil, core: core), from: self.state,
        read: { $0[keyPath: state].map { ($0, nil) } },
        send: { [weak self] in self?.send(event($0)) },
        drop: { [weak self] in self?.dropStale(event($0)) })
    }

    /// Returns the model of a presented child, such as a sheet in a ``Presented`` slot, or `nil`
    /// while none is presented.
    ///
    /// Asking again while the same child is presented returns the same model. Once the child is
    /// dismissed, or another is presented in its place, the model is gone (``ChildModel/isGone``)
    /// and asking returns a new model for the new child.
    /// - Parameters:
    ///   - core: The child's core.
    ///   - state: The child's slot in the parent's state: `\.$sheet` for `@Presented var sheet`.
    ///   - event: Wraps a child's event as the parent's.
    /// - Returns: The child's model, or `nil` when no child is presented.
    package func child<Child: Core>(
      _ core: Child.Type,
      state: KeyPath<ModelCore.State, Presented<Child.State>>,
      event: @escaping (Child.Event) -> ModelCore.Event
    ) -> ChildModel<Child>? where Child.State: Equatable {
      childModels.optionalModel(
        key: ChildModels.Key(path: state, id: nil, core: core), from: self.state,
        read: { parent in
          let slot = parent[keyPath: state]
          return slot.value.map { ($0, slot.identity) }
        },
        send: { [weak self] in self?.send(event($0)) },
        drop: { [weak self] in self?.dropStale(event($0)) })
    }

    /// Returns the model of the child with `id` in an ``IdentifiedArray`` of children, or `nil`
    /// when no child has that id.
    ///
    /// The child is found in O(1). Asking again while the child is present returns the same model;
    /// once the child is removed, the model is let go.
    /// ```swift
    /// ForEach(model.state.rows) { row in
    ///   if let rowModel = model.child(Row.self, id: row.id, in: \.rows, event: Parent.Event.row) {
    ///     RowView(model: rowModel)
    ///   }
    /// }
    /// ```
    /// - Parameters:
    ///   - core: The child's core.
    ///   - id: The child's id.
    ///   - children: The children in the parent's state.
    ///   - event: Wraps a child's event as the parent's, with the child's id.
    /// - Returns: The child's model, or `nil` when no child has the id.
    package func child<Child: Core>(
      _ core: Child.Type,
      id: Child.State.ID,
      in children: KeyPath<ModelCore.State, IdentifiedArray<Child.State>>,
      event: @escaping (Child.State.ID, Child.Event) -> ModelCore.Event
    ) -> ChildModel<Child>? where Child.State: Equatable & Identifiable {
      childModels.identifiedModel(
        key: ChildModels.Key(path: children, id: nil, core: core), id: id, from: self.state,
        children: children,
        send: { [weak self] in self?.send(event(id, $0)) },
        drop: { [weak self] in self?.dropStale(event(id, $0)) })
    }

    /// Returns the model of the child with `id` in an array of children, or `nil` when no child has
    /// that id.
    ///
    /// Like the version for an ``IdentifiedArray``, but each change of the parent's state searches
    /// the array for each child model in use: O(*n*) per model. Prefer an `IdentifiedArray` for long
    /// lists.
    /// - Parameters:
    ///   - core: The child's core.
    ///   - id: The child's id.
    ///   - children: The children in the parent's state.
    ///   - event: Wraps a child's event as the parent's, with the child's id.
    /// - Returns: The child's model, or `nil` when no child has the id.
    package func child<Child: Core>(
      _ core: Child.Type,
      id: Child.State.ID,
      in children: KeyPath<ModelCore.State, [Child.State]>,
      event: @escaping (Child.State.ID, Child.Event) -> ModelCore.Event
    ) -> ChildModel<Child>? where Child.State: Equatable & Identifiable {
      childModels.optionalModel(
        key: ChildModels.Key(path: children, id: id, core: core), from: self.state,
        read: { $0[keyPath: children].first { $0.id == id }.map { ($0, nil) } },
        send: { [weak self] in self?.send(event(id, $0)) },
        drop: { [weak self] in self?.dropStale(event(id, $0)) })
    }

    /// Returns the model of the screen with `id` in a ``ScreenStack``, or `nil` when no screen has
    /// that id.
    ///
    /// The screen is found in O(1). Asking again while the screen is on the stack returns the same
    /// model. Once the screen is popped, or the stack is assigned anew (a deep link) even with a
    /// screen of the same id, the model is gone (``ChildModel/isGone``) and its events are dropped:
    /// it never drives the screen that took its place.
    /// ```swift
    /// .navigationDestination(for: ScreenStack<Detail.State>.ID.self) { id in
    ///   if let detail = model.child(Detail.self, id: id, in: \.path, event: Parent.Event.detail) {
    ///     DetailView(model: detail)
    ///   }
    /// }
    /// ```
    /// - Parameters:
    ///   - core: The screens' core.
    ///   - id: The screen's id.
    ///   - stack: The stack in the parent's state.
    ///   - event: Wraps a screen's event as the parent's, with the screen's id.
    /// - Returns: The screen's model, or `nil` when no screen has the id.
    package func child<Child: Core>(
      _ core: Child.Type,
      id: ScreenStack<Child.State>.ID,
      in stack: KeyPath<ModelCore.State, ScreenStack<Child.State>>,
      event: @escaping (ScreenStack<Child.State>.ID, Child.Event) -> ModelCore.Event
    ) -> ChildModel<Child>? where Child.State: Equatable {
      childModels.optionalModel(
        key: ChildModels.Key(path: stack, id: id, core: core), from: self.state,
        read: { parent in
          let entries = parent[keyPath: stack].entries
          return entries.positions[id].map { (entries.elements[$0].screen, entries.stamps[$0]) }
        },
        send: { [weak self] in self?.send(event(id, $0)) },
        drop: { [weak self] in self?.dropStale(event(id, $0)) })
    }

    /// Returns the model of the child with `id` of an embedding, such as a screen of a stack or a
    /// row of a list, or `nil` when no child of that kind has the id.
    ///
    /// Asking again while the child is in the state returns the same model. Once the child leaves,
    /// or a new child takes its place, the model is gone (``ChildModel/isGone``) and its events are
    /// dropped.
    /// ```swift
    /// .navigationDestination(for: ScreenStack<Detail.State>.ID.self) { id in
    ///   if let detail = model.child(Parent.details, id: id) { DetailView(model: detail) }
    /// }
    /// ```
    /// - Parameters:
    ///   - embedding: The children's declaration in the parent feature.
    ///   - id: The child's id.
    /// - Returns: The child's model, or `nil` when no child of that kind has the id.
    public func child<Parent: Core, Child: Core, ID>(
      _ embedding: EmbeddedChildren<Parent, Child, ID>, id: ID
    ) -> ChildModel<Child>?
    where
      Parent.State == ModelCore.State, Parent.Event == ModelCore.Event, Child.State: Equatable
    {
      anyChild(embedding, id: id)
    }

    private func anyChild<Parent: Core, Child: Core, ID>(
      _ embedding: EmbeddedChildren<Parent, Child, ID>, id: ID
    ) -> ChildModel<Child>?
    where
      Parent.State == ModelCore.State, Parent.Event == ModelCore.Event, Child.State: Equatable
    {
      let read = embedding.read
      let event = embedding.event
      return childModels.optionalModel(
        key: ChildModels.Key(path: embedding.place, id: id, core: Child.self), from: self.state,
        read: { read(id, $0) },
        send: { [weak self] in self?.send(event(id, $0)) },
        drop: { [weak self] in self?.dropStale(event(id, $0)) })
    }

    /// Returns the model of the row with `id` of a list embedding, or `nil` when no row has the
    /// id: the models of a list follow only the rows that an event changed.
    ///
    /// The same as the version for any embedding, found in O(1) per row that changed.
    /// - Parameters:
    ///   - embedding: The rows' declaration in the parent feature.
    ///   - id: The row's id.
    /// - Returns: The row's model, or `nil` when no row has the id.
    public func child<Parent: Core, Child: Core>(
      _ embedding: EmbeddedChildren<Parent, Child, Child.State.ID>, id: Child.State.ID
    ) -> ChildModel<Child>?
    where
      Parent.State == ModelCore.State, Parent.Event == ModelCore.Event,
      Child.State: Equatable & Identifiable
    {
      guard let list = embedding.list as? KeyPath<ModelCore.State, IdentifiedArray<Child.State>>
      else { return anyChild(embedding, id: id) }
      let event = embedding.event
      return childModels.identifiedModel(
        key: ChildModels.Key(path: list, id: nil, core: Child.self), id: id, from: self.state,
        children: list,
        send: { [weak self] in self?.send(event(id, $0)) },
        drop: { [weak self] in self?.dropStale(event(id, $0)) })
    }

    /// Returns the model of the child of an embedding, such as a sheet, or `nil` while it is not
    /// in the parent's state.
    ///
    /// Asking again while the same child is presented returns the same model. Once the child is
    /// dismissed, or another is presented in its place, the model is gone (``ChildModel/isGone``)
    /// and its events are dropped. A child declared with `embed(_:state:event:decision:request:)`
    /// is always there, so its model is never `nil`; one declared with `case:` is `nil` while its
    /// place holds another case.
    /// ```swift
    /// .sheet(item: ...) { ... if let editor = model.child(Parent.sheet) { EditorView(model: editor) } }
    /// ```
    /// - Parameter embedding: The child's declaration in the parent feature.
    /// - Returns: The child's model, or `nil` when it is not presented.
    public func child<Parent: Core, Child: Core>(_ embedding: EmbeddedChild<Parent, Child>)
      -> ChildModel<Child>?
    where
      Parent.State == ModelCore.State, Parent.Event == ModelCore.Event, Child.State: Equatable
    {
      let read = embedding.read
      let event = embedding.event
      return childModels.optionalModel(
        key: ChildModels.Key(path: embedding.place, id: nil, core: Child.self), from: self.state,
        read: { read($0) },
        send: { [weak self] in self?.send(event($0)) },
        drop: { [weak self] in self?.dropStale(event($0)) })
    }

    /// Reports an event that a child model sent after its child left this model's state.
    fileprivate func dropStale(_ event: ModelCore.Event) {
      (self as? any StaleEventDropping)?.dropStale(event)
    }
  }
#endif

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
