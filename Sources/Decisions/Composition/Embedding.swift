import Synchronization

// MARK: - Declaring an embedding

extension Feature {
  /// Declares the screens of a ``ScreenStack`` in this feature's state, once: where they live, how
  /// their events and decisions are wrapped as this feature's, and the work scope their decisions
  /// run in.
  ///
  /// The declaration forwards the screens' events to their core
  /// (``EmbeddedChildren/makeDecisions(event:id:in:)``), performs their decisions in a scope of
  /// their own (``EmbeddedChildren/execute(_:id:deps:effects:)``), and says how long that work
  /// lives (``EmbeddedChildren/work``): the scope is made by the declaration, so it cannot be
  /// forgotten, and a popped screen's work ends with it.
  /// ```swift
  /// static let details = embed(
  ///   NoteDetail.self, stack: \.path, event: Event.detail, decision: Decision.detail)
  /// static let childWork = [details.work]
  /// // in makeDecisions:
  /// case .detail(let id, let event):
  ///   return details.makeDecisions(event: event, id: id, in: &state)
  /// // in execute:
  /// case .detail(let id, let decision):
  ///   details.execute(decision, id: id, deps: deps.detail, effects: effects)
  /// ```
  /// - Parameters:
  ///   - screen: The screens' feature.
  ///   - stack: The stack in this feature's state.
  ///   - sharing: The element of this feature's data that each screen shows and edits, kept in
  ///     step by the declaration (see ``SharedElement``), or `nil`.
  ///   - event: Wraps a screen's event as this feature's, with the screen's id: usually a case of
  ///     ``Core/Event``.
  ///   - decision: Wraps a screen's decision as this feature's, with the screen's id.
  ///   - request: The parent's event for a screen's decision that asks the parent something
  ///     (see ``EmbeddedChildren/makeDecisions(event:id:in:)``), or `nil` for a decision the
  ///     screen's executor performs. Without it, every decision is performed.
  /// - Returns: The declaration: keep it in a `static let`.
  @inlinable
  public static func embed<Screen: Feature>(
    _ screen: Screen.Type,
    stack: WritableKeyPath<State, ScreenStack<Screen.State>>,
    sharing: SharedElement<State, Screen.State>? = nil,
    event: @escaping @Sendable (ScreenStack<Screen.State>.ID, Screen.Event) -> Event,
    decision: @escaping (ScreenStack<Screen.State>.ID, Screen.Decision) -> Decision,
    request: ((ScreenStack<Screen.State>.ID, Screen.Decision) -> Event?)? = nil
  ) -> EmbeddedChildren<Self, Screen, ScreenStack<Screen.State>.ID> {
    _embed(
      screen, stack: stack, case: CaseProjection<Screen.State, Screen.State>.whole,
      sharing: sharing, event, decision, request: request)
  }

  /// Declares one kind of screen of a ``ScreenStack`` whose screens are the cases of an enum:
  /// the screens in case `case`.
  ///
  /// Each kind of screen is declared on its own, so the stack needs no feature of its own to
  /// dispatch events to the screens' cores:
  /// ```swift
  /// enum Screen: Equatable, Sendable {
  ///   case detail(Detail.State)
  ///   case record(Record.State)
  /// }
  /// static let details = embed(
  ///   Detail.self, stack: \.path, case: Screen.detail, event: Event.detail,
  ///   decision: Decision.detail)
  /// static let recorders = embed(
  ///   Record.self, stack: \.path, case: Screen.record, event: Event.record,
  ///   decision: Decision.record)
  /// static let childWork = [details.work, recorders.work]
  /// ```
  /// An event for a screen that is not of that case, or is gone, is dropped. A screen whose place
  /// is set to another case (`path[id: id] = .record(…)`) has left this declaration: its work
  /// ends after that event, as a popped screen's does.
  ///
  /// The case is told from a screen by reflection (`Mirror`): about 2 µs per event for a screen
  /// (14,000 instructions, `decisions-bench` case 18), and per check of a live screen's work,
  /// which the store makes after each event that changed that screen. An enum with a custom
  /// mirror (`CustomReflectable`) would hide its case, so it is refused when the declaration is
  /// made (a precondition): give `extract` too, the inverse of `case`, which tells the case with
  /// no reflection, for any enum:
  /// ```swift
  /// static let details = embed(
  ///   Detail.self, stack: \.path, case: Screen.detail,
  ///   extract: { if case .detail(let state) = $0 { state } else { nil } },
  ///   event: Event.detail, decision: Decision.detail)
  /// ```
  /// Two cases that hold the same feature share a work scope, each piece of work living while its
  /// screen is on the stack.
  ///
  /// A screen is changed in place: an event costs the same whatever the size of its state.
  /// - Parameters:
  ///   - screen: The feature of the screens of this case.
  ///   - stack: The stack in this feature's state.
  ///   - case: The case's constructor, such as `Screen.detail`.
  ///   - extract: The screen's state when a screen is in this case, otherwise `nil`: the inverse
  ///     of `case`. Without it, the case is told by reflection.
  ///   - sharing: The element of this feature's data that each screen shows and edits, kept in
  ///     step by the declaration (see ``SharedElement``), or `nil`.
  ///   - event: Wraps a screen's event as this feature's, with the screen's id.
  ///   - decision: Wraps a screen's decision as this feature's, with the screen's id.
  ///   - request: The parent's event for a screen's decision that asks the parent something
  ///     (see ``EmbeddedChildren/makeDecisions(event:id:in:)``), or `nil` for a decision the
  ///     screen's executor performs. Without it, every decision is performed.
  /// - Returns: The declaration: keep it in a `static let`.
  @inlinable
  public static func embed<Screen: Feature, Screens>(
    _ screen: Screen.Type,
    stack: WritableKeyPath<State, ScreenStack<Screens>>,
    case: @escaping (Screen.State) -> Screens,
    extract: ((Screens) -> Screen.State?)? = nil,
    sharing: SharedElement<State, Screen.State>? = nil,
    event: @escaping @Sendable (ScreenStack<Screens>.ID, Screen.Event) -> Event,
    decision: @escaping (ScreenStack<Screens>.ID, Screen.Decision) -> Decision,
    request: ((ScreenStack<Screens>.ID, Screen.Decision) -> Event?)? = nil
  ) -> EmbeddedChildren<Self, Screen, ScreenStack<Screens>.ID> {
    _embed(
      screen, stack: stack, case: CaseProjection(`case`, extract: extract), sharing: sharing,
      event, decision, request: request)
  }

