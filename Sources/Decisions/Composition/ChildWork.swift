/// How long the work of one kind of embedded child lives: as long as the child is in the parent's
/// state.
///
/// Each `embed(...)` declaration makes one, its `work` (see ``EmbeddedChildren/work`` and
/// ``EmbeddedChild/work``): list it in the feature's ``Feature/childWork``. After every event, the
/// store cancels the work of each child that the event removed from the state: a sheet dismissed,
/// a row removed from its list, a screen popped. Nothing the work sends afterwards arrives, even if
/// it was on its way when the child went, so a result can never reach a child that is gone, or a
/// new child that a later event put in its place.
///
/// A child removed and added back within *one* event is a new child too: a row of an
/// ``IdentifiedArray`` removed and added with the same id, or a sheet presented in place of
/// another in a ``Presented`` slot.
///
/// ```swift
/// static let rows = embed(Row.self, list: \.rows, event: Event.row, decision: Decision.row)
/// static let sheet = embed(
///   Editor.self, presented: \.$sheet, event: Event.sheet, decision: Decision.sheet)
/// static let childWork = [rows.work, sheet.work]
/// ```
///
/// Work in a child scope that no declaration covers is a mistake the store reports loudly: see
/// ``Feature/childWork``.
public struct ChildWork<State>: @unchecked Sendable {
  // NB: `@unchecked Sendable`, so a declaration can be a `static let`, though its closures are not
  // `@Sendable`: they capture the child's type, whose conformance to `Feature` is main-actor isolated
  // for a feature written in a module with default main-actor isolation, and the parent's key paths,
  // which are not `Sendable` there (they name main-actor properties); neither may cross isolation. It does not: only the library calls the closures, through the parent's
  // conformance, on the loop that runs the parent. A declaration built with a main-actor child's
  // conformance can only be built on the main actor, so its parent is main-actor too, and only a
  // `MainStore` (on the main actor) runs it; a `Store` requires `SendableMetatype` of its feature.
  /// Says whether the work in `scope` (the scopes below this feature, outermost first) lives in
  /// `state`, and as which child; `nil` when the scope is not this declaration's.
  @usableFromInline let lifetime: (_ scope: ArraySlice<WorkID>, _ state: State) -> WorkLifetime?
  /// A value that changes whenever a child this declaration covers may have come or gone, in
  /// O(1); `nil` when that cannot be told without looking at each child's work.
  @usableFromInline let fingerprint: (_ state: State) -> UInt64?
  /// The scopes of the children that may have come or gone since the fingerprint was `since`, each
  /// scope holding all of its child's work; `nil` when that cannot be told, and every piece of work
  /// must be looked at.
  @usableFromInline let changedScopes: (_ state: State, _ since: UInt64) -> [[WorkID]]?
  // NB: the store calls it after every event while children have work, from code that is not
  // specialized for `State`: through `fingerprint`, each call looked up `ChildWork<State>`'s
  // metadata and copied the state through its value witnesses. Made by the inlinable initializer,
  // this closure is specialized in the feature's module, and reads the state where it is.
  /// `fingerprint`, of the state at a pointer.
  @usableFromInline var fingerprintOfStateAt: (_ state: UnsafeRawPointer) -> UInt64?

  @inlinable
  init(
    lifetime: @escaping (_ scope: ArraySlice<WorkID>, _ state: State) -> WorkLifetime?,
    fingerprint: @escaping (_ state: State) -> UInt64?,
    changedScopes: @escaping (_ state: State, _ since: UInt64) -> [[WorkID]]? = { _, _ in nil }
  ) {
    self.lifetime = lifetime
    self.fingerprint = fingerprint
    self.changedScopes = changedScopes
    self.fingerprintOfStateAt = { state in
      fingerprint(state.assumingMemoryBound(to: State.self).pointee)
    }
  }

  /// The same declaration, whose fingerprint of the state at a pointer is `fingerprintOfStateAt`
  /// when it is not `nil`.
  @inlinable
  func reading(_ fingerprintOfStateAt: ((_ state: UnsafeRawPointer) -> UInt64?)?) -> Self {
    guard let fingerprintOfStateAt else { return self }
    var declaration = self
    declaration.fingerprintOfStateAt = fingerprintOfStateAt
    return declaration
  }

