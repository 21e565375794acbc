import Decisions
import DecisionsTesting
import Testing

/// A clicker whose count grows without bound and whose clicks are sent to a server one at a time:
/// its state is not `Hashable`, and without a key its search would not end.
enum Clicker: Feature {
  struct State: Equatable, Sendable {
    /// The clicks so far: no rule reads more than whether there were any.
    var clicks = 0
    /// Whether a send runs.
    var isSending = false
    /// Clicks not yet sent.
    var unsent = 0
  }

  enum Event: Equatable, Sendable {
    case click
    case sent
  }

  enum Decision: Equatable, Sendable {
    case send
  }

  struct Deps: Sendable {
    var send: @Sendable () async throws -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .click:
      state.clicks += 1
      state.unsent += 1
      guard !state.isSending else { return [] }
      state.isSending = true
      return [.send]
    case .sent:
      state.unsent = 0
      state.isSending = false
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .send:
      effects.run(id: "send") { send in
        try await deps.send()
        await send(.sent)
      } catch: { _ in
        .sent
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(send: effects.dependency("send", answers: [.value(())]))
  }

  /// What the rules read: whether a send runs, and whether clicks wait (0, 1, or more).
  static func key(_ state: State) -> [Int] {
    [state.isSending ? 1 : 0, min(state.unsent, 2), min(state.clicks, 1)]
  }
}

extension ExplorationRule<Clicker> {
  /// A send runs exactly while its work does.
  static var sendsWhileSending: Self {
    Self("a send runs exactly while the state says so") { moment in
      moment.state.isSending == !moment.work.isEmpty
    }
  }

  /// Wrong on purpose: a click while a send runs is sent by none.
  static var noClickWaits: Self {
    Self("no click waits for a send") { moment in moment.state.unsent <= 1 }
  }
}

/// `explore(_:from:key:deps:limits:events:)`: a feature whose state is not `Hashable`, told apart
/// by a key, explored to the end.
@Suite struct KeyedExploreTests {
  static func exploration() -> FeatureExploration<Clicker> {
    explore(Clicker.self, from: .init(), key: Clicker.key, deps: Clicker.deps) { _ in [.click] }
  }

  /// The count grows without bound, and the key leaves it out: the search ends, with a state for
  /// each key and work in flight.
  @Test func aKeyEndsTheSearchOfAStateThatGrowsWithoutBound() {
    let exploration = Self.exploration()
    exploration.expectComplete()
    exploration.expectInvariant(.sendsWhileSending)
    exploration.expectNoUnhandledErrors()
    let keys = exploration.snapshots.map { Clicker.key($0.state) }
    // Idle before any click; sending one click; sending with clicks waiting (the third and later
    // clicks are one state with the second); idle after a send.
    #expect(keys == [[0, 0, 0], [1, 1, 1], [1, 2, 1], [0, 0, 1]])
    #expect(exploration.snapshots.map(\.state.clicks) == [0, 1, 2, 1])
  }

  /// A broken rule prints its path as without a key, with the states the path reaches.
  @Test func aBrokenRulePrintsThePathItFound() {
    let exploration = Self.exploration()
    withKnownIssue {
      exploration.expectInvariant(.noClickWaits)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("1. send .click") && text.contains("2. send .click")
        && !text.contains("3. send")
        && text.contains("$0 = Clicker.State(clicks: 2, isSending: true, unsent: 2)")
        && text.hasSuffix("await test.expect(.noClickWaits, effects: effects)")
    }
  }

  /// What the key leaves out is checked only in the state found first for each key: a third
  /// click, reachable, is one state with the second, and a rule on the count does not see it.
  @Test func aRuleOnWhatTheKeyLeavesOutSeesOnlyTheFirstStateFound() {
    let exploration = Self.exploration()
    exploration.expectInvariant(
      ExplorationRule("at most two clicks") { moment in moment.state.clicks <= 2 })
    var test = CoreTest<Clicker>(state: .init())
    test.send(.click, decisions: [.send]) {
      $0 = .init(clicks: 1, isSending: true, unsent: 1)
    }
    test.send(.click) { $0 = .init(clicks: 2, isSending: true, unsent: 2) }
    test.send(.click) { $0 = .init(clicks: 3, isSending: true, unsent: 3) }
  }
}

/// A screen whose every tap starts one more unkeyed load: its work piles up without bound.
enum Piler: Feature {
  struct State: Hashable, Sendable {}

  enum Event: Equatable, Sendable {
    case tap
    case loaded
  }

  enum Decision: Equatable, Sendable {
    case load
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    event == .tap ? [.load] : []
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    effects.run(
      operation: { send in
        try await deps.load()
        await send(.loaded)
      }, catch: { _ in .loaded })
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value(())]))
  }
}

@Suite struct CutExplorationTests {
  /// A search cut by a limit says where its states grow: the work that piles up, with the state
  /// that holds the most of it, and the usual causes.
  @Test func aCutSearchNamesTheWorkThatPilesUp() {
    let exploration = explore(
      Piler.self, from: .init(), deps: Piler.deps, limits: .init(states: 4), events: { _ in [.tap] }
    )
    withKnownIssue {
      exploration.expectComplete()
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("was cut by the limit of 4 states after 4 states and ")
        && text.contains(" transitions (") && text.contains(" steps run). ")
        && text.contains("Its deepest state is 3 steps from the start. ")
        && text.contains(
          "The most work in flight in one state is 3 pieces, in a state reached in 3 steps:")
        && text.contains("unkeyed work waits for load()")
        && text.contains("What grows without bound keeps a search from ending: work that piles up")
    }
  }
}