  @inlinable
  static func _embed<Screen: Feature, Screens>(
    _ screen: Screen.Type,
    stack: WritableKeyPath<State, ScreenStack<Screens>>,
    case projection: CaseProjection<Screen.State, Screens>,
    sharing: SharedElement<State, Screen.State>?,
    _ event: @escaping @Sendable (ScreenStack<Screens>.ID, Screen.Event) -> Event,
    _ decision: @escaping (ScreenStack<Screens>.ID, Screen.Decision) -> Decision,
    request: ((ScreenStack<Screens>.ID, Screen.Decision) -> Event?)?
  ) -> EmbeddedChildren<Self, Screen, ScreenStack<Screens>.ID> {
    typealias ID = ScreenStack<Screens>.ID
    let read: (ID, State) -> (state: Screen.State, identity: UInt64)? = { id, parent in
      let entries = parent[keyPath: stack].entries
      guard let position = entries.positions[id],
        let screen = projection.extract(entries.elements[position].screen)
      else { return nil }
      return (screen, entries.stamps[position])
    }
    let modify: (ID, inout State, (inout Screen.State) -> [Screen.Decision]) -> [Screen.Decision] =
      { id, parent, body in
        // NB: one access through the key path, and the screen changed in place, one of a case too.
        func run(
          _ stack: inout ScreenStack<Screens>, _ body: (inout Screen.State) -> [Screen.Decision]
        ) -> [Screen.Decision] {
          guard let position = stack.entries.positions[id] else { return [] }
          stack.entries.log.updated(id)
          return projection.modify(&stack.entries.elements[position].screen, body) ?? []
        }
        return run(&parent[keyPath: stack], body)
      }
    if let sharing {
      return _embed(
        screen, stack: stack, case: projection, sharing: sharing, read: read, modify: modify,
        event, decision, request: request)
    }
    return EmbeddedChildren(
      scope: EmbeddingScope(stack, Screen.self),
      read: read,
      modify: modify,
      // NB: a screen of one case of an enum can leave the stack by an update, when its place is
      // set to another case (`path[id: id] = .other(…)`): for such a declaration every change
      // counts, not only screens pushed and popped.
      fingerprint: { parent in
        guard Screen.childWork.isEmpty else { return nil }
        let entries = parent[keyPath: stack].entries
        return projection.isWhole ? entries.structure : entries.version
      },
      changedIDs: { parent, since in
        let entries = parent[keyPath: stack].entries
        return projection.isWhole
          ? entries.structuralChanges(since: since) : entries.changes(since: since)
      },
      fingerprintOfStateAt: ChildWork.structureOfStateAt(Screen.self, stack) {
        projection.isWhole ? $0.entries.structure : $0.entries.version
      },
      event: event, decision: decision, request: request)
  }

  /// The screens of a stack that share an element of this feature's data.
  @inlinable
  static func _embed<Screen: Feature, Screens>(
    _ screen: Screen.Type,
    stack: WritableKeyPath<State, ScreenStack<Screens>>,
    case projection: CaseProjection<Screen.State, Screens>,
    sharing: SharedElement<State, Screen.State>,
    read: @escaping (ScreenStack<Screens>.ID, State) -> (state: Screen.State, identity: UInt64)?,
    modify:
      @escaping (ScreenStack<Screens>.ID, inout State, (inout Screen.State) -> [Screen.Decision])
      -> [Screen.Decision],
    _ event: @escaping @Sendable (ScreenStack<Screens>.ID, Screen.Event) -> Event,
    _ decision: @escaping (ScreenStack<Screens>.ID, Screen.Decision) -> Decision,
    request: ((ScreenStack<Screens>.ID, Screen.Decision) -> Event?)?
  ) -> EmbeddedChildren<Self, Screen, ScreenStack<Screens>.ID> {
    typealias ID = ScreenStack<Screens>.ID
    // NB: the screens whose copies differ from the parent's elements, and the lowest screen whose
    // element is gone; read before any screen changes, so that no copy of the stack is kept.
    func differences(_ parent: State) -> (loads: [(ID, (inout Screen.State) -> Void)], gone: ID?) {
      let entries = parent[keyPath: stack].entries
      var loads: [(ID, (inout Screen.State) -> Void)] = []
      var gone: ID?
      for entry in entries.elements {
        guard let screen = projection.extract(entry.screen) else { continue }
        switch sharing.lookup(screen, parent) {
        case .gone: if gone == nil { gone = entry.id }
        case .same: break
        case .changed(_, let load): loads.append((entry.id, load))
        }
      }
      return (loads, gone)
    }
    return EmbeddedChildren(
      scope: EmbeddingScope(stack, Screen.self),
      read: { id, parent in
        guard let found = read(id, parent), sharing.isPresent(found.state, parent) else {
          return nil
        }
        return found
      },
      modify: { id, parent, body in
        let found = read(id, parent).map { sharing.lookup($0.state, parent) }
        if let decisions = sharing.running(
          found, in: &parent, modify: { modify(id, &$0, $1) }, body)
        {
          return decisions
        }
        if sharing.ending == .pop { parent[keyPath: stack].pop(from: id) }
        return []
      },
      // NB: a screen whose element is gone has left, though the stack did not change.
      fingerprint: { parent in
        guard Screen.childWork.isEmpty else { return nil }
        let entries = parent[keyPath: stack].entries
        return combine(
          projection.isWhole ? entries.structure : entries.version, sharing.structure(parent))
      },
      changedIDs: { _, _ in nil },
      fingerprintOfStateAt: nil,
      event: event, decision: decision, request: request,
      share: { parent in
        let (loads, gone) = differences(parent)
        for (id, load) in loads {
          _ = modify(id, &parent) {
            load(&$0)
            return []
          }
        }
        if let gone, sharing.ending == .pop { parent[keyPath: stack].pop(from: gone) }
      })
  }

