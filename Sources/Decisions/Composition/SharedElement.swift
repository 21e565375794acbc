/// A child that shows and edits one element of its parent's data, such as a screen that shows a
/// sync-up of the parent's list: given to `embed(…, sharing:…)`.
///
/// The child's state keeps the element in a property of its own (`\.syncUp`), and the parent keeps
/// it in an ``IdentifiedArray`` (`\.syncUps`). The embedding keeps the two in step, so the parent
/// writes no code that copies one into the other:
/// - before the child's core runs on an event, the child's copy is set to the parent's element;
/// - after it runs, a change the child made to its copy is written to the parent's element, in the
///   same step: both show it at once;
/// - after the parent answered one of the child's requests (`request:`), and whenever the parent
///   calls the declaration's `share(in:)`, every child of the declaration is given the element as
///   the parent now has it.
///
/// ```swift
/// static let details = embed(
///   SyncUpDetail.self, stack: \.path, case: Screen.detail,
///   sharing: .element(\.syncUp, in: \.syncUps), event: Event.detail, decision: Decision.detail)
/// ```
///
/// **When the element goes away** from the parent's list, the child has nothing to show:
/// - its events are dropped, and its work ends, as if it had left the state (the store's check
///   after the event that removed the element ends it);
/// - the declaration's `state(id:in:)` and the view's child model read it as gone;
/// - with ``Ending/pop`` (the default) the child is removed from the state the next time the
///   embedding runs: a screen is popped, with the screens above it; a presented child is
///   dismissed. With ``Ending/stay`` it stays, showing the element as it last was, until the parent
///   removes it.
///
/// An edit the parent makes to an element itself, in its own core, reaches the children that show
/// it at their next event, or at once when the parent calls `share(in:)` after the edit. A child
/// never writes back a copy older than the parent's element: its copy is refreshed before its core
/// runs.
///
/// The element's id must not change in the child: a child that changes it stops with a message
/// (a precondition of ``IdentifiedArray``).
public struct SharedElement<ParentState, ChildState>: @unchecked Sendable {
  // NB: `@unchecked Sendable`: see `EmbeddedChildren`; the closures capture key paths.

  /// What happens to a child whose element left the parent's list.
  public enum Ending: Equatable, Sendable {
    /// The child is removed from the state: a screen is popped, with the screens above it; a
    /// presented child is dismissed.
    case pop
    /// The child stays, showing the element as it last was, with its work ended, until the parent
    /// removes it.
    case stay
  }

  /// What a child's copy of the element is, against the parent's element.
  @usableFromInline
  enum Lookup {
    /// The parent has no element with the copy's id.
    case gone
    /// The copy equals the parent's element, whose id is given.
    case same(AnyHashable)
    /// The copy differs from the parent's element, whose id is given: the closure sets it.
    case changed(AnyHashable, (inout ChildState) -> Void)
  }

  /// The child's copy against the parent's element.
  @usableFromInline let lookup: (_ child: ChildState, _ parent: ParentState) -> Lookup
  /// Writes the child's copy to the parent's element with `id`, if it changed.
  @usableFromInline let writeBack:
    (_ child: ChildState, _ id: AnyHashable) -> (inout ParentState) -> Void
  /// Whether the parent has the element of the child's copy.
  @usableFromInline let isPresent: (_ child: ChildState, _ parent: ParentState) -> Bool
  /// A value that changes when an element is added to or removed from the parent's list.
  @usableFromInline let structure: (_ parent: ParentState) -> UInt64
  /// What happens to a child whose element left the parent's list.
  public let ending: Ending

  /// The child keeps a copy of an element of the parent's list at `copy`: the element with the
  /// copy's id in `elements`.
  /// - Parameters:
  ///   - copy: The element in the child's state, such as `\.syncUp`.
  ///   - elements: The parent's list, such as `\.syncUps`.
  ///   - ending: What happens to the child when the element leaves the list: ``Ending/pop``
  ///     unless given.
  /// - Returns: The sharing, for `embed(…, sharing:…)`.
  public static func element<Element: Identifiable & Equatable>(
    _ copy: WritableKeyPath<ChildState, Element>,
    in elements: WritableKeyPath<ParentState, IdentifiedArray<Element>>,
    whenGone ending: Ending = .pop
  ) -> Self {
    Self(
      lookup: { child, parent in
        let mine = child[keyPath: copy]
        guard let theirs = parent[keyPath: elements][id: mine.id] else { return .gone }
        let id = AnyHashable(mine.id)
        return theirs == mine ? .same(id) : .changed(id) { $0[keyPath: copy] = theirs }
      },
      writeBack: { child, id in
        let element = child[keyPath: copy]
        precondition(
          AnyHashable(element.id) == id,
          "Decisions: a child changed the id of the element it shares, \(id), to \(element.id); "
            + "a shared element keeps its id")
        return { parent in
          guard parent[keyPath: elements][id: element.id] != element else { return }
          parent[keyPath: elements][id: element.id] = element
        }
      },
      isPresent: { child, parent in
        parent[keyPath: elements][id: child[keyPath: copy].id] != nil
      },
      structure: { parent in parent[keyPath: elements].structure },
      ending: ending)
  }

  /// Runs `body` on a child through `modify`, its copy of the element set to the parent's first
  /// (`found`, the child's ``lookup``) and its change written back after; `nil` when the element
  /// is gone, and `body` did not run.
  // NB: the caller looks the child up in a statement of its own, so that no copy of the child
  // outlives it: the child is changed in place, whatever its size.
  @inlinable
  func running<Decision>(
    _ found: Lookup?, in parent: inout ParentState,
    modify: (inout ParentState, (inout ChildState) -> [Decision]) -> [Decision],
    _ body: (inout ChildState) -> [Decision]
  ) -> [Decision]? {
    let id: AnyHashable
    let load: ((inout ChildState) -> Void)?
    switch found {
    case nil: return []
    case .gone?: return nil
    case .same(let same)?: (id, load) = (same, nil)
    case .changed(let changed, let loading)?: (id, load) = (changed, loading)
    }
    var store: ((inout ParentState) -> Void)?
    let decisions = withoutActuallyEscaping(body) { body in
      modify(&parent) { child in
        load?(&child)
        let decisions = body(&child)
        store = writeBack(child, id)
        return decisions
      }
    }
    store?(&parent)
    return decisions
  }
}
