import DecisionsTesting
import Observation
import RemoteContent
import Synchronization
import Testing

@MainActor
@Suite(.timeLimit(.minutes(3))) struct CoordinatorViewModelTests {
  @Test func aScreensModelIsInvalidatedOnlyByItsOwnScreen() async throws {
    let stories = ControlledDependency<ContentID, Story>()
    let users = ControlledDependency<ContentID, User>()
    let navigation = CoordinatorViewModel(
      state: .init(),
      deps: .init(
        story: { try await stories($0) }, user: { try await users($0) },
        message: unimplemented("message")))
    navigation.open("app://stories/12345")
    let story = try #require(navigation.screenModel(id: 1))
    #expect(story.state.isLoading)
    let changes = Mutex(0)
    withObservationTracking {
      _ = story.state
    } onChange: {
      changes.withLock { $0 += 1 }
    }

    navigation.open("app://users/007")  // another screen pushed on top
    try await users.nextCall().answer(Fixtures.ada)
    await navigation.settle()  // the other screen loaded
    #expect(navigation.screenModel(id: 2)?.state.screen.title == "Ada")
    #expect(changes.withLock { $0 } == 0)

    try await stories.nextCall().answer(Fixtures.story)
    await navigation.settle()
    #expect(changes.withLock { $0 } == 1)
    #expect(story.state.screen.title == "A title")
  }

  @Test func backLetsTheClosedScreensModelGoAndEndsItsFetch() async throws {
    let stories = ControlledDependency<ContentID, Story>()
    let navigation = CoordinatorViewModel(
      state: .init(),
      deps: .init(
        story: { try await stories($0) }, user: unimplemented("user"),
        message: unimplemented("message")))
    navigation.open("app://stories/12345")
    let model = try #require(navigation.screenModel(id: 1))
    let fetch = try await stories.nextCall()
    navigation.back()
    #expect(!fetch.isWaiting)  // cancelled in the same turn as back
    #expect(navigation.screenModel(id: 1) == nil)
    #expect(model.state.isLoading)  // the model keeps the last state it had
    await navigation.settle()
    #expect(navigation.state.stack.isEmpty)
  }
}