  /// Declares the children of an ``IdentifiedArray`` in this feature's state, once: where they
  /// live, how their events and decisions are wrapped as this feature's, and the work scope their
  /// decisions run in.
  ///
  /// A row's work lives while the row is in the list: removing it ends its work, and a row added
  /// later with the same id is a new row (see ``ChildWork``). The store's check of the rows' work
  /// costs what an event changed: nothing after an update, the work of the rows added or removed
  /// after an event that adds or removes up to 16, and every row's work only after an event that
  /// adds or removes more, or replaces the list (for rows without children of their own).
  /// ```swift
  /// static let rows = embed(Row.self, list: \.rows, event: Event.row, decision: Decision.row)
  /// static let childWork = [rows.work]
  /// // in makeDecisions:
  /// case .row(let id, let event):
  ///   return rows.makeDecisions(event: event, id: id, in: &state)
  /// // in execute:
  /// case .row(let id, let decision):
  ///   rows.execute(decision, id: id, deps: deps.row, effects: effects)
  /// ```
  /// - Parameters:
  ///   - child: The children's feature.
  ///   - list: The children in this feature's state.
  ///   - event: Wraps a child's event as this feature's, with the child's id.
  ///   - decision: Wraps a child's decision as this feature's, with the child's id.
  ///   - request: The parent's event for a child's decision that asks the parent something
  ///     (see ``EmbeddedChildren/makeDecisions(event:id:in:)``), or `nil` for a decision the
  ///     child's executor performs. Without it, every decision is performed.
  /// - Returns: The declaration: keep it in a `static let`.
  @inlinable
  public static func embed<Child: Feature>(
    _ child: Child.Type,
    list: WritableKeyPath<State, IdentifiedArray<Child.State>>,
    event: @escaping @Sendable (Child.State.ID, Child.Event) -> Event,
    decision: @escaping (Child.State.ID, Child.Decision) -> Decision,
    request: ((Child.State.ID, Child.Decision) -> Event?)? = nil
  ) -> EmbeddedChildren<Self, Child, Child.State.ID>
  where Child.State: Identifiable, Child.State.ID: Sendable {
    EmbeddedChildren(
      scope: EmbeddingScope(list, Child.self), list: list,
      read: { id, parent in
        let children = parent[keyPath: list]
        guard let position = children.positions[id] else { return nil }
        return (children.elements[position], children.stamps[position])
      },
      modify: { id, parent, body in
        // NB: one access through the key path: the row is changed in place.
        func run(
          _ rows: inout IdentifiedArray<Child.State>,
          _ body: (inout Child.State) -> [Child.Decision]
        ) -> [Child.Decision] {
          guard let position = rows.positions[id] else { return [] }
          rows.log.updated(id)
          let decisions = body(&rows.elements[position])
          precondition(
            rows.elements[position].id == id,
            "IdentifiedArray: the child with id \(id) changed its own id to "
              + "\(rows.elements[position].id)")
          return decisions
        }
        return run(&parent[keyPath: list], body)
      },
      fingerprint: { parent in
        Child.childWork.isEmpty ? parent[keyPath: list].structure : nil
      },
      changedIDs: { parent, since in
        parent[keyPath: list].structuralChanges(since: since)
      },
      fingerprintOfStateAt: ChildWork.structureOfStateAt(Child.self, list) { $0.structure },
      event: event, decision: decision, request: request)
  }

  /// Declares a presented child, such as a sheet in a ``Presented`` slot, once: where it lives,
  /// how its events and decisions are wrapped as this feature's, and the work scope its decisions
  /// run in.
  ///
  /// The child's work lives while it is presented: dismissing it, or presenting another child in
  /// its place, ends the work. Name the slot by its projected value, `\.$sheet`: the plain
  /// optional, `\.sheet`, does not compile here, since it cannot tell a new child from the old one.
  /// ```swift
  /// @Presented var sheet: Editor.State?
  /// static let sheet = embed(
  ///   Editor.self, presented: \.$sheet, event: Event.sheet, decision: Decision.sheet)
  /// static let childWork = [sheet.work]
  /// // in makeDecisions:
  /// case .sheet(let event):
  ///   return sheet.makeDecisions(event: event, in: &state)
  /// // in execute:
  /// case .sheet(let decision):
  ///   sheet.execute(decision, deps: deps.editor, effects: effects)
  /// ```
  /// - Parameters:
  ///   - child: The child's feature.
  ///   - presented: The child's slot in this feature's state.
  ///   - sharing: The element of this feature's data that the child shows and edits, kept in
  ///     step by the declaration (see ``SharedElement``), or `nil`.
  ///   - event: Wraps the child's event as this feature's.
  ///   - decision: Wraps the child's decision as this feature's.
  ///   - request: The parent's event for a child's decision that asks the parent something
  ///     (see ``EmbeddedChild/makeDecisions(event:in:)``), or `nil` for a decision the child's
  ///     executor performs. Without it, every decision is performed.
  /// - Returns: The declaration: keep it in a `static let`.
  @inlinable
  public static func embed<Child: Feature>(
    _ child: Child.Type,
    presented: WritableKeyPath<State, Presented<Child.State>>,
    sharing: SharedElement<State, Child.State>? = nil,
    event: @escaping @Sendable (Child.Event) -> Event,
    decision: @escaping (Child.Decision) -> Decision,
    request: ((Child.Decision) -> Event?)? = nil
  ) -> EmbeddedChild<Self, Child> {
    _embed(
      child, presented: presented, case: CaseProjection<Child.State, Child.State>.whole,
      sharing: sharing, event, decision, request: request)
  }

  /// Declares one kind of destination of a ``Presented`` slot that holds an enum of
  /// destinations: the child in case `case`.
  ///
  /// Each kind of destination is declared on its own, so the enum needs no feature of its own:
  /// ```swift
  /// enum Destination: Equatable, Sendable {
  ///   case edit(Editor.State)
  ///   case about
  /// }
  /// @Presented var destination: Destination?
  /// static let editor = embed(
  ///   Editor.self, presented: \.$destination, case: Destination.edit, event: Event.editor,
  ///   decision: Decision.editor)
  /// ```
  /// An event for the child while the slot holds another case, or nothing, is dropped.
  ///
  /// The case is told by reflection (`Mirror`): about 2 µs per event for the child (14,000
  /// instructions, `decisions-bench` case 18), and per check of its live work. An enum with a
  /// custom mirror (`CustomReflectable`) would hide its case, so it is refused when the
  /// declaration is made (a precondition): give `extract` too, the inverse of `case`, which tells
  /// the case with no reflection, for any enum
  /// (`extract: { if case .edit(let state) = $0 { state } else { nil } }`). The child is changed
  /// in place: an event costs the same whatever the size of its state.
  /// - Parameters:
  ///   - child: The feature of the destination of this case.
  ///   - presented: The slot in this feature's state: `\.$destination`.
  ///   - case: The case's constructor, such as `Destination.edit`.
  ///   - extract: The child's state when the destination is in this case, otherwise `nil`: the
  ///     inverse of `case`. Without it, the case is told by reflection.
  ///   - sharing: The element of this feature's data that the child shows and edits, kept in
  ///     step by the declaration (see ``SharedElement``), or `nil`.
  ///   - event: Wraps the child's event as this feature's.
  ///   - decision: Wraps the child's decision as this feature's.
  ///   - request: The parent's event for a child's decision that asks the parent something
  ///     (see ``EmbeddedChild/makeDecisions(event:in:)``), or `nil` for a decision the child's
  ///     executor performs. Without it, every decision is performed.
  /// - Returns: The declaration: keep it in a `static let`.
  @inlinable
  public static func embed<Child: Feature, Destination>(
    _ child: Child.Type,
    presented: WritableKeyPath<State, Presented<Destination>>,
    case: @escaping (Child.State) -> Destination,
    extract: ((Destination) -> Child.State?)? = nil,
    sharing: SharedElement<State, Child.State>? = nil,
    event: @escaping @Sendable (Child.Event) -> Event,
    decision: @escaping (Child.Decision) -> Decision,
    request: ((Child.Decision) -> Event?)? = nil
  ) -> EmbeddedChild<Self, Child> {
    _embed(
      child, presented: presented, case: CaseProjection(`case`, extract: extract),
      sharing: sharing, event, decision, request: request)
  }

