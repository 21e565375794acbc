import Decisions
import DecisionsTesting
import FactFeature
import Testing

@Suite(.timeLimit(.minutes(3))) struct FactExecutorTests {
  @Test func loadSendsTheLoadedFactBack() async {
    let execution = await perform(
      FactFeature.Decision.load, of: FactFeature.self,
      deps: .init(
        track: unimplemented("track"), showSnackbar: unimplemented("showSnackbar"),
        log: unimplemented("log"), loadFact: { Fact(text: "hi") }))
    #expect(execution.events == [.model(.finishLoading(Fact(text: "hi")))])
    #expect(execution.startedWork == [WorkID("load")])
  }

  @Test func aFailedLoadSendsItsCauseBack() async {
    let execution = await perform(
      FactFeature.Decision.load, of: FactFeature.self,
      deps: .init(
        track: unimplemented("track"), showSnackbar: unimplemented("showSnackbar"),
        log: unimplemented("log"), loadFact: { throw FactSourceError.httpStatus(503) }))
    #expect(execution.events == [.model(.failedLoading("HTTP status 503"))])
  }

  @Test func quickDecisionsCallExactlyTheirDependency() async {
    let tracked = Calls<FactFeature.Event>()
    let shown = Calls<String>()
    let logged = Calls<String>()
    let deps = FactFeature.Deps(
      track: tracked.record, showSnackbar: shown.record, log: logged.record,
      loadFact: unimplemented("loadFact"))
    _ = await perform(
      FactFeature.Decision.track(.view(.didTapButton)), of: FactFeature.self, deps: deps)
    _ = await perform(
      FactFeature.Decision.showSnackbar("Went wrong"), of: FactFeature.self, deps: deps)
    _ = await perform(FactFeature.Decision.log("hello"), of: FactFeature.self, deps: deps)
    #expect(tracked.all == [.view(.didTapButton)])
    #expect(shown.all == ["Went wrong"])
    #expect(logged.all == ["hello"])
  }
}

@Suite(.timeLimit(.minutes(3))) struct FactStoreTests {
  private let tap = FactFeature.Event.view(.didTapButton)

  @Test func aTapLoadsAndShowsAFact() async {
    let logged = Calls<String>()
    let test = StoreTest<FactFeature>(
      state: .idle,
      deps: .init(
        track: { _ in }, showSnackbar: unimplemented("showSnackbar"), log: logged.record,
        loadFact: { Fact(text: "hi") }))
    await test.send(tap, decisions: [.track(tap), .load]) { $0 = .loading(previous: nil) }
    await test.receive(.model(.finishLoading(Fact(text: "hi"))), decisions: [.log("hi")]) {
      $0 = .loaded("hi")
    }
    await test.finish()
    #expect(logged.all == ["hi"])
  }

  @Test func aFailureShowsTheSnackbarAndANewTapRetries() async throws {
    let load = ControlledDependency<Void, Fact>()
    let snackbars = Calls<String>()
    let test = StoreTest<FactFeature>(
      state: .loaded("old"),
      deps: .init(
        track: { _ in }, showSnackbar: snackbars.record, log: { _ in },
        loadFact: { try await load() }))
    await test.send(tap, decisions: [.track(tap), .load]) { $0 = .loading(previous: "old") }
    try await load.nextCall().fail(FactSourceError.unreachable("connection refused"))
    let reason = "server unreachable: connection refused"
    await test.receive(
      .model(.failedLoading(reason)),
      decisions: [.log("Failed to load a fact: \(reason)"), .showSnackbar("Went wrong")]
    ) {
      $0 = .loaded("old")
    }
    #expect(snackbars.all == ["Went wrong"])

    await test.send(tap, decisions: [.track(tap), .load]) { $0 = .loading(previous: "old") }
    try await load.nextCall().answer(Fact(text: "new"))
    await test.receive(.model(.finishLoading(Fact(text: "new"))), decisions: [.log("new")]) {
      $0 = .loaded("new")
    }
    await test.finish()
    #expect(load.callCount == 2)
  }

  @Test func tapsDuringALoadStartNoSecondLoad() async throws {
    let load = ControlledDependency<Void, Fact>()
    let tracked = Calls<FactFeature.Event>()
    let test = StoreTest<FactFeature>(
      state: .idle,
      deps: .init(
        track: tracked.record, showSnackbar: { _ in }, log: { _ in },
        loadFact: { try await load() }))
    await test.send(tap, decisions: [.track(tap), .load]) { $0 = .loading(previous: nil) }
    let call = try await load.nextCall()
    await test.send(tap, decisions: [.track(tap)])
    await test.send(tap, decisions: [.track(tap)])
    call.answer(Fact(text: "only one"))
    await test.receive(
      .model(.finishLoading(Fact(text: "only one"))), decisions: [.log("only one")]
    ) {
      $0 = .loaded("only one")
    }
    await test.finish()
    #expect(load.callCount == 1)
    #expect(tracked.count == 3)
  }

  @MainActor
  @Test func theViewModelShowsTheFactAfterATap() async {
    let model = FactViewModel(
      state: .idle,
      deps: .init(
        track: { _ in }, showSnackbar: { _ in }, log: { _ in }, loadFact: { Fact(text: "hi") }))
    #expect(model.factText == nil)
    model.didTapButton()
    await model.settle()
    #expect(model.factText == "hi")
    #expect(!model.isLoading)
  }
}
