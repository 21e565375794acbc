import Decisions
import DecisionsTesting
import RemoteContent
import Testing

@Suite struct CoordinatorCoreTests {
  private let story = Route.story(ContentID("12345")!)
  private let user = Route.user(ContentID("007")!)

  @Test func openingALinkPushesItsScreenAndStartsItsFetch() {
    var test = CoreTest<Coordinator>(state: .init())
    test.send(
      .open("app://stories/12345"), decisions: [.screen(id: 1, .story(.fetch(ContentID("12345")!)))]
    ) {
      $0.stack = [ContentScreen.State(id: 1, route: story)]
      $0.stack[id: 1]?.content = .story(.init(id: ContentID("12345")!, phase: .loading))
      $0.nextScreenID = 2
    }
  }

  @Test func openingTheScreenOnTopAgainDoesNotDuplicateIt() {
    var test = CoreTest<Coordinator>(state: .init(), exhaustivity: .off)
    test.send(.open("app://stories/12345"))
    test.send(.open("app://stories/12345/"))
    #expect(test.state.stack.count == 1)
  }

  @Test func openingAScreenThatIsLowerInTheStackPushesItAgain() {
    var test = CoreTest<Coordinator>(state: .init(), exhaustivity: .off)
    test.send(.open("app://stories/12345"))
    test.send(.open("app://users/007"))
    test.send(.open("app://stories/12345"))
    #expect(test.state.stack.map(\.route) == [story, user, story])
    #expect(test.state.stack.map(\.id) == [1, 2, 3])
  }

  @Test func backPopsTheTopScreenAndDecidesNothing() {
    var test = CoreTest<Coordinator>(state: .init(), exhaustivity: .off)
    test.send(.open("app://stories/12345"))
    test.send(.open("app://users/007"))
    let below = test.state.stack[0]
    var exact = CoreTest<Coordinator>(state: test.state)
    // NB: the store cancels the popped screen's work (`Coordinator.childWork`), not a decision.
    exact.send(.back) { $0.stack = [below] }
  }

  @Test func backWithNothingOpenDoesNothing() {
    expectStep(Coordinator.self, from: .init(), on: .back)
  }

  @Test func backWithNothingOpenClearsTheLastLinkError() {
    var test = CoreTest<Coordinator>(state: .init())
    test.send(.open("app://videos/1")) {
      $0.linkError = #"app://videos/1: unknown kind "videos" (expected stories, users or messages)"#
    }
    test.send(.back) { $0.linkError = nil }
  }

  @Test func theLinkErrorOfAHugeLinkIsShort() throws {
    var test = CoreTest<Coordinator>(state: .init(), exhaustivity: .off)
    test.send(.open("app://" + String(repeating: "x", count: 1_000_000)))
    let error = try #require(test.state.linkError)
    #expect(error.count < 200)
  }

  @Test func aMalformedLinkOpensNothingAndSaysWhy() {
    var test = CoreTest<Coordinator>(state: .init())
    test.send(.open("app://videos/1")) {
      $0.linkError = #"app://videos/1: unknown kind "videos" (expected stories, users or messages)"#
    }
    test.send(
      .open("app://users/007"), decisions: [.screen(id: 1, .user(.fetch(ContentID("007")!)))]
    ) {
      $0.linkError = nil
      $0.stack = [ContentScreen.State(id: 1, route: user)]
      $0.stack[id: 1]?.content = .user(.init(id: ContentID("007")!, phase: .loading))
      $0.nextScreenID = 2
    }
  }

  @Test func screenEventsGoToTheirScreenOnly() {
    var test = CoreTest<Coordinator>(state: .init(), exhaustivity: .off)
    test.send(.open("app://stories/12345"))
    test.send(.open("app://users/007"))
    test.send(.screen(id: 1, .story(.loaded(Fixtures.story))))
    #expect(test.state.stack[0].screen.title == "A title")
    #expect(test.state.stack[1].screen.title == "User 007")
    // A screen that is gone gets nothing.
    var exact = CoreTest<Coordinator>(state: test.state)
    exact.send(.screen(id: 99, .retry))
  }

  @Test func aNavigationSessionMatchesItsCheckedInTrace() {
    expectTrace(
      Coordinator.self, from: .init(),
      events: [
        .open("app://stories/12345"), .open("app://stories/12345"),
        .screen(id: 1, .story(.loaded(Fixtures.story))), .open("app://users/007"),
        .screen(id: 2, .user(.failed(.unreachable("server unreachable")))),
        .screen(id: 2, .retry), .back, .open("app://nope/1"), .back,
      ],
      named: "navigation")
  }
}