  @inlinable
  static func _embed<Child: Feature, Destination>(
    _ child: Child.Type,
    presented slot: WritableKeyPath<State, Presented<Destination>>,
    case projection: CaseProjection<Child.State, Destination>,
    sharing: SharedElement<State, Child.State>?,
    _ event: @escaping @Sendable (Child.Event) -> Event,
    _ decision: @escaping (Child.Decision) -> Decision,
    request: ((Child.Decision) -> Event?)?
  ) -> EmbeddedChild<Self, Child> {
    let read: (State) -> (state: Child.State, identity: UInt64)? = { parent in
      let presented = parent[keyPath: slot]
      guard let value = presented.value, let child = projection.extract(value) else { return nil }
      return (child, presented.identity)
    }
    let modify: (inout State, (inout Child.State) -> [Child.Decision]) -> [Child.Decision] = {
      parent, body in
      // NB: the stored value, not `wrappedValue`: an in-place change keeps the child. The slot
      // is named by its projected value, `\.$sheet`, a computed property, which a key path
      // changes by reading a copy and writing it back, so the original would still hold the
      // child while it changes, and its storage would be copied. The slot is swapped with an
      // empty placeholder first, and put back after: two accesses through the key path (about
      // 1,500 instructions more than one), and a child changed in place whatever its size.
      var presented = Presented<Destination>(placeholder: ())
      swap(&presented, &parent[keyPath: slot])
      defer { parent[keyPath: slot] = presented }
      guard var value = presented.value else { return [] }
      presented.value = nil
      defer { presented.value = value }
      return projection.modify(&value, body) ?? []
    }
    let fingerprint: (State) -> UInt64? = { parent in
      let presented = parent[keyPath: slot]
      guard let value = presented.value else { return 0 }
      guard let child = projection.extract(value) else { return combine(presented.identity, 1) }
      return Child.childrenFingerprint(of: child).map { combine(presented.identity, $0) }
    }
    guard let sharing else {
      return EmbeddedChild(
        scope: EmbeddingScope(slot, Child.self), read: read, modify: modify,
        fingerprint: fingerprint, event: event, decision: decision, request: request)
    }
    return EmbeddedChild(
      scope: EmbeddingScope(slot, Child.self),
      read: { parent in
        guard let found = read(parent), sharing.isPresent(found.state, parent) else { return nil }
        return found
      },
      modify: { parent, body in
        let found = read(parent).map { sharing.lookup($0.state, parent) }
        if let decisions = sharing.running(found, in: &parent, modify: modify, body) {
          return decisions
        }
        if sharing.ending == .pop { parent[keyPath: slot].wrappedValue = nil }
        return []
      },
      // NB: a child whose element is gone has left, though the slot did not change.
      fingerprint: { parent in
        fingerprint(parent).map { combine($0, sharing.structure(parent)) }
      },
      event: event, decision: decision, request: request,
      share: { parent in
        switch read(parent).map({ sharing.lookup($0.state, parent) }) {
        case .gone?:
          if sharing.ending == .pop { parent[keyPath: slot].wrappedValue = nil }
        case .changed(_, let load)?:
          _ = modify(&parent) {
            load(&$0)
            return []
          }
        case .same?, nil:
          break
        }
      })
  }

  /// Declares a child that is always there, such as a persisted value or a counter kept in a
  /// plain property, once: where it lives, how its events and decisions are wrapped as this
  /// feature's, and the work scope its decisions run in.
  ///
  /// The child's work runs in a scope of its own, so its ids never meet the parent's, and lives as
  /// long as the parent: list ``EmbeddedChild/work`` in `childWork` as for any child, so that its
  /// own children's work ends with them.
  /// ```swift
  /// var counter = Counter.State()
  /// static let counter = embed(
  ///   Counter.self, state: \.counter, event: Event.counter, decision: Decision.counter)
  /// static let childWork = [counter.work]
  /// // in makeDecisions:
  /// case .counter(let event):
  ///   return counter.makeDecisions(event: event, in: &state)
  /// // in execute:
  /// case .counter(let decision):
  ///   counter.execute(decision, deps: deps.counter, effects: effects)
  /// ```
  /// - Parameters:
  ///   - child: The child's feature.
  ///   - state: The child's state in this feature's state.
  ///   - event: Wraps the child's event as this feature's.
  ///   - decision: Wraps the child's decision as this feature's.
  ///   - request: The parent's event for a child's decision that asks the parent something
  ///     (see ``EmbeddedChild/makeDecisions(event:in:)``), or `nil` for a decision the child's
  ///     executor performs. Without it, every decision is performed.
  /// - Returns: The declaration: keep it in a `static let`.
  @inlinable
  public static func embed<Child: Feature>(
    _ child: Child.Type,
    state: WritableKeyPath<State, Child.State>,
    event: @escaping @Sendable (Child.Event) -> Event,
    decision: @escaping (Child.Decision) -> Decision,
    request: ((Child.Decision) -> Event?)? = nil
  ) -> EmbeddedChild<Self, Child> {
    EmbeddedChild(
      scope: EmbeddingScope(state, Child.self),
      read: { parent in (parent[keyPath: state], 0) },
      modify: { parent, body in body(&parent[keyPath: state]) },
      fingerprint: { parent in Child.childrenFingerprint(of: parent[keyPath: state]) },
      event: event, decision: decision, request: request,
      // NB: a key path to a stored property has an offset: the child's core runs on the state
      // there (see `EmbeddedChild.makeDecisions(event:in:)`).
      offset: MemoryLayout<State>.offset(of: state))
  }

  /// Declares a child that is always there as one case of an enum in this feature's state, such
  /// as the content of a screen that shows one of several kinds: the child in case `case`.
  ///
  /// Each kind is declared on its own, and its work runs in a scope of its own, which lives while
  /// the place holds that case:
  /// ```swift
  /// enum Content: Equatable, Sendable {
  ///   case story(Story.State)
  ///   case user(User.State)
  /// }
  /// var content: Content
  /// static let story = embed(
  ///   Story.self, state: \.content, case: Content.story, event: Event.story,
  ///   decision: Decision.story)
  /// static let childWork = [story.work, user.work]
  /// ```
  /// An event for the child while the place holds another case is dropped. The case is told as
  /// in ``embed(_:presented:case:extract:sharing:event:decision:request:)``: by reflection, or
  /// by `extract` when given.
  /// - Parameters:
  ///   - child: The feature of the child of this case.
  ///   - state: The place in this feature's state that holds the enum.
  ///   - case: The case's constructor, such as `Content.story`.
  ///   - extract: The child's state when the place holds this case, otherwise `nil`: the inverse
  ///     of `case`. Without it, the case is told by reflection.
  ///   - event: Wraps the child's event as this feature's.
  ///   - decision: Wraps the child's decision as this feature's.
  ///   - request: The parent's event for a child's decision that asks the parent something
  ///     (see ``EmbeddedChild/makeDecisions(event:in:)``), or `nil` for a decision the child's
  ///     executor performs. Without it, every decision is performed.
  /// - Returns: The declaration: keep it in a `static let`.
  @inlinable
  public static func embed<Child: Feature, Kind>(
    _ child: Child.Type,
    state: WritableKeyPath<State, Kind>,
    case: @escaping (Child.State) -> Kind,
    extract: ((Kind) -> Child.State?)? = nil,
    event: @escaping @Sendable (Child.Event) -> Event,
    decision: @escaping (Child.Decision) -> Decision,
    request: ((Child.Decision) -> Event?)? = nil
  ) -> EmbeddedChild<Self, Child> {
    let projection = CaseProjection(`case`, extract: extract)
    return EmbeddedChild(
      scope: EmbeddingScope(state, Child.self),
      read: { parent in projection.extract(parent[keyPath: state]).map { ($0, 0) } },
      modify: { parent, body in projection.modify(&parent[keyPath: state], body) ?? [] },
      fingerprint: { parent in
        // NB: 1 while the place holds another case: this kind of child is gone.
        guard let child = projection.extract(parent[keyPath: state]) else { return 1 }
        return Child.childrenFingerprint(of: child).map { combine(2, $0) }
      },
      event: event, decision: decision, request: request)
  }
}

