import Synchronization
import Testing

@testable import Decisions
@testable import DecisionsTesting

/// A screen that loads when it opens and listens to a stream for as long as its store runs.
private enum Opener: Feature {
  struct State: Equatable, Sendable {
    var isLoading = false
    var text = ""
    var ticks = 0
  }

  enum Event: Equatable, Sendable {
    case loaded(String)
    case tick
    case tap
  }

  enum Decision: Equatable, Sendable {
    case load
    case listen
    case log(String)
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> String
    var ticks: @Sendable () -> AsyncStream<Void>
    var log: @Sendable (String) -> Void = { _ in }
  }

  static func makeStartDecisions(state: inout State) -> [Decision] {
    state.isLoading = true
    return [.load, .listen]
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .loaded(let text):
      state.isLoading = false
      state.text = text
      return []
    case .tick:
      state.ticks += 1
      return []
    case .tap:
      return [.log("tap")]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { send in await send(.loaded(try await deps.load())) }
    case .listen:
      effects.run(id: "ticks") { send in
        for await _ in deps.ticks() { await send(.tick) }
      }
    case .log(let text):
      deps.log(text)
    }
  }
}

/// A parent whose start is its children's.
private enum Pair: Core {
  struct State: Equatable, Sendable {
    var first = Opener.State()
    var second: Opener.State?
  }

  typealias Event = Never

  enum Decision: Equatable, Sendable {
    case first(Opener.Decision)
    case second(Opener.Decision)
  }

  static func makeStartDecisions(state: inout State) -> [Decision] {
    Opener.makeStartDecisions(state: &state.first, embed: Decision.first)
      + Opener.makeStartDecisions(state: &state.second, embed: Decision.second)
  }

  static func makeDecisions(event: Never, state: inout State) -> [Decision] {}
}

