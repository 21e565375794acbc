import Decisions

/// One row of the checklist: an item the user can tick and rename, saved after each change.
public enum Row: Feature {
  /// A row's state: its item, and whether a change is being saved.
  public struct State: Equatable, Sendable, Identifiable {
    /// The item the row shows.
    public var item: Item
    /// Whether a change of the item is being saved.
    public var isSaving = false
    /// The item's id.
    ///
    /// THE ONE-WORD RULE, for the rows of `embed(_:list:event:decision:request:)`: their `id` is
    /// `nonisolated` (or a stored `let`), so that their conformance to `Identifiable` is too. The
    /// declaration asks `Identifiable` of a feature's state, a `Sendable` type parameter, which a
    /// main-actor conformance cannot satisfy: "main actor-isolated conformance of 'Row.State' to
    /// 'Identifiable' cannot satisfy conformance requirement for a 'Sendable' type parameter", at
    /// the `embed` line.
    public nonisolated var id: Int { item.id }

    /// A row that shows `item`, saved.
    public init(item: Item) {
      self.item = item
    }
  }

  /// What happens to a row.
  public enum Event: Equatable, Sendable {
    case toggle
    case rename(String)
    case saved(Item)
  }

  /// What a row decides to do.
  public enum Decision: Equatable, Sendable {
    case save(Item)
  }

  /// What a row needs to save its item.
  public struct Deps: Sendable {
    /// Saves an item.
    public var save: @Sendable (Item) async throws -> Void

    /// Deps that save with `save`.
    public init(save: @escaping @Sendable (Item) async throws -> Void) {
      self.save = save
    }
  }

  /// Ticks or renames the item, and decides to save it.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .toggle:
      state.item.isDone.toggle()
      state.isSaving = true
      return [.save(state.item)]

    case .rename(let title):
      guard title != state.item.title else { return [] }
      state.item.title = title
      state.isSaving = true
      return [.save(state.item)]

    case .saved(let item):
      guard item == state.item else { return [] }  // a later change is still being saved
      state.isSaving = false
      return []
    }
  }

  /// The keys of a row's work.
  ///
  /// THE ONE-WORD RULE: a work key you declare is `nonisolated`. Keys are `Hashable & Sendable`,
  /// and Swift does not let a main-actor `Hashable` conformance satisfy a requirement on a
  /// `Sendable` type parameter ("main actor-isolated conformance of 'Row.Key' to 'Hashable'
  /// cannot satisfy conformance requirement for a 'Sendable' type parameter", at each use).
  public nonisolated enum Key: Hashable, Sendable {
    /// The save of the row's item.
    case save
  }

  /// Saves the item, and sends `.saved` when it is saved.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .save(let item):
      effects.run(id: Key.save) { send in
        try await deps.save(item)
        await send(.saved(item))
      }
    }
  }
}