// MARK: - Using an embedding

/// Children of one kind in a parent feature, such as the screens of a stack or the rows of a list,
/// declared once with `embed(_:stack:event:decision:)` or `embed(_:list:event:decision:)`.
///
/// The declaration is used in three places, and keeps them in agreement: the parent's core
/// forwards a child's event with ``makeDecisions(event:id:in:)``, the parent's executor
/// performs a child's decision with ``execute(_:id:deps:effects:)``, and the parent's
/// ``Feature/childWork`` lists ``work``. The child's work runs in a scope the declaration makes
/// from the child's id, and ends when the child leaves the parent's state.
///
/// A view's model of one child comes from the same declaration:
/// `model.child(Parent.details, id: id)` (see ``ViewModel``).
public struct EmbeddedChildren<Parent: Core, Child: Core, ID: Hashable & Sendable>:
  @unchecked Sendable
{
  // NB: `@unchecked Sendable` for the same reason as `ChildWork`: the closures capture key paths and
  // conformances that may be main-actor isolated; only the loop that runs the parent calls them.
  /// The scope of this kind of child, under which each child's work has a scope of its id.
  @usableFromInline let scope: WorkID
  /// Nothing: keeps the declaration address-only (see `EmbeddedChild.addressOnly`).
  @usableFromInline let addressOnly: (any Sendable)? = nil
  /// Where the children are in the parent's state.
  @usableFromInline let place: AnyKeyPath
  /// The list, for a list embedding: its children's models follow only the rows that changed.
  @usableFromInline let list: AnyKeyPath?
  /// The child with `id`, and its identity, or `nil` when no child of this kind has it.
  @usableFromInline let read:
    (_ id: ID, _ parent: Parent.State) -> (state: Child.State, identity: UInt64)?
  /// Runs `body` on the child with `id`, if there is one, and returns its decisions.
  @usableFromInline let modify:
    (
      _ id: ID, _ parent: inout Parent.State,
      _ body: (inout Child.State) -> [Child.Decision]
    ) -> [Child.Decision]
  /// Wraps a child's event as the parent's.
  @usableFromInline let event: @Sendable (ID, Child.Event) -> Parent.Event
  /// Wraps a child's decision as the parent's.
  @usableFromInline let decision: (ID, Child.Decision) -> Parent.Decision
  /// The parent's event for a child's decision that asks the parent something.
  @usableFromInline let request: ((ID, Child.Decision) -> Parent.Event?)?
  /// Gives every child the parent's element it shares, for a declaration with `sharing:`.
  @usableFromInline let share: ((inout Parent.State) -> Void)?
  /// How long the children's work lives: list it in the parent's ``Feature/childWork``.
  public let work: ChildWork<Parent.State>

  /// The state of the child with `id` in `state`, or `nil` when no child of this kind has it.
  @inlinable
  public func state(id: ID, in state: Parent.State) -> Child.State? {
    read(id, state)?.state
  }
}

extension EmbeddedChildren where Parent: Feature, Child: Feature {
  @inlinable
  init(
    scope: EmbeddingScope, list: AnyKeyPath? = nil,
    read: @escaping (ID, Parent.State) -> (state: Child.State, identity: UInt64)?,
    modify:
      @escaping (ID, inout Parent.State, (inout Child.State) -> [Child.Decision]) -> [Child
      .Decision],
    fingerprint: @escaping (Parent.State) -> UInt64?,
    changedIDs: @escaping (_ parent: Parent.State, _ since: UInt64) -> [ID]?,
    fingerprintOfStateAt: ((_ state: UnsafeRawPointer) -> UInt64?)?,
    event: @escaping @Sendable (ID, Child.Event) -> Parent.Event,
    decision: @escaping (ID, Child.Decision) -> Parent.Decision,
    request: ((ID, Child.Decision) -> Parent.Event?)?,
    share: ((inout Parent.State) -> Void)? = nil
  ) {
    let place = scope.place
    let scope = WorkID(scope)
    self.scope = scope
    self.place = place
    self.list = list
    self.read = read
    self.modify = modify
    self.event = event
    self.decision = decision
    self.request = request
    self.share = share
    self.work = ChildWork<Parent.State> { path, parent in
      guard path.first == scope else { return nil }
      guard let id = path.dropFirst().first?.base as? ID else { return .gone }
      guard let child = read(id, parent) else { return .gone }
      return Child.lifetime(ofWorkIn: path.dropFirst(2), state: child.state)
        .identified(by: child.identity)
    } fingerprint: { parent in
      fingerprint(parent)
    } changedScopes: { parent, since in
      changedIDs(parent, since)?.map { [scope, WorkID($0)] }
    }
    .reading(fingerprintOfStateAt)
  }

  /// Runs the child's core on the child with `id`, and returns its decisions as the parent's.
  ///
  /// When no child of this kind has the id (it left, or the slot holds another kind), the event
  /// is dropped and no decisions are returned.
  ///
  /// **Requests.** A child asks its parent something (delete me, start a meeting, I am done)
  /// with a decision that the declaration's `request:` turns into an event of the parent's. Such a
  /// decision is not performed: the parent's core runs on the event at once, in this same call,
  /// on the parent's whole state as the child left it, and its decisions take the request's place
  /// in the result, in order. So the parent reads and clears no field, and a test of the parent
  /// sees the answer in the step of the child's event:
  /// ```swift
  /// static let details = embed(
  ///   Detail.self, stack: \.path, event: Event.detail, decision: Decision.detail,
  ///   request: { id, decision in
  ///     if case .parent(let request) = decision { .detailAsked(id: id, request) } else { nil }
  ///   })
  /// ```
  /// The child's own tests see the request as one of its decisions. The parent's core runs
  /// again inside this call, so code around its `switch` (a wrapper that looks at what the step
  /// changed) runs for the request too.
  ///
  /// With `sharing:`, every child of the declaration is given the parent's element after the
  /// event, as ``share(in:)`` does.
  /// - Complexity: O(*d*) for *d* decisions: the child is found by its id without a search;
  ///   plus the parent's core for each request, and O(*n*) for *n* children with `sharing:`.
  @inlinable
  public func makeDecisions(event: Child.Event, id: ID, in state: inout Parent.State)
    -> [Parent.Decision]
  {
    let decisions = modify(id, &state) { Child.makeDecisions(event: event, state: &$0) }
    guard request != nil || share != nil else {
      return wrapped(decisions) { decision(id, $0) }
    }
    return answering(decisions, id: id, in: &state)
  }