@Suite(.timeLimit(.minutes(3))) struct StartTests {
  /// Deps whose load the test answers and whose stream the test drives.
  private func deps() -> (
    Opener.Deps, ControlledDependency<Void, String>, AsyncStream<Void>.Continuation
  ) {
    let load = ControlledDependency<Void, String>()
    let (ticks, tick) = AsyncStream<Void>.makeStream()
    return (.init(load: { try await load() }, ticks: { ticks }), load, tick)
  }

  @Test func theStartIsACoreStepTestedWithoutAStore() {
    var test = CoreTest<Opener>(state: .init())
    test.start(decisions: [.load, .listen]) { $0.isLoading = true }
    test.send(.loaded("hi")) {
      $0.isLoading = false
      $0.text = "hi"
    }
  }

  @Test func aWrongStartFailsTheCoreTest() {
    let failures = withCapturedFailures {
      var test = CoreTest<Opener>(state: .init())
      test.start(decisions: [.load])
    }
    #expect(failures.count == 2)  // the state changed, and `.listen` was not expected
    #expect(failures.first?.message.hasPrefix("Step 1, the start: ") == true)
  }

  @Test func aParentStartsItsChildren() {
    var test = CoreTest<Pair>(state: .init(second: .init()))
    test.start(decisions: [.first(.load), .first(.listen), .second(.load), .second(.listen)]) {
      $0.first.isLoading = true
      $0.second?.isLoading = true
    }
    var withoutSheet = Pair.State()
    #expect(Pair.makeStartDecisions(state: &withoutSheet) == [.first(.load), .first(.listen)])
    #expect(withoutSheet.second == nil)
  }

  @Test(arguments: StoreKind.allCases)
  func aStoreShowsTheStartStateAndPerformsTheStartDecisionsUnasked(on kind: StoreKind) async throws
  {
    let (deps, load, tick) = deps()
    let store = await kind.make(
      Opener.self, state: .init(), deps: deps)
    #expect(await store.state.isLoading)
    // Nothing was sent: the start decisions run by themselves.
    try await load.nextCall().answer("hi")
    tick.yield()
    tick.finish()
    await store.settle()
    #expect(await store.state == .init(isLoading: false, text: "hi", ticks: 1))
  }

  @Test(arguments: StoreKind.allCases)
  func theStartComesBeforeAnyEventPostedOrSent(on kind: StoreKind) async throws {
    for _ in 0..<200 {
      let (deps, load, tick) = deps()
      let journal = Journal<Opener>(initialState: .init())
      let store = await kind.make(
        Opener.self, state: .init(), deps: deps, diagnostics: journal.record)
      // NB: a `MainStore` has no `post`: it sends the event it would have posted.
      if let store = store as? Store<Opener> { store.post(.tap) } else { await store.send(.tap) }
      await store.send(.tap)
      let records = journal.records.filter {
        if case .state = $0 { false } else if case .workStarted = $0 { false } else { true }
      }
      let expected: [Journal<Opener>.Record] = [
        .started, .decided(.load), .decided(.listen), .received(.tap), .decided(.log("tap")),
      ]
      #expect(Array(records.prefix(5)) == expected)
      try await load.nextCall().answer("hi")
      tick.finish()
      await store.settle()
    }
  }

  @Test(arguments: StoreKind.allCases)
  func stoppingAtOncePerformsTheStartThenCancelsItsWork(on kind: StoreKind) async throws {
    let (deps, load, _) = deps()
    let store = await kind.make(
      Opener.self, state: .init(), deps: deps)
    await store.stop()
    let call = try await load.nextCall()
    #expect(!call.isWaiting)
  }

  @Test(arguments: StoreKind.allCases)
  func aJournalReplaysFromTheStartState(on kind: StoreKind) async throws {
    let (deps, load, tick) = deps()
    let journal = Journal<Opener>(initialState: .init())
    let store = await kind.make(
      Opener.self, state: .init(), deps: deps, diagnostics: journal.record)
    try await load.nextCall().answer("hi")
    tick.finish()
    await store.settle()
    #expect(journal.start?.decisions == [.load, .listen])
    #expect(journal.recording.initialState == .init(isLoading: true))
    #expect(journal.recording.replay().last?.state == .init(isLoading: false, text: "hi"))
    journal.expectReplayMatches()
  }

  @MainActor
  @Test func aMainStoreStartsBeforeItsInitializerReturns() async throws {
    let (deps, load, tick) = deps()
    let store = MainStore<Opener>(state: .init(), deps: deps)
    #expect(store.state.isLoading)
    let call = try await load.nextCall()
    call.answer("hi")
    tick.finish()
    await store.settle()
    #expect(store.state.text == "hi")
  }

  @MainActor
  @Test func anObservableStoreShowsTheStartState() async throws {
    let (deps, load, tick) = deps()
    let model = ObservableStore<Opener>(state: .init(), deps: deps)
    #expect(model.state.isLoading)
    try await load.nextCall().answer("hi")
    tick.finish()
    await model.settle()
    #expect(model.state.text == "hi")
  }

  @Test(arguments: StoreKind.allCases)
  func aStoreTestAssertsTheStartFirst(on kind: StoreKind) async throws {
    let (deps, load, tick) = deps()
    let test = await StoreTest<Opener>(state: .init(), deps: deps, on: kind)
    await test.expectStart(decisions: [.load, .listen]) { $0.isLoading = true }
    // NB: the stream ends first: `receive` settles the store, and a subscription that the test
    // does not control keeps a store from settling.
    tick.yield()
    tick.finish()
    await test.receive(.tick) { $0.ticks = 1 }
    try await load.nextCall().answer("hi")
    await test.receive(.loaded("hi")) {
      $0.isLoading = false
      $0.text = "hi"
    }
    await test.finish()
  }

  @Test(arguments: StoreKind.allCases)
  func aStoreTestThatSkipsTheStartFailsAtTheFirstStep(on kind: StoreKind) async throws {
    let (deps, load, tick) = deps()
    let failures = await withCapturedFailures {
      let test = await StoreTest<Opener>(state: .init(), deps: deps, on: kind)
      await test.send(.tap, decisions: [.log("tap")])
      try? await load.nextCall().answer("hi")
      tick.finish()
      await test.settle()
      switch kind {
      case .store: await test.store.stop()
      case .mainStore: await test.mainStore.stop()
      }
    }
    #expect(
      failures.first?.message.hasPrefix("The store's start was not asserted before sending .tap")
        == true)
    #expect(failures.first?.message.contains("decisions: [.load, .listen]") == true)
  }

  @Test(arguments: StoreKind.allCases)
  func aNonExhaustiveStoreTestListsTheStartAsSkipped(on kind: StoreKind) async throws {
    let (deps, load, tick) = deps()
    let test = await StoreTest<Opener>(state: .init(), deps: deps, exhaustivity: .off, on: kind)
    await test.send(.tap, decisions: [.log("tap")])
    #expect(test.skippedAssertions.first?.hasPrefix("Skipped the store's start:") == true)
    try await load.nextCall().answer("hi")
    tick.finish()
    await test.finish()
  }

  // NB: without `start: .skipped` the store loads and listens at once: the first send fails for
  // the unasserted start, and `load` is called (a failure here, as the deps do not answer it).
  @Test(arguments: StoreKind.allCases)
  func aStoreTestCanBeginAfterTheStart(on kind: StoreKind) async throws {
    let deps = Opener.Deps(
      load: { throw Unexpected(call: "load") },
      ticks: { AsyncStream { $0.finish() } },
      log: { _ in })
    let loaded = Opener.State(isLoading: false, text: "hi", ticks: 0)
    let test = await StoreTest<Opener>(state: loaded, deps: deps, start: .skipped, on: kind)
    await test.send(.tap, decisions: [.log("tap")])
    await test.finish()
    #expect(
      test.journal.records.contains { if case .workStarted = $0 { true } else { false } } == false)
    #expect(await test.state == loaded)
  }
}

/// An error for a call a test does not expect.
private struct Unexpected: Error {
  let call: String
}
