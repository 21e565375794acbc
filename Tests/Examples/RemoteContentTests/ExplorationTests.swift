import Decisions
import DecisionsTesting
import RemoteContent
import Synchronization
import Testing

// MARK: - Keys: what tells two states apart

/// A container's phase without its content: the key that makes a screen's states finite.
enum PhaseKey: String, Hashable, Sendable {
  case notStarted, loading, loaded, failed

  init<Kind>(_ phase: RemoteContent<Kind>.Phase) {
    switch phase {
    case .notStarted: self = .notStarted
    case .loading: self = .loading
    case .loaded: self = .loaded
    case .failed: self = .failed
    }
  }
}

extension ContentScreen.State {
  /// The kind of the screen and its phase: `story loading`.
  var summary: String {
    switch content {
    case .story(let state): "story \(PhaseKey(state.phase).rawValue)"
    case .user(let state): "user \(PhaseKey(state.phase).rawValue)"
    case .message(let state): "message \(PhaseKey(state.phase).rawValue)"
    }
  }

  /// Whether the screen's fetch is in flight.
  var isLoading: Bool { summary.hasSuffix(" loading") }
}

/// The coordinator's state without screen ids and content: the kind and phase of each open screen,
/// whether a link error shows, and whether a screen was closed (so stale results can arrive).
struct CoordinatorKey: Hashable, Sendable {
  var screens: [String]
  var hasLinkError: Bool
  var hasClosedScreen: Bool

  init(_ state: Coordinator.State) {
    screens = state.stack.map(\.summary)
    hasLinkError = state.linkError != nil
    hasClosedScreen = state.nextScreenID - 1 != (state.stack.last?.id ?? 0)
  }
}

// MARK: - The container

@Suite struct ContainerExplorationTests {
  typealias Container = RemoteContent<StoryKind>
  static let events: [Container.Event] = [
    .appear, .retry, .disappear, .loaded(Fixtures.story), .failed(.notFound),
  ]
  let exploration = explore(
    Container.self, from: Container.State(id: ContentID("12345")!),
    key: { PhaseKey($0.phase) }, events: { _ in events })

  @Test func everyPhaseIsReachedAndTheSearchEnds() {
    exploration.expectComplete()
    #expect(
      exploration.states.map { PhaseKey($0.phase) } == [.notStarted, .loading, .loaded, .failed])
    exploration.expectDeterministic()
  }

  @Test func aFailureNeverLeavesTheScreenStuckLoading() {
    exploration.expectTransitionInvariant("a failure ends the load") { step in
      step.event != .failed(.notFound) || step.after.phase != .loading
    }
    exploration.expectAlwaysCanReach("not loading") { $0.phase != .loading }
  }

  @Test func thereAreNeverTwoLoadsAtOnce() {
    exploration.expectTransitionInvariant("no fetch while loading") { step in
      !step.decisions.contains(.fetch(step.before.id)) || step.before.phase != .loading
    }
  }

  @Test func disappearingCancelsTheScreensWork() {
    exploration.expectTransitionInvariant("disappearing while loading cancels the fetch") { step in
      step.event != .disappear || step.before.phase != .loading
        || step.decisions == [.cancelFetch]
    }
  }

  @Test func aStaleResultChangesNothing() {
    exploration.expectTransitionInvariant("a result when not loading changes nothing") { step in
      switch step.event {
      case .loaded, .failed:
        step.before.phase == .loading || (step.after == step.before && step.decisions.isEmpty)
      case .appear, .retry, .disappear:
        true
      }
    }
  }

  @Test func theMachineMatchesItsCheckedInDiagram() {
    exploration.expectDiagram(
      named: "container-phases", projection: { PhaseKey($0.phase).rawValue },
      edgeLabel: { transition in
        let event =
          switch transition.event {
          case .appear: "appear"
          case .retry: "retry"
          case .disappear: "disappear"
          case .loaded: "loaded"
          case .failed: "failed"
          }
        let decisions = transition.decisions.map { decision in
          switch decision {
          case .fetch: "fetch"
          case .cancelFetch: "cancelFetch"
          }
        }
        return decisions.isEmpty ? event : event + " / " + decisions.joined(separator: ", ")
      })
  }
}

// MARK: - The coordinator

enum CoordinatorModel {
  static let storyLink = "app://stories/12345"
  static let userLink = "app://users/007"

  /// The events tried in a state: two links and a malformed one, back, the lifecycle and both
  /// results for the top screen, and a late result for the screen closed last.
  static func events(_ state: Coordinator.State) -> [Coordinator.Event] {
    var events: [Coordinator.Event] = [.open(storyLink), .open(userLink), .open("nope"), .back]
    if let top = state.stack.last {
      events += [.appear, .retry, .disappear].map { Coordinator.Event.screen(id: top.id, $0) }
      events += results(for: top.id, route: top.route)
    }
    let closed = state.nextScreenID - 1
    if closed > 0, state.stack.last?.id != closed, !state.stack.contains(where: { $0.id == closed })
    {
      events += results(for: closed, route: .story(ContentID("12345")!))
    }
    return events
  }