  /// The child's decisions as the parent's, each request answered by the parent's core.
  @usableFromInline
  func answering(_ decisions: [Child.Decision], id: ID, in state: inout Parent.State)
    -> [Parent.Decision]
  {
    var result: [Parent.Decision] = []
    result.reserveCapacity(decisions.count)
    for childDecision in decisions {
      if let asked = request?(id, childDecision) {
        result += Parent.makeDecisions(event: asked, state: &state)
      } else {
        result.append(decision(id, childDecision))
      }
    }
    share?(&state)
    return result
  }

  /// Gives every child of this declaration the element of the parent's data it shows, as the
  /// parent now has it, and removes the children whose element is gone (with
  /// ``SharedElement/Ending/pop``); nothing for a declaration without `sharing:`.
  ///
  /// Call it in the parent's core after the parent edits a shared element itself, so that the
  /// children show the edit in the same step. The declaration calls it after each of its
  /// children's events.
  /// - Complexity: O(*n*) for *n* children, plus the elements that changed.
  @inlinable
  public func share(in state: inout Parent.State) {
    share?(&state)
  }

  /// Performs the child's decision in the work scope of the child with `id`: its work ends when
  /// the child leaves the parent's state, and its events reach the parent wrapped with the id.
  @inlinable
  public func execute(
    _ decision: Child.Decision, id: ID, deps: Child.Deps, effects: Effects<Parent.Event>
  ) {
    let event = self.event
    Child.execute(
      decision, deps: deps,
      effects: Effects(
        registry: effects.registry, route: effects.route.map { event(id, $0) },
        scope: effects.scope + [scope, WorkID(id)]))
  }

  /// Cancels all the work of the child with `id`, from the parent's executor.
  // NB: `package`: a parent ends a child's work by removing the child, or by forwarding it an
  // event on which the child cancels its own; this is for the library's tests.
  package func cancelAll(id: ID, effects: Effects<Parent.Event>) {
    effects.registry.cancelAll(in: effects.scope + [scope, WorkID(id)])
  }
}

/// One child in a parent feature, such as a sheet, declared once with `embed(_:presented:…)`, or,
/// for a child that is always there, with `embed(_:state:…)`.
///
/// The declaration is used in three places, and keeps them in agreement: the parent's core
/// forwards the child's event with ``makeDecisions(event:in:)``, the parent's executor
/// performs the child's decision with ``execute(_:deps:effects:)``, and the parent's
/// ``Feature/childWork`` lists ``work``. The child's work runs in a scope the declaration makes,
/// and ends when the child is dismissed or another takes its place (for a child that is always
/// there, when the parent's work ends; for one case of an enum, when the place holds another).
///
/// A view's model of the child comes from the same declaration: `model.child(Parent.sheet)` (see
/// ``ViewModel``).
public struct EmbeddedChild<Parent: Core, Child: Core>: @unchecked Sendable {
  // NB: `@unchecked Sendable`: see `EmbeddedChildren`.
  /// The scope of the child's work.
  @usableFromInline let scope: WorkID
  // NB: an existential makes the declaration address-only, so that a `static let` is passed to
  // its methods by address: loadable (once `WorkID` held its value in an object), it was copied
  // whole to the stack at each call, about 200 bytes per level and event (bench row 7d, +13%).
  /// Nothing: keeps the declaration address-only (see the note above).
  @usableFromInline let addressOnly: (any Sendable)? = nil
  /// The child's slot in the parent's state.
  @usableFromInline let place: AnyKeyPath
  /// The child and its identity, or `nil` when it is not presented.
  @usableFromInline let read: (_ parent: Parent.State) -> (state: Child.State, identity: UInt64)?
  /// Runs `body` on the child, if it is presented, and returns its decisions.
  @usableFromInline let modify:
    (_ parent: inout Parent.State, _ body: (inout Child.State) -> [Child.Decision]) -> [Child
      .Decision]
  /// Wraps the child's event as the parent's.
  @usableFromInline let event: @Sendable (Child.Event) -> Parent.Event
  /// Wraps the child's decision as the parent's.
  @usableFromInline let decision: (Child.Decision) -> Parent.Decision
  /// The parent's event for a child's decision that asks the parent something.
  @usableFromInline let request: ((Child.Decision) -> Parent.Event?)?
  /// Gives the child the parent's element it shares, for a declaration with `sharing:`.
  @usableFromInline let share: ((inout Parent.State) -> Void)?
  /// Tells this declaration's route apart from other children's in the parent's route.
  @usableFromInline let routeKey: RouteKey
  /// Where the child's state is in the parent's, in bytes, for a child that is always there in a
  /// stored property; `nil` otherwise.
  @usableFromInline let offset: Int?
  /// How long the child's work lives: list it in the parent's ``Feature/childWork``.
  public let work: ChildWork<Parent.State>

  /// The child's state in `state`, or `nil` when it is not presented.
  @inlinable
  public func state(in state: Parent.State) -> Child.State? {
    read(state)?.state
  }
}

extension EmbeddedChild where Parent: Feature, Child: Feature {
  @inlinable
  init(
    scope: EmbeddingScope,
    read: @escaping (Parent.State) -> (state: Child.State, identity: UInt64)?,
    modify:
      @escaping (inout Parent.State, (inout Child.State) -> [Child.Decision]) -> [Child.Decision],
    fingerprint: @escaping (Parent.State) -> UInt64?,
    event: @escaping @Sendable (Child.Event) -> Parent.Event,
    decision: @escaping (Child.Decision) -> Parent.Decision,
    request: ((Child.Decision) -> Parent.Event?)?,
    share: ((inout Parent.State) -> Void)? = nil,
    offset: Int? = nil
  ) {
    let place = scope.place
    let scope = WorkID(scope)
    self.scope = scope
    self.place = place
    self.offset = offset
    self.read = read
    self.modify = modify
    self.event = event
    self.decision = decision
    self.request = request
    self.share = share
    self.routeKey = RouteKey()
    self.work = ChildWork { path, parent in
      guard path.first == scope else { return nil }
      guard let child = read(parent) else { return .gone }
      return Child.lifetime(ofWorkIn: path.dropFirst(), state: child.state)
        .identified(by: child.identity)
    } fingerprint: { parent in
      fingerprint(parent)
    } changedScopes: { _, _ in
      // NB: a child's own children's work is in longer scopes, which the registry does not find
      // by this one.
      Child.childWork.isEmpty ? [[scope]] : nil
    }
  }

