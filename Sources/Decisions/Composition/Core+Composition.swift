// MARK: - Embedding a child core

// NB: these are the pieces `embed` is made of, `package` so that the library's tests and benchmarks
// can call them; users embed with `embed`, whose declaration keeps them in agreement. The helpers
// are inlinable, so they are specialized for the parent's and child's types in the
// caller's module, like the rest of the core. Unspecialized, they looked up type metadata at run time
// on every event, and cost more than the whole store.
extension Core {
  /// Runs this core as a child of a parent core, on the child state inside the parent's state.
  ///
  /// The child's decisions are wrapped with `embed`, usually a case of the parent's decision enum:
  /// ```swift
  /// case .counter(let event):
  ///   return Counter.makeDecisions(event: event, state: &state.counter, embed: Decision.counter)
  /// ```
  /// - Complexity: O(*d*), where *d* is the number of decisions the child returns.
  @inlinable
  package static func makeDecisions<ParentDecision>(
    event: Event,
    state: inout State,
    embed: (Decision) -> ParentDecision
  ) -> [ParentDecision] {
    let decisions = makeDecisions(event: event, state: &state)
    return decisions.isEmpty ? [] : decisions.map(embed)
  }

  /// Runs this core on an optional child state, such as a sheet that may not be shown.
  ///
  /// When the child state is `nil` the event is dropped and no decisions are returned: a child that is
  /// gone has nothing to decide.
  /// - Complexity: O(*d*), where *d* is the number of decisions the child returns.
  @inlinable
  package static func makeDecisions<ParentDecision>(
    event: Event,
    state: inout State?,
    embed: (Decision) -> ParentDecision
  ) -> [ParentDecision] {
    guard var child = state else { return [] }
    // NB: take the child out so it is mutated in place, without a second copy of its storage.
    state = nil
    defer { state = child }
    return makeDecisions(event: event, state: &child, embed: embed)
  }

  /// Runs this core on the child with the given id in an array of identifiable child states.
  ///
  /// The child's decisions are wrapped with `embed`, which receives the child's id as well, so the
  /// parent's executor knows which child each decision belongs to. When no child has the id, the event
  /// is dropped and no decisions are returned.
  /// ```swift
  /// case .row(let id, let event):
  ///   return Row.makeDecisions(event: event, id: id, in: &state.rows, embed: Decision.row)
  /// ```
  /// - Complexity: O(*n* + *d*), where *n* is the number of children (a linear search by id) and *d*
  ///   the number of decisions the child returns.
  @inlinable
  package static func makeDecisions<ParentDecision>(
    event: Event,
    id: State.ID,
    in states: inout [State],
    embed: (State.ID, Decision) -> ParentDecision
  ) -> [ParentDecision] where State: Identifiable {
    guard let index = states.firstIndex(where: { $0.id == id }) else { return [] }
    return makeDecisions(event: event, state: &states[index]) { embed(id, $0) }
  }

  /// Runs this core on the child with the given id in an ``IdentifiedArray`` of child states, found
  /// in O(1).
  ///
  /// Like the version for an array, but the child is found by its id without a search, so the cost
  /// of an event does not grow with the number of children. When no child has the id, the event is
  /// dropped and no decisions are returned.
  /// ```swift
  /// case .row(let id, let event):
  ///   return Row.makeDecisions(event: event, id: id, in: &state.rows, embed: Decision.row)
  /// ```
  /// - Complexity: O(*d*), where *d* is the number of decisions the child returns.
  @inlinable
  package static func makeDecisions<ParentDecision>(
    event: Event,
    id: State.ID,
    in states: inout IdentifiedArray<State>,
    embed: (State.ID, Decision) -> ParentDecision
  ) -> [ParentDecision] where State: Identifiable {
    guard let index = states.positions[id] else { return [] }
    states.log.updated(id)
    let decisions = makeDecisions(event: event, state: &states.elements[index]) { embed(id, $0) }
    precondition(
      states.elements[index].id == id,
      "IdentifiedArray: the child with id \(id) changed its own id to \(states.elements[index].id)")
    return decisions
  }
}

// MARK: - Starting an embedded child

