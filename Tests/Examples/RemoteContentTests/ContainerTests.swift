import DecisionsTesting
import RemoteContent
import Testing

/// Every event in every phase of a container, exhaustively.
@Suite struct ContainerCoreTests {
  typealias Container = RemoteContent<StoryKind>
  private let id = ContentID("12345")!
  private let story = Fixtures.story

  private func state(_ phase: Container.Phase) -> Container.State {
    Container.State(id: id, phase: phase)
  }

  @Test func appearingStartsTheFetch() {
    expectStep(Container.self, from: state(.notStarted), on: .appear, decisions: [.fetch(id)]) {
      $0.phase = .loading
    }
  }

  @Test(arguments: [Container.Phase.loading, .loaded(Fixtures.story), .failed(.notFound)])
  func appearingAgainFetchesNothing(phase: Container.Phase) {
    expectStep(Container.self, from: state(phase), on: .appear)
  }

  @Test func retryAfterAFailureFetchesAgain() {
    expectStep(
      Container.self, from: state(.failed(.unreachable("x"))), on: .retry, decisions: [.fetch(id)]
    ) {
      $0.phase = .loading
    }
  }

  @Test(arguments: [Container.Phase.notStarted, .loading, .loaded(Fixtures.story)])
  func retryDoesNothingUnlessFailed(phase: Container.Phase) {
    expectStep(Container.self, from: state(phase), on: .retry)
  }

  @Test func disappearingWhileLoadingCancelsTheFetch() {
    expectStep(Container.self, from: state(.loading), on: .disappear, decisions: [.cancelFetch]) {
      $0.phase = .notStarted
    }
  }

  @Test(arguments: [Container.Phase.notStarted, .loaded(Fixtures.story), .failed(.notFound)])
  func disappearingOtherwiseDoesNothing(phase: Container.Phase) {
    expectStep(Container.self, from: state(phase), on: .disappear)
  }

  @Test func resultsWhileLoadingAreShown() {
    expectStep(Container.self, from: state(.loading), on: .loaded(story)) {
      $0.phase = .loaded(story)
    }
    expectStep(Container.self, from: state(.loading), on: .failed(.notFound)) {
      $0.phase = .failed(.notFound)
    }
  }

  @Test(arguments: [Container.Phase.notStarted, .loaded(Fixtures.story), .failed(.notFound)])
  func staleResultsChangeNothing(phase: Container.Phase) {
    expectStep(Container.self, from: state(phase), on: .loaded(story))
    expectStep(Container.self, from: state(phase), on: .failed(.malformed("late")))
  }

  @Test func aRetryStory() {
    var test = CoreTest<Container>(state: state(.notStarted))
    test.send(.appear, decisions: [.fetch(id)]) { $0.phase = .loading }
    test.send(.appear)
    test.send(.failed(.unreachable("offline"))) { $0.phase = .failed(.unreachable("offline")) }
    test.send(.retry, decisions: [.fetch(id)]) { $0.phase = .loading }
    test.send(.loaded(story)) { $0.phase = .loaded(story) }
  }
}

@Suite struct ScreenDescriptionTests {
  private let id = ContentID("12345")!

  @Test func aLoadedStoryShowsItsTitleUsersDateAndText() {
    let screen = RemoteContent<StoryKind>.State(id: id, phase: .loaded(Fixtures.story)).screen
    #expect(
      screen
        == ScreenDescription(
          title: "A title",
          rows: [
            .field("From", "Ada (@ada)"), .field("To", "Alan (@alan)"),
            .field("Date", "2026-05-01 09:40 UTC"), .text("Once upon a time."),
          ]))
  }

  @Test func loadingShowsProgress() {
    let screen = RemoteContent<UserKind>.State(id: id, phase: .loading).screen
    #expect(screen.plainText == "User 12345\n… Loading user…")
  }

  @Test func errorScreensTellNotFoundFromUnreachableFromMalformed() {
    func text(_ failure: LoadFailure) -> String {
      RemoteContent<StoryKind>.State(id: id, phase: .failed(failure)).screen.plainText
    }
    #expect(text(.notFound) == "Story 12345\n! Could not find story.\n[retry]")
    #expect(
      text(.unreachable("server unreachable: refused"))
        == "Story 12345\n! Could not load story: server unreachable: refused.\n[retry]")
    #expect(
      text(.malformed("bad date"))
        == "Story 12345\n! Could not read story: the data is malformed (bad date).\n[retry]")
  }

  @Test func aKindCanPresentItsOwnErrorScreen() {
    let screen = RemoteContent<QuietKind>.State(id: id, phase: .failed(.notFound)).screen
    #expect(screen == ScreenDescription(title: "Gone", rows: [.text("Nothing here.")]))
  }

  @Test func aMessageAndAUserPresentTheirFields() {
    #expect(
      MessageKind.present(Fixtures.message).plainText
        == "Message from Alan\nFrom: Alan (@alan)\nTo: Ada (@ada)\nDate: 2026-05-01 09:40 UTC\nHi!")
    #expect(UserKind.present(Fixtures.ada).plainText == "Ada\nHandle: @ada\nWrites.")
  }
}

@Suite struct ContentScreenTests {
  @Test(arguments: [
    Route.story(ContentID("1")!), .user(ContentID("2")!), .message(ContentID("3")!),
  ])
  func lifecycleEventsReachTheContainerOfTheScreensKind(route: Route) {
    var state = ContentScreen.State(id: 1, route: route)
    let decisions = ContentScreen.makeDecisions(event: .appear, state: &state)
    let expected: ContentScreen.Decision =
      switch route {
      case .story(let id): .story(.fetch(id))
      case .user(let id): .user(.fetch(id))
      case .message(let id): .message(.fetch(id))
      }
    #expect(decisions == [expected])
    #expect(state.route == route)
  }

  @Test func anEventForAnotherKindIsDropped() {
    let state = ContentScreen.State(id: 1, route: .user(ContentID("2")!))
    expectStep(ContentScreen.self, from: state, on: .story(.appear))
  }
}

/// A kind with its own error screen.
private enum QuietKind: ContentKind {
  static let name = "note"
  static func present(_ content: String) -> ScreenDescription {
    ScreenDescription(title: content, rows: [])
  }
  static func present(_ failure: LoadFailure, id: ContentID) -> ScreenDescription {
    ScreenDescription(title: "Gone", rows: [.text("Nothing here.")])
  }
}