  // NB: a key path read through the runtime costs about 560 instructions; a stored property's
  // offset, learnt once, reads the collection's structure in place, without a copy of the state.
  /// The fingerprint of children without declarations of their own in the ``IdentifiedArray`` at
  /// `collection`, of the state at a pointer: its `structure`, read at the stored property's offset;
  /// `nil` when `collection` is not a stored property's path.
  @inlinable
  static func structureOfStateAt<Child: Feature, Collection>(
    _ child: Child.Type, _ collection: KeyPath<State, Collection>,
    structure: @escaping (borrowing Collection) -> UInt64
  ) -> ((_ state: UnsafeRawPointer) -> UInt64?)? {
    guard let offset = MemoryLayout<State>.offset(of: collection) else { return nil }
    return { state in
      guard Child.childWork.isEmpty else { return nil }
      return structure((state + offset).assumingMemoryBound(to: Collection.self).pointee)
    }
  }

  /// The work of an optional child, in scope `scope`, lives while the child's state is not `nil`.
  /// - Parameters:
  ///   - child: The child's feature.
  ///   - state: The child's optional state in the parent's.
  ///   - scope: The scope its decisions are performed in.
  /// - Returns: The declaration, for the feature's ``Feature/childWork``.
  @inlinable
  package static func optional<Child: Feature>(
    _ child: Child.Type, state: KeyPath<State, Child.State?>,
    scope: some Hashable & Sendable
  ) -> Self {
    let scope = WorkID(scope)
    return Self { path, parent in
      guard path.first == scope else { return nil }
      guard let childState = parent[keyPath: state] else { return .gone }
      return Child.lifetime(ofWorkIn: path.dropFirst(), state: childState)
    } fingerprint: { parent in
      guard let childState = parent[keyPath: state] else { return 0 }
      return Child.childrenFingerprint(of: childState).map { combine(1, $0) }
    } changedScopes: { _, _ in
      Child.childWork.isEmpty ? [[scope]] : nil
    }
  }

  /// The work of a presented child, such as a sheet, in scope `scope`, lives while that child is
  /// presented: not after it is dismissed, nor after another child is presented in its place,
  /// even within one event (see ``Presented``).
  /// ```swift
  /// .optional(Editor.self, state: \.$sheet, scope: Scope.sheet)
  /// ```
  /// - Parameters:
  ///   - child: The child's feature.
  ///   - state: The child's slot in the parent's state: the projected value of its `@Presented`
  ///     property.
  ///   - scope: The scope its decisions are performed in.
  /// - Returns: The declaration, for the feature's ``Feature/childWork``.
  @inlinable
  package static func optional<Child: Feature>(
    _ child: Child.Type, state: KeyPath<State, Presented<Child.State>>,
    scope: some Hashable & Sendable
  ) -> Self {
    let scope = WorkID(scope)
    return Self { path, parent in
      guard path.first == scope else { return nil }
      let slot = parent[keyPath: state]
      guard let childState = slot.value else { return .gone }
      return Child.lifetime(ofWorkIn: path.dropFirst(), state: childState)
        .identified(by: slot.identity)
    } fingerprint: { parent in
      let slot = parent[keyPath: state]
      guard let childState = slot.value else { return 0 }
      return Child.childrenFingerprint(of: childState).map { combine(slot.identity, $0) }
    } changedScopes: { _, _ in
      Child.childWork.isEmpty ? [[scope]] : nil
    }
  }

  /// The work of each child in an ``IdentifiedArray``, in the scope of the child's id, lives while
  /// a child with that id is in it.
  /// - Parameters:
  ///   - child: The children's feature.
  ///   - children: The children in the parent's state.
  /// - Returns: The declaration, for the feature's ``Feature/childWork``.
  /// - Complexity: For children without declarations of their own: O(1) after an event that adds or
  ///   removes none; O(*k* + *w*) after one that adds or removes *k* ≤ 16, whose work is *w*
  ///   pieces; O(1) per piece of the children's work after one that adds or removes more, or
  ///   replaces the collection. For children with declarations of their own: O(1) per piece of
  ///   the children's work, after each event.
  @inlinable
  package static func children<Child: Feature>(
    _ child: Child.Type, in children: KeyPath<State, IdentifiedArray<Child.State>>
  ) -> Self where Child.State: Identifiable {
    let declaration = Self { path, parent in
      guard let id = path.first?.base as? Child.State.ID else { return nil }
      let children = parent[keyPath: children]
      guard let position = children.positions[id] else { return .gone }
      return Child.lifetime(ofWorkIn: path.dropFirst(), state: children.elements[position])
        .identified(by: children.stamps[position])
    } fingerprint: { parent in
      // NB: a child's own children can come and go without a change to the collection's
      // structure: only a child without declarations of its own is told by the structure alone.
      Child.childWork.isEmpty ? parent[keyPath: children].structure : nil
    } changedScopes: { parent, since in
      parent[keyPath: children].structuralChanges(since: since)?.map { [WorkID(lookingUp: $0)] }
    }
    return declaration.reading(structureOfStateAt(Child.self, children) { $0.structure })
  }

