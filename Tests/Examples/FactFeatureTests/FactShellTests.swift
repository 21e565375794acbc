import Decisions
import DecisionsTesting
import FactFeature
import Testing

/// A load the test finishes by hand: no clocks, no sleeps.
private final class ManualLoad: Sendable {
  private let stream: AsyncStream<Result<Fact, FactSourceError>>
  private let continuation: AsyncStream<Result<Fact, FactSourceError>>.Continuation
  let calls = Calls<Void>()

  init() {
    (stream, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
  }

  /// The `loadFact` closure: waits for the next result the test hands in.
  @Sendable func load() async throws -> Fact {
    calls.record()
    for await result in stream { return try result.get() }
    throw CancellationError()
  }

  func succeed(_ fact: Fact) { continuation.yield(.success(fact)) }
  func fail(_ error: FactSourceError) { continuation.yield(.failure(error)) }
}

@Suite(.timeLimit(.minutes(1))) struct FactExecutorTests {
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

@Suite(.timeLimit(.minutes(1))) struct FactStoreTests {
  private let tap = FactFeature.Event.view(.didTapButton)

  @Test func aTapLoadsAndShowsAFact() async {
    let logged = Calls<String>()
    let test = StoreTest<FactFeature>(
      state: .idle,
      deps: .init(
        track: { _ in }, showSnackbar: unimplemented("showSnackbar"), log: logged.record,
        loadFact: { Fact(text: "hi") }))
    await test.send(tap)
    await test.settle()
    await test.expectState(.loaded("hi"))
    test.expectProcessed([tap, .model(.finishLoading(Fact(text: "hi")))])
    #expect(logged.all == ["hi"])
  }

  @Test func aFailureShowsTheSnackbarAndANewTapRetries() async {
    let load = ManualLoad()
    let snackbars = Calls<String>()
    let test = StoreTest<FactFeature>(
      state: .loaded("old"),
      deps: .init(
        track: { _ in }, showSnackbar: snackbars.record, log: { _ in }, loadFact: load.load))
    await test.send(tap)
    await test.expectState(.loading(previous: "old"))
    load.fail(.unreachable("connection refused"))
    await test.settle()
    await test.expectState(.loaded("old"))
    #expect(snackbars.all == ["Went wrong"])

    await test.send(tap)
    load.succeed(Fact(text: "new"))
    await test.settle()
    await test.expectState(.loaded("new"))
    #expect(load.calls.count == 2)
    test.expectProcessed([
      tap, .model(.failedLoading("server unreachable: connection refused")),
      tap, .model(.finishLoading(Fact(text: "new"))),
    ])
  }

  @Test func tapsDuringALoadStartNoSecondLoad() async {
    let load = ManualLoad()
    let tracked = Calls<FactFeature.Event>()
    let test = StoreTest<FactFeature>(
      state: .idle,
      deps: .init(track: tracked.record, showSnackbar: { _ in }, log: { _ in }, loadFact: load.load)
    )
    await test.send(tap)
    await test.send(tap)
    await test.send(tap)
    load.succeed(Fact(text: "only one"))
    await test.settle()
    await test.expectState(.loaded("only one"))
    #expect(load.calls.count == 1)
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
