/// How long the work of one kind of embedded child lives: as long as the child is in the parent's
/// state.
///
/// A feature that runs children in work scopes of their own declares each kind of child in
/// ``Feature/childWork``: the `work` of each `embed(...)` declaration (see ``EmbeddedChildren``
/// and ``EmbeddedChild``), or, for children embedded by hand with
/// ``Feature/execute(_:deps:effects:scope:embed:)``, one of the declarations below. After every event, the store cancels the work of each child that the
/// event removed from the state: a sheet set to `nil`, a row removed from its list. Nothing the
/// work sends afterwards arrives, even if it was on its way when the child went, so a result can
/// never reach a child that is gone, or a new child that a later event put in its place.
///
/// A child removed and added back within *one* event is a new child too, where the state can
/// tell: a row of an ``IdentifiedArray`` removed and added with the same id, or a sheet presented
/// in place of another in a ``Presented`` slot. A plain optional or a plain array cannot tell, so
/// such a child keeps its predecessor's work: prefer those two types for children with work.
///
/// ```swift
/// static let rows = embed(Row.self, list: \.rows, event: Event.row, decision: Decision.row)
/// static let childWork = [
///   rows.work,  // each row's work, in a scope made from its id
///   ChildWork.optional(Counter.self, state: \.$sheet, scope: Scope.sheet),  // by hand
/// ]
/// ```
///
/// Work in a child scope that no declaration covers is a mistake the store reports loudly: see
/// ``Feature/childWork``. To keep a scope's work running whatever the state says, declare it with
/// ``outlivesState(scope:)``.
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
  public static func optional<Child: Feature>(
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
  public static func optional<Child: Feature>(
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
  public static func children<Child: Feature>(
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
  public static func children<Child: Feature>(
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
  /// collections have ids of the same type (bare ids could not tell their children apart):
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
  public static func children<
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

  /// A child that is always present, embedded in a scope of its own: its work lives as long as the
  /// parent's, and its own children's work as long as they are in its state.
  /// - Parameters:
  ///   - child: The child's feature.
  ///   - state: The child's state in the parent's.
  ///   - scope: The scope its decisions are performed in.
  /// - Returns: The declaration, for the feature's ``Feature/childWork``.
  @inlinable
  public static func child<Child: Feature>(
    _ child: Child.Type, state: KeyPath<State, Child.State>,
    scope: some Hashable & Sendable
  ) -> Self {
    let scope = WorkID(scope)
    return Self { path, parent in
      guard path.first == scope else { return nil }
      return Child.lifetime(ofWorkIn: path.dropFirst(), state: parent[keyPath: state])
    } fingerprint: { parent in
      Child.childrenFingerprint(of: parent[keyPath: state])
    }
  }

  /// A child that is always present, embedded without a scope of its own: the lifetimes it
  /// declares for its children apply here, to its state inside the parent's.
  /// - Parameters:
  ///   - child: The child's feature.
  ///   - state: The child's state in the parent's.
  /// - Returns: The declaration, for the feature's ``Feature/childWork``.
  @inlinable
  public static func child<Child: Feature>(
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
  public static func outlivesState(scope: some Hashable & Sendable) -> Self {
    let scope = WorkID(scope)
    return Self { path, _ in
      path.first == scope ? .alive(identity: 0) : nil
    } fingerprint: { _ in
      0
    }
  }
}

/// Whether the work in a scope may go on, for a store's check after each event.
@usableFromInline
package enum WorkLifetime: Equatable, Sendable {
  /// A child is in the state where the work belongs; `identity` tells that child from another
  /// that took its place (0 where the state cannot tell them apart, as in a plain array).
  case alive(identity: UInt64)
  /// The child it belongs to left the state: the work must be cancelled.
  case gone
  /// No declaration in ``Feature/childWork`` covers the scope.
  case undeclared

  /// Whether a child is in the state where the work belongs.
  package var isAlive: Bool {
    if case .alive = self { true } else { false }
  }

  /// The same lifetime, for a child whose own identity in its parent is `identity`.
  @inlinable
  func identified(by identity: UInt64) -> WorkLifetime {
    guard case .alive(let inner) = self else { return self }
    return .alive(identity: combine(identity, inner))
  }
}

/// Combines two identities, or fingerprints, into one that differs when either does.
@inlinable
func combine(_ outer: UInt64, _ inner: UInt64) -> UInt64 {
  // NB: the boost hash_combine mix: enough for values that are counters, not adversarial input.
  outer ^ (inner &+ 0x9E37_79B9_7F4A_7C15 &+ (outer << 6) &+ (outer >> 2))
}

extension Feature {
  /// Whether the work in `scope` (the scopes below this feature, outermost first) may go on in
  /// `state`, by this feature's ``childWork``.
  @usableFromInline
  package static func lifetime(ofWorkIn scope: ArraySlice<WorkID>, state: State) -> WorkLifetime {
    guard !scope.isEmpty else { return .alive(identity: 0) }
    // NB: every declaration is asked: two collections whose ids have the same type both claim a
    // bare id, and the work must live while either holds it. Cancelling live work would be worse
    // than keeping gone work. Its identity is that of the first declaration that holds it.
    var result = WorkLifetime.undeclared
    let declarations = childWork
    var index = 0  // EventLoop's rule 3: no iterator
    while index < declarations.count {
      let declaration = declarations[index]
      index += 1
      switch declaration.lifetime(scope, state) {
      case .alive(let identity)?: return .alive(identity: identity)
      case .gone?: result = .gone
      case .undeclared?, nil: break
      }
    }
    return result
  }

  /// A value that changes whenever a child that ``childWork`` covers may have come or gone.
  ///
  /// `nil` when that cannot be told in O(1). The same value means every child with work is still
  /// the same child.
  @usableFromInline
  package static func childrenFingerprint(of state: State) -> UInt64? {
    var fingerprint: UInt64 = 0
    let declarations = childWork
    var index = 0  // EventLoop's rule 3: no iterator
    while index < declarations.count {
      guard let part = declarations[index].fingerprint(state) else { return nil }
      fingerprint = combine(fingerprint, part)
      index += 1
    }
    return fingerprint
  }
}

/// Which children's work a store must look at after an event: see
/// ``Feature/changedChildren(in:marks:)``.
package enum ChildrenChange: Equatable {
  /// No child came or went.
  case none
  /// Only children whose work is in these scopes may have come or gone.
  case scopes([[WorkID]])
  /// Children may have come or gone anywhere: every piece of child work must be looked at.
  case unknown
}

extension Feature {
  /// Which children may have come or gone since the last check, whose fingerprints, one per
  /// declaration in ``childWork``, are `marks`; updates `marks` to the fingerprints of `state`.
  ///
  /// Empty or outdated `marks` (a first check) give ``ChildrenChange/unknown``.
  /// - Complexity: O(*d*) for *d* declarations, plus the scopes of the children added or removed.
  package static func changedChildren(in state: State, marks: inout [UInt64?]) -> ChildrenChange {
    let declarations = childWork
    if marks.count != declarations.count {
      marks = Array(repeating: nil, count: declarations.count)
    }
    var scopes: [[WorkID]] = []
    var isUnknown = false
    var index = 0  // EventLoop's rule 3: no iterator
    while index < declarations.count {
      let declaration = declarations[index]
      let fingerprint = declaration.fingerprint(state)
      if fingerprint == nil || fingerprint != marks[index] {
        if !isUnknown, fingerprint != nil, let mark = marks[index],
          let changed = declaration.changedScopes(state, mark)
        {
          scopes.append(contentsOf: changed)
        } else {
          isUnknown = true
        }
        marks[index] = fingerprint
      }
      index += 1
    }
    if isUnknown { return .unknown }
    return scopes.isEmpty ? .none : .scopes(scopes)
  }
}

/// What a store says when work runs in a child scope that no declaration covers, and no
/// diagnostics hook hears it.
package func workWithoutLifetimeMessage(feature: Any.Type, scope: [WorkID]) -> String {
  "Decisions: \(feature) runs work in the child scope \(scope), which no declaration in "
    + "\(feature).childWork covers, so nothing cancels it when the child leaves the state. Declare "
    + "the child there (see ChildWork), or declare .outlivesState(scope:) to keep such work on "
    + "purpose."
}

extension WorkRegistry {
  /// Cancels the work of the children of `feature` that left `state`, and reports work that no
  /// child lifetime covers (see ``Feature/childWork``): to `diagnostics`, or, without it, by
  /// stopping a debug build.
  /// - Parameters:
  ///   - feature: The feature whose children's work it is.
  ///   - state: The feature's state now.
  ///   - scopes: The scopes of the only children that may have left, or `nil` to look at all work.
  ///   - diagnostics: Where work without a lifetime is reported.
  package func endWorkOfGoneChildren<F: Feature>(
    of feature: F.Type, in state: F.State, scopes: [[WorkID]]?,
    diagnostics: (@Sendable (StoreDiagnostic<F>) -> Void)?
  ) {
    let scopes = endWorkOfGoneChildren(in: scopes) { F.lifetime(ofWorkIn: $0, state: state) }
    for scope in scopes {
      if let diagnostics {
        diagnostics(.workWithoutLifetime(scope: scope))
      } else {
        assertionFailure(workWithoutLifetimeMessage(feature: F.self, scope: scope))
      }
    }
  }
}