  /// Runs the child's core, if the child is presented, and returns its decisions as the parent's.
  ///
  /// When the child is not presented, the event is dropped and no decisions are returned. The
  /// child is changed in place, so it stays the same child.
  ///
  /// A decision that the declaration's `request:` turns into an event of the parent's is not
  /// performed: the parent's core runs on that event at once, in this same call, and its
  /// decisions take the request's place (see
  /// ``EmbeddedChildren/makeDecisions(event:id:in:)``). With `sharing:`, the child is given the
  /// parent's element after the event, as ``share(in:)`` does.
  /// - Complexity: O(*d*) for *d* decisions, plus the parent's core for each request.
  @inlinable
  public func makeDecisions(event: Child.Event, in state: inout Parent.State) -> [Parent.Decision] {
    let decisions: [Child.Decision]
    // NB: a child in a stored property is changed through a pointer, with no call through
    // `modify`: about 150 instructions less per event and level than applying the key path.
    if let offset {
      decisions = withUnsafeMutableBytes(of: &state) { parent in
        Child.makeDecisions(
          event: event,
          state: &(parent.baseAddress.unsafelyUnwrapped + offset)
            .assumingMemoryBound(to: Child.State.self).pointee)
      }
    } else {
      decisions = modify(&state) { Child.makeDecisions(event: event, state: &$0) }
    }
    guard request != nil || share != nil else {
      return wrapped(decisions, decision)
    }
    var result: [Parent.Decision] = []
    result.reserveCapacity(decisions.count)
    for childDecision in decisions {
      if let asked = request?(childDecision) {
        result += Parent.makeDecisions(event: asked, state: &state)
      } else {
        result.append(decision(childDecision))
      }
    }
    share?(&state)
    return result
  }

  /// Gives the child the element of the parent's data it shows, as the parent now has it, and
  /// dismisses it when the element is gone (with ``SharedElement/Ending/pop``); nothing for a
  /// declaration without `sharing:`.
  ///
  /// Call it in the parent's core after the parent edits the shared element itself, so that the
  /// child shows the edit in the same step. The declaration calls it after each of the child's
  /// events.
  @inlinable
  public func share(in state: inout Parent.State) {
    share?(&state)
  }

  /// Performs the child's decision in the child's work scope: its work ends when the child is
  /// dismissed, and its events reach the parent wrapped.
  @inlinable
  public func execute(_ decision: Child.Decision, deps: Child.Deps, effects: Effects<Parent.Event>)
  {
    // NB: the child's route and scope are made once per parent's route, and kept by it: an
    // allocation and a copy of the scope less per decision and level.
    let route = effects.route.child(
      routeKey, scope: { effects.scope + [self.scope] }, { self.event })
    Child.execute(
      decision, deps: deps,
      effects: Effects(registry: effects.registry, route: route, scope: route.scope))
  }

  /// Cancels all of the child's work, from the parent's executor.
  // NB: `package`: see `EmbeddedChildren.cancelAll(id:effects:)`.
  package func cancelAll(effects: Effects<Parent.Event>) {
    effects.registry.cancelAll(in: effects.scope + [scope])
  }
}

// MARK: - Internals

// NB: the array made at its exact size: `map` grew an empty array to hold the first element, about
// 190 instructions more per level of composition (`decisions-bench` case 7d).
/// A child's decisions wrapped as its parent's.
@inlinable
func wrapped<ChildDecision, ParentDecision>(
  _ decisions: [ChildDecision], _ wrap: (ChildDecision) -> ParentDecision
) -> [ParentDecision] {
  let count = decisions.count
  if count == 0 { return [] }
  if count == 1 { return [wrap(decisions[0])] }
  return [ParentDecision](unsafeUninitializedCapacity: count) { buffer, initialized in
    for index in 0..<count {
      (buffer.baseAddress.unsafelyUnwrapped + index).initialize(to: wrap(decisions[index]))
      initialized = index + 1
    }
  }
}

/// The identity of one `EmbeddedChild` declaration, by which a parent's route finds its child's.
@usableFromInline
final class RouteKey: Sendable {
  @usableFromInline init() {}
}

/// The work scope of one embedding: the place in the parent's state, and the child's feature.
@usableFromInline
struct EmbeddingScope: Hashable, @unchecked Sendable, CustomStringConvertible {
  // NB: `@unchecked Sendable`: a key path is immutable once made; it is only compared, hashed and
  // described here, never applied.
  @usableFromInline let place: AnyKeyPath
  @usableFromInline let child: ObjectIdentifier
  @usableFromInline let childName: String

  @usableFromInline
  init(_ place: AnyKeyPath, _ child: Any.Type) {
    self.place = place
    self.child = ObjectIdentifier(child)
    self.childName = String(describing: child)
  }

  @usableFromInline
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.child == rhs.child && lhs.place == rhs.place
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(child)
    hasher.combine(place)
  }

  // NB: a computed key path, such as a `@Presented` slot's projected value, prints as an address
  // (`\State.<computed 0x…>`), which tells a reader nothing: then the child's name alone.
  @usableFromInline
  var description: String {
    let path = "\(place)"
    return path.contains("<computed") ? childName : "\(childName) in \(path)"
  }
}

/// How a child's state is found in a place that holds it, or holds one case of an enum.
@usableFromInline
struct CaseProjection<Value, Root>: @unchecked Sendable {
  // NB: `@unchecked Sendable`: see `EmbeddedChildren`.
  @usableFromInline let extract: (Root) -> Value?
  @usableFromInline let embed: (Value) -> Root
  /// Changes the child in place, for a place that holds the child's state itself.
  @usableFromInline let inPlace: ((inout Root, (inout Value) -> Void) -> Void)?
  /// Whether the place holds the child's state itself, rather than one case of an enum.
  @usableFromInline let isWhole: Bool

  /// The place holds the child's state itself.
  @inlinable
  static var whole: CaseProjection<Value, Value> {
    CaseProjection<Value, Value>(
      extract: { $0 }, embed: { $0 }, inPlace: { root, body in body(&root) }, isWhole: true)
  }

  @usableFromInline
  init(
    extract: @escaping (Root) -> Value?, embed: @escaping (Value) -> Root,
    inPlace: ((inout Root, (inout Value) -> Void) -> Void)?, isWhole: Bool = false
  ) {
    self.extract = extract
    self.embed = embed
    self.inPlace = inPlace
    self.isWhole = isWhole
  }

  /// Runs `body` on the child in `root`, and returns its result; `nil` when `root` holds another
  /// case.
  @inlinable
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result? {
    if let inPlace {
      var result: Result?
      inPlace(&root) { result = body(&$0) }
      return result
    }
    // NB: the enum is taken out of its place before the child changes, so that the payload
    // extracted is its storage's only reference: a copy-on-write child is changed in place,
    // whatever its size. It is put back on every path.
    let taken = consume root
    guard var value = extract(taken) else {
      root = taken
      return nil
    }
    _ = consume taken
    defer { root = embed(value) }
    return body(&value)
  }