  /// The work of each child in an array, in the scope of the child's id, lives while a child with
  /// that id is in it.
  /// - Parameters:
  ///   - child: The children's feature.
  ///   - children: The children in the parent's state.
  /// - Returns: The declaration, for the feature's ``Feature/childWork``.
  /// - Complexity: O(*n*) per piece of a child's work, after each event, for *n* children: prefer an
  ///   ``IdentifiedArray`` for long lists.
  @inlinable
  package static func children<Child: Feature>(
    _ child: Child.Type, in children: KeyPath<State, [Child.State]>
  ) -> Self where Child.State: Identifiable {
    Self { path, parent in
      guard let id = path.first?.base as? Child.State.ID else { return nil }
      guard let childState = parent[keyPath: children].first(where: { $0.id == id }) else {
        return .gone
      }
      return Child.lifetime(ofWorkIn: path.dropFirst(), state: childState)
    } fingerprint: { _ in
      nil
    }
  }

  /// The work of each child in a collection, in a scope made from the child's id, lives while a
  /// child with that id is in it.
  ///
  /// For scopes that are not the bare id, such as a case of the parent's scope enum, or when two
  /// collections have ids of the same type. Bare ids cannot tell their children apart: work that
  /// starts while both collections hold its id lives while either does, even after its own row
  /// left; work that starts while one holds it lives while that row is there.
  /// ```swift
  /// .children(Row.self, in: \.rows) { (scope: Scope) in
  ///   if case .row(let id) = scope { id } else { nil }
  /// }
  /// ```
  /// - Parameters:
  ///   - child: The children's feature.
  ///   - children: The children in the parent's state: an array or an ``IdentifiedArray``.
  ///   - id: The child's id in a scope the executor made for it, or `nil` for any other scope.
  /// - Returns: The declaration, for the feature's ``Feature/childWork``.
  /// - Complexity: O(*n*) per piece of a child's work, after each event, for *n* children.
  @inlinable
  package static func children<
    Child: Feature, Children: Collection<Child.State>, Scope
  >(
    _ child: Child.Type, in children: KeyPath<State, Children>,
    id: @escaping @Sendable (Scope) -> Child.State.ID?
  ) -> Self where Child.State: Identifiable {
    Self { path, parent in
      guard let scope = path.first?.base as? Scope, let id = id(scope) else { return nil }
      let children = parent[keyPath: children]
      if let children = children as? IdentifiedArray<Child.State> {
        guard let position = children.positions[id] else { return .gone }
        return Child.lifetime(ofWorkIn: path.dropFirst(), state: children.elements[position])
          .identified(by: children.stamps[position])
      }
      guard let childState = children.first(where: { $0.id == id }) else { return .gone }
      return Child.lifetime(ofWorkIn: path.dropFirst(), state: childState)
    } fingerprint: { parent in
      guard Child.childWork.isEmpty else { return nil }
      return (parent[keyPath: children] as? IdentifiedArray<Child.State>)?.structure
    }
  }

  /// A child that is always present, embedded without a scope of its own: the lifetimes it
  /// declares for its children apply here, to its state inside the parent's.
  /// - Parameters:
  ///   - child: The child's feature.
  ///   - state: The child's state in the parent's.
  /// - Returns: The declaration, for the feature's ``Feature/childWork``.
  @inlinable
  package static func child<Child: Feature>(
    _ child: Child.Type, state: KeyPath<State, Child.State>
  ) -> Self {
    Self { path, parent in
      let lifetime = Child.lifetime(ofWorkIn: path, state: parent[keyPath: state])
      return lifetime == .undeclared ? nil : lifetime
    } fingerprint: { parent in
      Child.childrenFingerprint(of: parent[keyPath: state])
    }
  }

  /// The work in scope `scope` lives until it ends or is cancelled, whatever the state: for work
  /// that must outlive the child that started it, such as an upload that finishes after its
  /// screen closed.
  @inlinable
  package static func outlivesState(scope: some Hashable & Sendable) -> Self {
    let scope = WorkID(scope)
    return Self { path, _ in
      path.first == scope ? .alive(identity: 0) : nil
    } fingerprint: { _ in
      0
    }
  }
}
