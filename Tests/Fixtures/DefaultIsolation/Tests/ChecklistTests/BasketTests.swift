// The library's tools on a feature written with no annotation, in a test target that is main-actor
// isolated by default: exploration, a flight recording from a MainStore, replay, shrinking, the
// inspector page, and a JSON file, each with no `nonisolated`, no `@MainActor` and no `key:`.
import Checklist
import Decisions
import DecisionsTesting
import Foundation
import Synchronization
import Testing

/// The app's bug reports: where its flight recorder's `save` keeps the recordings it is handed.
final class BugReports: Sendable {
  let recordings = Mutex<[FlightRecording<Basket>]>([])
}

@Suite struct BasketTests {
  /// The events tried in every state, given to `explore` as a function.
  static func events(_ state: Basket.State) -> [Basket.Event] {
    [.add("milk"), .removeLast, .empty]
  }

  /// Every state the basket reaches, told apart by the state's own `Hashable`.
  static let exploration = explore(Basket.self, from: .init(), events: events)

  // 1. Exploration: invariants, the shortest counterexample as a CoreTest, a diagram, and paths.
  @Test func explorationFindsTheFourthItemByTheShortestStory() {
    let exploration = Self.exploration
    #expect(exploration.isComplete)
    #expect(exploration.states.count == 5)
    #expect(exploration.transitions.count == 15)
    exploration.expectAlwaysCanReach("empty") { $0.items.isEmpty }
    exploration.expectTransitionInvariant("emptying announces it") { step in
      step.event != .empty || step.decisions == [.announce("emptied")]
    }
    withKnownIssue {
      exploration.expectInvariant("at most three items") { $0.items.count <= 3 }
    } matching: { issue in
      issue.description.contains("The shortest story to it, as a CoreTest:")
        && issue.description.contains("var test = CoreTest<Basket>(state: Basket.State(items: []))")
    }
    #expect(exploration.number(of: Basket.State(items: [Item(id: 1, title: "milk")])) == 1)
  }

  // The counterexample the check above prints, pasted as it is: it compiles and passes.
  @Test func theCounterexampleAsPrinted() {
    var test = CoreTest<Basket>(state: Basket.State(items: []))
    test.send(.add("milk")) {
      $0 = Basket.State(items: [Item(id: 1, title: "milk", isDone: false)])
    }
    test.send(.add("milk")) {
      $0 = Basket.State(items: [
        Item(id: 1, title: "milk", isDone: false), Item(id: 2, title: "milk", isDone: false),
      ])
    }
    test.send(.add("milk")) {
      $0 = Basket.State(items: [
        Item(id: 1, title: "milk", isDone: false), Item(id: 2, title: "milk", isDone: false),
        Item(id: 3, title: "milk", isDone: false),
      ])
    }
    test.send(.add("milk")) {
      $0 = Basket.State(items: [
        Item(id: 1, title: "milk", isDone: false), Item(id: 2, title: "milk", isDone: false),
        Item(id: 3, title: "milk", isDone: false), Item(id: 4, title: "milk", isDone: false),
      ])
    }
  }

