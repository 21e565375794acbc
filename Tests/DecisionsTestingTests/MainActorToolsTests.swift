import Decisions
import DecisionsTesting
import Synchronization
import Testing

// The tools on a main-actor feature, its conformances isolated to the main actor as a module with
// default main-actor isolation writes them (said out loud here, since this module is not): each
// takes the feature as it is, on the main actor. Tests/Fixtures/DefaultIsolation does the same with
// no annotation at all.
@MainActor
private enum Stack: @MainActor Feature {
  @MainActor struct State: @MainActor Hashable, Sendable {
    var depth = 0
  }
  @MainActor enum Event: @MainActor Hashable, Sendable {
    case push, pop
  }
  @MainActor enum Decision: @MainActor Hashable, Sendable {
    case overflowed
  }

  // The bug: it should stop at 2.
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .push:
      guard state.depth <= 2 else { return [.overflowed] }
      state.depth += 1
      return []
    case .pop:
      state.depth = max(0, state.depth - 1)
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Void, effects: Effects<Event>) {}

  static func events(_ state: State) -> [Event] { [.push, .pop] }

  static let atMostTwo = FlightRecorder<Stack>.Invariant("at most two") { $0.depth <= 2 }
}

/// Where the recorder's `save` keeps what it is handed.
@MainActor private final class Saved: Sendable {
  let recordings = Mutex<[FlightRecording<Stack>]>([])
}

@MainActor
@Suite struct MainActorToolsTests {
  /// The state's own main-actor `Hashable`, and a main-actor `events` function.
  fileprivate static let exploration = explore(Stack.self, from: .init(), events: Stack.events)

  @Test func exploreUsesTheStatesOwnHashableAndAMainActorEventsFunction() {
    #expect(Self.exploration.states.count == 4)
    #expect(Self.exploration.number(of: .init(depth: 3)) == 3)
    withKnownIssue {
      Self.exploration.expectInvariant("at most two") { $0.depth <= 2 }
    } matching: { issue in
      issue.description.contains("var test = CoreTest<Stack>(state: Stack.State(depth: 0))")
    }
  }

  @Test func aMainStoresRecordingIsKeptShrunkAndInspected() throws {
    let saved = Saved()
    let store = MainStore<Stack>(
      state: .init(), deps: (),
      recorder: FlightRecorder(
        capacity: 50, invariant: Stack.atMostTwo,
        save: { recording in saved.recordings.withLock { $0.append(recording) } }))
    for event: Stack.Event in [.push, .pop, .push, .push, .pop, .push, .push] { store.send(event) }
    store.stop()
    let recording = try #require(saved.recordings.withLock { $0.first })
    #expect(recording.trigger == .invariantBroken("at most two"))
    let replay = Replay(recording)
    #expect(replay.state(atStep: replay.count) == recording.finalState)
    let shrunk = try replay.shrink(keeping: .invariantBroken("at most two") { $0.depth <= 2 })
    #expect(shrunk.events == [.push, .push, .push])
    let byRule = try replay.shrink(keeping: .invariantBroken(Stack.atMostTwo))
    #expect(byRule.events == shrunk.events)
    #expect(try recording.inspectorPage(exploration: Self.exploration).contains("<svg"))
  }
}