extension Core {
  /// Runs this core's start as part of a parent's start, on the child state inside the parent's
  /// state.
  ///
  /// ```swift
  /// static func makeStartDecisions(state: inout State) -> [Decision] {
  ///   Counter.makeStartDecisions(state: &state.counter, embed: Decision.counter)
  /// }
  /// ```
  /// - Complexity: O(*d*), where *d* is the number of decisions the child returns.
  @inlinable
  package static func makeStartDecisions<ParentDecision>(
    state: inout State,
    embed: (Decision) -> ParentDecision
  ) -> [ParentDecision] {
    let decisions = makeStartDecisions(state: &state)
    return decisions.isEmpty ? [] : decisions.map(embed)
  }

  /// Runs this core's start on an optional child state, if it is present.
  /// - Complexity: O(*d*), where *d* is the number of decisions the child returns.
  @inlinable
  package static func makeStartDecisions<ParentDecision>(
    state: inout State?,
    embed: (Decision) -> ParentDecision
  ) -> [ParentDecision] {
    guard var child = state else { return [] }
    state = nil
    defer { state = child }
    return makeStartDecisions(state: &child, embed: embed)
  }
}

// MARK: - Embedding a child executor

extension Feature {
  /// Performs a child feature's decision from the parent's executor.
  ///
  /// Events the child's work sends are wrapped with `embed`, usually a case of the parent's event enum.
  /// The child's work shares the parent's work scope: give it ids that do not clash with the parent's,
  /// or use `execute(_:deps:effects:scope:embed:)` to give it a scope of its own.
  /// ```swift
  /// case .counter(let decision):
  ///   Counter.execute(decision, deps: deps.counter, effects: effects, embed: Event.counter)
  /// ```
  @inlinable
  package static func execute<ParentEvent: Sendable>(
    _ decision: Decision,
    deps: Deps,
    effects: Effects<ParentEvent>,
    embed: @escaping @Sendable (Event) -> ParentEvent
  ) {
    execute(decision, deps: deps, effects: effects.map(embed))
  }

  /// Performs a child feature's decision in its own work scope, such as one child of a collection.
  ///
  /// The child's work is keyed within `scope`, so two children can both run work keyed `"load"`
  /// without replacing each other, and the parent can cancel all of one child's work with
  /// `Effects.cancelAll(in:)`.
  /// ```swift
  /// case .row(let id, let decision):
  ///   Row.execute(decision, deps: deps.row, effects: effects, scope: id) { Event.row(id, $0) }
  /// ```
  @inlinable
  package static func execute<ParentEvent: Sendable>(
    _ decision: Decision,
    deps: Deps,
    effects: Effects<ParentEvent>,
    scope: some Hashable & Sendable,
    embed: @escaping @Sendable (Event) -> ParentEvent
  ) {
    execute(decision, deps: deps, effects: effects.scoped(to: scope, embed))
  }
}

// MARK: - Mapping effects

extension Effects {
  // NB: internal and inlinable: the composition helpers above, which embedded children call once per
  // decision, inline them so they are specialized in the caller's module.
  /// Effects for a child feature whose events are wrapped with `embed`, in the same work scope.
  @inlinable
  func map<Child: Sendable>(_ embed: @escaping @Sendable (Child) -> Event) -> Effects<Child> {
    Effects<Child>(registry: registry, route: route.map(embed), scope: scope)
  }

  /// Effects for a child feature whose events are wrapped with `embed`, in a nested work scope.
  ///
  /// Work ids inside the scope do not clash with ids outside it, and `cancelAll(in:)` with the same
  /// scope cancels all of the child's work.
  @inlinable
  func scoped<Child: Sendable>(
    to scope: some Hashable & Sendable,
    _ embed: @escaping @Sendable (Child) -> Event
  ) -> Effects<Child> {
    Effects<Child>(registry: registry, route: route.map(embed), scope: self.scope + [WorkID(scope)])
  }

  /// Cancels all work in the nested scope `scope` of this one: all the work of one embedded child.
  package func cancelAll(in scope: some Hashable & Sendable) {
    registry.cancelAll(in: self.scope + [WorkID(scope)])
  }
}