  @Test func theDiagramDrawsTheCounts() {
    let diagram = Self.exploration.diagram(projection: { "\($0.items.count) items" })
    #expect(diagram.hasPrefix("stateDiagram-v2\n"))
    #expect(diagram.contains(#"state "4 items" as s4"#))
    #expect(diagram.contains("s3 --> s4 : .add(#quot;milk#quot;)"))
    #expect(
      diagram.contains(
        "s4 --> s4 : .add(#quot;milk#quot;) / .announce(#quot;the basket is full#quot;)"))
  }

  // Every transition-covering path, sent to a MainStore: the store agrees with the core.
  @Test func theMainStoreFollowsTheCoreOnEveryPath() async {
    let paths = Self.exploration.transitionCoveringPaths()
    #expect(!paths.isEmpty)
    for path in paths {
      let journal = Journal<Basket>(initialState: path.initialState)
      let store = MainStore<Basket>(
        state: path.initialState, deps: .init(announce: { _ in }), diagnostics: journal.record)
      await path.expectStoreAgrees(store, journal: journal)
      store.stop()
    }
  }

  // 2. A flight recording from a MainStore, kept by `save` as it is handed over; replay, shrink,
  // the printed CoreTest and the inspector page.
  @Test func aRecordingFromTheMainStoreShrinksToTheFourthItem() throws {
    let reports = BugReports()
    let store = MainStore<Basket>(
      state: .init(), deps: .init(announce: { _ in }),
      recorder: FlightRecorder(
        capacity: 100, invariant: Basket.holdsAtMostThree,
        save: { recording in reports.recordings.withLock { $0.append(recording) } }))
    let session: [Basket.Event] = [
      .add("tea"), .removeLast, .add("bread"), .empty, .add("milk"), .add("eggs"), .removeLast,
      .add("jam"), .add("rice"), .add("salt"), .add("oil"),
    ]
    for event in session { store.send(event) }
    let requested = try #require(store.flightRecording(note: "the user tapped Report"))
    store.stop()

    let recording = try #require(reports.recordings.withLock { $0.first })
    #expect(recording.trigger == .invariantBroken("at most three items"))
    #expect(recording.events == Array(session.prefix(10)))
    #expect(requested.events == session)

    let replay = Replay(recording)
    #expect(replay.state(atStep: 0) == Basket.State())
    #expect(replay.state(atStep: 2) == Basket.State())
    #expect(replay.state(atStep: replay.count) == recording.finalState)
    #expect(replay.step(10)?.after.items.count == 4)

    let shrunk = try replay.shrink(keeping: .invariantBroken(Basket.holdsAtMostThree))
    #expect(shrunk.events == [.add("milk"), .add("jam"), .add("rice"), .add("salt")])
    #expect(shrunk.isOneMinimal)
    #expect(
      shrunk.coreTest.hasPrefix("var test = CoreTest<Basket>(state: Basket.State(items: []))"))

    // The same rule as a closure of the test, which reads the state on the main actor.
    let byClosure = try replay.shrink(
      keeping: .invariantBroken("at most three items") { $0.items.count <= 3 })
    #expect(byClosure.events == shrunk.events)
    let byStep = try replay.shrink(
      keeping: .transitionInvariantBroken("nothing is added to a full basket") { step in
        step.before.items.count < 3 || step.after.items.count <= step.before.items.count
      })
    #expect(byStep.events.count == 4)
    let byRun = try replay.shrink(
      keeping: .run("four items at once") { steps in steps.contains { $0.state.items.count == 4 } })
    #expect(byRun.events.count == 4)
    replay.prefix(9).expectNoSymptom(.invariantBroken(Basket.holdsAtMostThree))

    let page = try recording.inspectorPage()
    #expect(page.contains("<body data-steps=\"10\">"))
    let withStates = try recording.inspectorPage(exploration: Self.exploration)
    #expect(withStates.contains("<svg"))

  }

  // 3. A JSON file of the feature's state: encoded and decoded on the main actor, its own `Codable`;
  // `read` and `write` do the file work off the main actor.
  @Test func theBasketIsKeptInAJSONFile() async throws {
    let folder = FileManager.default.temporaryDirectory.appending(path: "basket-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = JSONFile<Basket.State>(url: folder.appending(path: "basket.json"))
    #expect(try file.load() == nil)
    let basket = Basket.State(items: [Item(id: 1, title: "milk"), Item(id: 2, title: "eggs")])
    try file.save(basket)
    #expect(try file.load() == basket)
    let emptied = Basket.State()
    try await file.write(emptied)
    #expect(try await file.read() == emptied)
    #expect(try file.load() == emptied)
  }

  // 4. StoreTest and perform, as for the checklist.
  @Test func aFullBasketSaysSo() async {
    let announced = Calls<String>()
    let test = StoreTest<Basket>(
      state: Basket.State(items: (1...4).map { Item(id: $0, title: "milk") }),
      deps: .init(announce: announced.record))
    await test.send(.add("milk"), decisions: [.announce("the basket is full")])
    await test.finish()
    #expect(announced.all == ["the basket is full"])
    let execution = await perform(
      Basket.Decision.announce("emptied"), of: Basket.self,
      deps: .init(announce: announced.record))
    #expect(execution.events.isEmpty)
    #expect(announced.all == ["the basket is full", "emptied"])
  }
}