@Suite(.timeLimit(.minutes(3))) struct CoordinatorStoreTests {
  @Test func backCancelsTheClosedScreensFetch() async {
    let stories = ManualFetch<Story>()
    let journal = Journal<Coordinator>(initialState: .init())
    let store = Store<Coordinator>(
      state: .init(),
      deps: .init(
        story: stories.fetch, user: unimplemented("user"), message: unimplemented("message")),
      diagnostics: journal.record)
    await store.send(.open("app://stories/12345"))
    await store.send(.back)
    stories.succeed(Fixtures.story)  // arrives after the screen closed
    await store.settle()
    #expect(await store.state.stack.isEmpty)
    #expect(journal.events == [.open("app://stories/12345"), .back])
  }

  @Test func aFetchAnsweredRightAfterBackIsDroppedAndItsWorkWasCancelled() async throws {
    let stories = ControlledDependency<ContentID, Story>()
    let journal = Journal<Coordinator>(initialState: .init())
    let store = Store<Coordinator>(
      state: .init(),
      deps: .init(
        story: { try await stories($0) }, user: unimplemented("user"),
        message: unimplemented("message")),
      diagnostics: journal.record)
    await store.send(.open("app://stories/12345"))
    let call = try await stories.nextCall()
    await store.send(.back)
    #expect(!call.isWaiting)  // the store cancelled the fetch in the same step as back
    call.answer(Fixtures.story)  // too late: the call already ended
    await store.settle()
    #expect(journal.events == [.open("app://stories/12345"), .back])
    #expect(await store.state.stack.isEmpty)
  }

  @Test func aFetchAnsweredAsItsScreenClosesNeverReachesTheStack() async throws {
    // NB: the answer and back race; whichever the store takes first, no answer is processed after
    // back, and nothing is left running. Which order each round takes depends on the machine (under
    // ThreadSanitizer the answer usually wins); the test above pins the other order.
    for _ in 0..<300 {
      let stories = ControlledDependency<ContentID, Story>()
      let journal = Journal<Coordinator>(initialState: .init())
      let store = Store<Coordinator>(
        state: .init(),
        deps: .init(
          story: { try await stories($0) }, user: unimplemented("user"),
          message: unimplemented("message")),
        diagnostics: journal.record)
      await store.send(.open("app://stories/12345"))
      let call = try await stories.nextCall()
      async let answered: Void = call.answer(Fixtures.story)
      await store.send(.back)
      await answered
      await store.settle()
      let events = journal.events
      let back = try #require(events.firstIndex(of: .back))
      #expect(!events[back...].contains { if case .screen = $0 { true } else { false } })
      #expect(await store.state.stack.isEmpty)
      let started = journal.records.filter { if case .workStarted = $0 { true } else { false } }
      let finished = journal.records.filter { if case .workFinished = $0 { true } else { false } }
      #expect(started.count == finished.count)
    }
  }

  @Test func backLeavesTheScreenBelowLoading() async {
    let stories = ManualFetch<Story>()
    let users = ManualFetch<User>()
    let store = Store<Coordinator>(
      state: .init(),
      deps: .init(story: stories.fetch, user: users.fetch, message: unimplemented("message")))
    await store.send(.open("app://stories/12345"))
    await store.send(.open("app://users/007"))
    await store.send(.back)
    stories.succeed(Fixtures.story)
    await store.settle()
    #expect(await store.state.top?.screen.title == "A title")
  }

  @Test func retryAfterAFailureLoadsTheContent() async {
    let users = ManualFetch<User>()
    let test = StoreTest<Coordinator>(
      state: .init(),
      deps: .init(
        story: unimplemented("story"), user: users.fetch, message: unimplemented("message")),
      // NB: the screens' text says it best; the steps' states are the screen models' business.
      exhaustivity: .off)
    await test.send(.open("app://users/007"))
    users.fail(.unreachable("server unreachable: refused"))
    await test.settle()
    #expect(
      await test.state.top?.screen.plainText
        == "User 007\n! Could not load user: server unreachable: refused.\n[retry]")
    await test.send(.screen(id: 1, .retry))
    users.succeed(Fixtures.ada)
    await test.settle()
    #expect(await test.state.top?.screen.plainText == "Ada\nHandle: @ada\nWrites.")
    #expect(
      test.processedEvents == [
        .open("app://users/007"),
        .screen(id: 1, .user(.failed(.unreachable("server unreachable: refused")))),
        .screen(id: 1, .retry), .screen(id: 1, .user(.loaded(Fixtures.ada))),
      ])
    await test.finish()
  }

  @Test func twoScreensOfTheSameKindFetchSideBySide() async throws {
    let library = try ContentLibrary.bundled()
    let store = Store<Coordinator>(state: .init(), deps: .library(library, delay: .zero))
    await store.send(.open("app://users/007"))
    await store.send(.open("app://users/001"))
    await store.settle()
    let titles = await store.state.stack.map(\.screen.title)
    #expect(
      titles == [
        try library.user(ContentID("007")!).name, try library.user(ContentID("001")!).name,
      ])
  }
}