  static func results(for id: Int, route: Route) -> [Coordinator.Event] {
    switch route {
    case .story:
      [
        .screen(id: id, .story(.loaded(Fixtures.story))),
        .screen(id: id, .story(.failed(.notFound))),
      ]
    case .user:
      [.screen(id: id, .user(.loaded(Fixtures.ada))), .screen(id: id, .user(.failed(.notFound)))]
    case .message:
      []
    }
  }

  /// Screen ids grow with every link, so the key leaves them out, and the depth is bounded: the
  /// stack could grow for ever.
  static let exploration = explore(
    Coordinator.self, from: .init(), key: CoordinatorKey.init, limits: .init(depth: 6),
    events: events)
}

@Suite struct CoordinatorExplorationTests {
  let exploration = CoordinatorModel.exploration

  @Test func theBoundedSearchIsCutByDepthAndSaysSo() {
    #expect(exploration.limitReached == .depth(6))
    #expect(exploration.states.count > 100)
    exploration.expectDeterministic()
  }

  @Test func backPopsTheTopScreenAndDecidesNothing() {
    // NB: the store ends the popped screen's work by `Coordinator.childWork`.
    exploration.expectTransitionInvariant("back pops the top screen") { step in
      guard step.event == .back, !step.before.stack.isEmpty else { return true }
      return step.decisions.isEmpty
        && Array(step.after.stack) == Array(step.before.stack.dropLast())
    }
  }

  @Test func thereAreNeverTwoLoadsAtOnce() {
    exploration.expectTransitionInvariant("no fetch for a screen already loading") { step in
      step.decisions.allSatisfy { decision in
        guard case .screen(let id, let screenDecision) = decision else { return true }
        let isFetch =
          switch screenDecision {
          case .story(.fetch), .user(.fetch), .message(.fetch): true
          default: false
          }
        let before = step.before.stack.first { $0.id == id }
        return !isFetch || before.map { !$0.isLoading } ?? true
      }
    }
    exploration.expectInvariant("screen ids are unique") {
      state in Set(state.stack.map(\.id)).count == state.stack.count
    }
  }

  @Test func aStaleResultChangesNothing() {
    exploration.expectTransitionInvariant("a result for a closed screen changes nothing") { step in
      guard case .screen(let id, _) = step.event,
        !step.before.stack.contains(where: { $0.id == id })
      else { return true }
      return step.after == step.before && step.decisions.isEmpty
    }
  }

  @Test func aFailureNeverLeavesAScreenStuckLoading() {
    exploration.expectAlwaysCanReach("no screen loading") { state in
      !state.stack.contains(where: \.isLoading)
    }
    exploration.expectReachable("two screens, both loading") { state in
      state.stack.count == 2 && state.stack.allSatisfy(\.isLoading)
    }
  }

  @Test func theMachineMatchesItsCheckedInDiagram() {
    exploration.expectDiagram(
      named: "coordinator-top",
      projection: { state in
        state.stack.last.map { "top: \($0.summary)" } ?? "no screen"
      },
      edgeLabel: { transition in
        switch transition.event {
        case .open(let link): link == "nope" ? "open a bad link" : "open \(link.dropFirst(6))"
        case .back: "back"
        case .screen(_, .appear): "appear"
        case .screen(_, .retry): "retry"
        case .screen(_, .disappear): "disappear"
        case .screen(_, .story(.loaded)), .screen(_, .user(.loaded)): "loaded"
        case .screen(_, .story(.failed)), .screen(_, .user(.failed)): "failed"
        case .screen: "other"
        }
      })
  }
}

// MARK: - Model-based tests

/// A fetch that waits until it is cancelled, and counts the fetches in flight.
final class WaitingFetch: Sendable {
  private let counts = Mutex((inFlight: 0, most: 0, started: 0))

  /// The most fetches that were in flight at once, and how many started.
  var most: Int { counts.withLock { $0.most } }
  /// How many fetches started.
  var started: Int { counts.withLock { $0.started } }

  @Sendable func fetch<Content>(_ id: ContentID) async throws -> Content {
    counts.withLock {
      $0.inFlight += 1
      $0.started += 1
      $0.most = max($0.most, $0.inFlight)
    }
    defer { counts.withLock { $0.inFlight -= 1 } }
    // NB: waits until the store cancels it, as an answer that never comes.
    _ = try await ControlledDependency<Void, Int>()()
    throw CancellationError()
  }
}

@Suite(.timeLimit(.minutes(3))) struct ContainerModelTests {
  typealias Container = RemoteContent<StoryKind>
  static let paths = explore(
    Container.self, from: Container.State(id: ContentID("12345")!),
    key: { PhaseKey($0.phase) }, events: { _ in ContainerExplorationTests.events }
  ).transitionCoveringPaths()

  @Test(arguments: paths)
  func theStoreFollowsTheCore(path: EventPath<Container>) async {
    let fetches = WaitingFetch()
    let journal = Journal<Container>(initialState: path.initialState)
    let store = Store<Container>(
      state: path.initialState, deps: .init(fetch: fetches.fetch), diagnostics: journal.record)
    await path.expectStoreAgrees(store, journal: journal)
    await store.stop()
    let decided = path.steps.flatMap(\.decisions).count { $0 != .cancelFetch }
    #expect(fetches.started <= decided)
  }
}