  /// The place holds an enum, and the child is the payload of the case that `embed` makes, which
  /// `extract` finds.
  @usableFromInline
  init(_ embed: @escaping (Value) -> Root, extract: ((Root) -> Value?)?) {
    guard let extract else {
      self = CaseProjection(embed)
      return
    }
    self.embed = embed
    self.extract = extract
    self.inPlace = nil
    self.isWhole = false
  }

  /// The place holds an enum, and the child is the payload of the case that `embed` makes, told by
  /// reflection.
  ///
  /// - Precondition: `Root` has no custom mirror: reflection would show the mirror, not the case.
  @usableFromInline
  init(_ embed: @escaping (Value) -> Root) {
    // NB: `Mirror(reflecting:)` shows a custom mirror instead of the enum's case, and the standard
    // library has no public reflection that ignores it: every value would look like another case,
    // and every event would be dropped. Refused when declared, with the way out.
    precondition(
      !(Root.self is any CustomReflectable.Type),
      "Decisions: \(Root.self) has a custom mirror (CustomReflectable), so `case:` cannot tell "
        + "its cases apart by reflection; declare the embedding with `extract:` too, such as "
        + "`case: \(Root.self).detail, extract: { if case .detail(let state) = $0 { state } "
        + "else { nil } }`")
    let label = CaseLabel()
    self.embed = embed
    self.inPlace = nil
    self.isWhole = false
    self.extract = { root in
      let mirror = Mirror(reflecting: root)
      guard mirror.displayStyle == .enum, let child = mirror.children.first else { return nil }
      guard let value = CaseProjection.payload(child.value) else { return nil }
      if let known = label.value.withLock({ $0 }) { return child.label == known ? value : nil }
      // NB: the first payload of the right type is embedded again to learn the case's label; two
      // cases whose payloads have the same type are told apart by it.
      let embedded = Mirror(reflecting: embed(value))
      precondition(
        embedded.displayStyle == .enum,
        "Decisions: `case:` must be an enum case's constructor, such as `Screen.detail`")
      let caseLabel = embedded.children.first?.label
      label.value.withLock { $0 = caseLabel }
      return child.label == caseLabel ? value : nil
    }
  }

  /// The payload as the child's state: a single labeled payload is reflected as a one-element
  /// tuple.
  private static func payload(_ any: Any) -> Value? {
    if let value = any as? Value { return value }
    let tuple = Mirror(reflecting: any)
    guard tuple.displayStyle == .tuple, tuple.children.count == 1 else { return nil }
    return tuple.children.first?.value as? Value
  }
}

/// The label of the case a ``CaseProjection`` extracts, learnt from the first payload it sees.
private final class CaseLabel: Sendable {
  let value = Mutex<String?>(nil)
}

// MARK: - Children without work

extension Feature {
  /// Declares the screens of a ``ScreenStack`` whose feature makes no decisions (its `Decision` is
  /// `Never`): a screen with a core but no work needs no decision case in this feature.
  ///
  /// See ``embed(_:stack:sharing:event:decision:request:)``.
  @inlinable
  public static func embed<Screen: Feature>(
    _ screen: Screen.Type,
    stack: WritableKeyPath<State, ScreenStack<Screen.State>>,
    sharing: SharedElement<State, Screen.State>? = nil,
    event: @escaping @Sendable (ScreenStack<Screen.State>.ID, Screen.Event) -> Event
  ) -> EmbeddedChildren<Self, Screen, ScreenStack<Screen.State>.ID> where Screen.Decision == Never {
    embed(screen, stack: stack, sharing: sharing, event: event, decision: absurd)
  }

  /// Declares one kind of screen of a ``ScreenStack`` of an enum, whose feature makes no decisions
  /// (its `Decision` is `Never`).
  ///
  /// See ``embed(_:stack:case:extract:sharing:event:decision:request:)``.
  @inlinable
  public static func embed<Screen: Feature, Screens>(
    _ screen: Screen.Type,
    stack: WritableKeyPath<State, ScreenStack<Screens>>,
    case: @escaping (Screen.State) -> Screens,
    extract: ((Screens) -> Screen.State?)? = nil,
    sharing: SharedElement<State, Screen.State>? = nil,
    event: @escaping @Sendable (ScreenStack<Screens>.ID, Screen.Event) -> Event
  ) -> EmbeddedChildren<Self, Screen, ScreenStack<Screens>.ID> where Screen.Decision == Never {
    embed(
      screen, stack: stack, case: `case`, extract: extract, sharing: sharing, event: event,
      decision: absurd)
  }

  /// Declares the children of an ``IdentifiedArray``, whose feature makes no decisions (its
  /// `Decision` is `Never`).
  ///
  /// See ``embed(_:list:event:decision:request:)``.
  @inlinable
  public static func embed<Child: Feature>(
    _ child: Child.Type,
    list: WritableKeyPath<State, IdentifiedArray<Child.State>>,
    event: @escaping @Sendable (Child.State.ID, Child.Event) -> Event
  ) -> EmbeddedChildren<Self, Child, Child.State.ID>
  where Child.State: Identifiable, Child.State.ID: Sendable, Child.Decision == Never {
    embed(child, list: list, event: event, decision: absurd)
  }

  /// Declares a presented child whose feature makes no decisions (its `Decision` is `Never`), such
  /// as a form: it needs no decision case in this feature.
  ///
  /// See ``embed(_:presented:sharing:event:decision:request:)``.
  @inlinable
  public static func embed<Child: Feature>(
    _ child: Child.Type,
    presented: WritableKeyPath<State, Presented<Child.State>>,
    sharing: SharedElement<State, Child.State>? = nil,
    event: @escaping @Sendable (Child.Event) -> Event
  ) -> EmbeddedChild<Self, Child> where Child.Decision == Never {
    embed(child, presented: presented, sharing: sharing, event: event, decision: absurd)
  }

  /// Declares one kind of destination of a ``Presented`` slot of an enum, whose feature makes no
  /// decisions (its `Decision` is `Never`), such as a form.
  ///
  /// See ``embed(_:presented:case:extract:sharing:event:decision:request:)``.
  @inlinable
  public static func embed<Child: Feature, Destination>(
    _ child: Child.Type,
    presented: WritableKeyPath<State, Presented<Destination>>,
    case: @escaping (Child.State) -> Destination,
    extract: ((Destination) -> Child.State?)? = nil,
    sharing: SharedElement<State, Child.State>? = nil,
    event: @escaping @Sendable (Child.Event) -> Event
  ) -> EmbeddedChild<Self, Child> where Child.Decision == Never {
    embed(
      child, presented: presented, case: `case`, extract: extract, sharing: sharing, event: event,
      decision: absurd)
  }
}

/// The decision of a child that makes none, which never comes.
@inlinable
func absurd<Result>(_ never: Never) -> Result {}

/// The decision, with its child's id, of a child that makes none, which never comes.
@inlinable
func absurd<ID, Result>(_ id: ID, _ never: Never) -> Result {}
