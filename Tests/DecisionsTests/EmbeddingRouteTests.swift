import Decisions
import Testing

/// Routes of embeddings made anew for each decision.
///
/// A parent's route keeps the route of each embedding it performs a child's decision through
/// (issue 36, part 7). These check the routes of embeddings made anew for each decision — a
/// computed `static var` rather than a `static let` — which no route keeps past its limit: their
/// work's events still reach the right child, two levels deep, and nothing is freed under them.
@Suite(.timeLimit(.minutes(3)))
struct EmbeddingRouteTests {
  /// A leaf whose one decision starts work that sends a tick back.
  enum Leaf: Feature {
    struct State: Equatable, Sendable { var ticks = 0 }
    enum Event: Equatable, Sendable {
      case start
      case tick
    }
    enum Decision: Equatable, Sendable { case work }
    struct Deps: Sendable {}

    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      switch event {
      case .start: return [.work]
      case .tick:
        state.ticks += 1
        return []
      }
    }

    static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
      effects.run { send in await send(.tick) }
    }
  }

  /// The leaf embedded by a declaration made anew on each use.
  enum Middle: Feature {
    struct State: Equatable, Sendable { var leaf = Leaf.State() }
    enum Event: Equatable, Sendable { case leaf(Leaf.Event) }
    enum Decision: Equatable, Sendable { case leaf(Leaf.Decision) }
    struct Deps: Sendable {}

    static var leaf: EmbeddedChild<Middle, Leaf> {
      embed(Leaf.self, state: \.leaf, event: Event.leaf, decision: Decision.leaf)
    }
    static var childWork: [ChildWork<State>] { [leaf.work] }

    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      switch event {
      case .leaf(let event): leaf.makeDecisions(event: event, in: &state)
      }
    }

    static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
      switch decision {
      case .leaf(let decision): leaf.execute(decision, deps: .init(), effects: effects)
      }
    }
  }

  /// The middle level, embedded the same way.
  enum Top: Feature {
    struct State: Equatable, Sendable { var middle = Middle.State() }
    enum Event: Equatable, Sendable { case middle(Middle.Event) }
    enum Decision: Equatable, Sendable { case middle(Middle.Decision) }
    struct Deps: Sendable {}

    static var middle: EmbeddedChild<Top, Middle> {
      embed(Middle.self, state: \.middle, event: Event.middle, decision: Decision.middle)
    }
    static var childWork: [ChildWork<State>] { [middle.work] }

    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      switch event {
      case .middle(let event): middle.makeDecisions(event: event, in: &state)
      }
    }

    static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
      switch decision {
      case .middle(let decision): middle.execute(decision, deps: .init(), effects: effects)
      }
    }
  }

  /// Two leaves of the same feature in two places, each embedded by a declaration made anew on
  /// each use: a freed declaration's key must not find the other's route.
  enum Pair: Feature {
    struct State: Equatable, Sendable {
      var first = Leaf.State()
      var second = Leaf.State()
    }
    enum Event: Equatable, Sendable {
      case first(Leaf.Event)
      case second(Leaf.Event)
    }
    enum Decision: Equatable, Sendable {
      case first(Leaf.Decision)
      case second(Leaf.Decision)
    }
    struct Deps: Sendable {}

    static var first: EmbeddedChild<Pair, Leaf> {
      embed(Leaf.self, state: \.first, event: Event.first, decision: Decision.first)
    }
    static var second: EmbeddedChild<Pair, Leaf> {
      embed(Leaf.self, state: \.second, event: Event.second, decision: Decision.second)
    }
    static var childWork: [ChildWork<State>] { [first.work, second.work] }

    static func makeDecisions(event: Event, state: inout State) -> [Decision] {
      switch event {
      case .first(let event): first.makeDecisions(event: event, in: &state)
      case .second(let event): second.makeDecisions(event: event, in: &state)
      }
    }

    static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
      switch decision {
      case .first(let decision): first.execute(decision, deps: .init(), effects: effects)
      case .second(let decision): second.execute(decision, deps: .init(), effects: effects)
      }
    }
  }

  @Test func aDeclarationMadeAnewNeverGetsAnotherDeclarationsRoute() async {
    let store = Store<Pair>(state: .init(), deps: .init())
    for _ in 0..<100 {
      await store.send(.first(.start))
      await store.send(.second(.start))
    }
    await store.settle()
    #expect(await store.state.first.ticks == 100)
    #expect(await store.state.second.ticks == 100)
  }

  @Test func workOfEmbeddingsMadeAnewForEachDecisionReachesItsChild() async {
    let store = Store<Top>(state: .init(), deps: .init())
    // More decisions than a route keeps child routes: the later ones' routes are not kept.
    let starts = 300
    for _ in 0..<starts { await store.send(.middle(.leaf(.start))) }
    await store.settle()
    #expect(await store.state.middle.leaf.ticks == starts)
  }

  @Test func aMainStoreToo() async {
    let ticks = await MainActor.run {
      let store = MainStore<Top>(state: .init(), deps: .init())
      for _ in 0..<300 { store.send(.middle(.leaf(.start))) }
      return store
    }.settledTicks()
    #expect(ticks == 300)
  }
}

extension MainStore where F == EmbeddingRouteTests.Top {
  /// The leaf's ticks once the store's work has ended.
  fileprivate func settledTicks() async -> Int {
    await settle()
    return state.middle.leaf.ticks
  }
}
