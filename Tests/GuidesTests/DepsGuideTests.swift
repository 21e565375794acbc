// The tests of Docs/Deps.md, compiled and run.

import DecisionsTesting
import FactFeature
import Foundation
import Testing

@Suite(.timeLimit(.minutes(3))) struct DepsGuideTests {
  @Test func aTestReplacesOnlyTheClosuresItsPathUses() async {
    let logged = Calls<String>()
    var deps = Counter.Deps.unused()
    deps.loadFact = { _ in throw Offline() }
    deps.log = logged.record

    let test = StoreTest<Counter>(state: .init(count: 3), deps: deps)
    await test.send(.factTapped, decisions: [.loadFact(3)]) { $0.isLoadingFact = true }
    await test.receive(.factFailed("offline"), decisions: [.log("No fact about 3: offline")]) {
      $0.isLoadingFact = false
    }
    #expect(logged.all == ["No fact about 3: offline"])
  }

  @Test func readingsArriveStampedWithTheTestsClock() async {
    let noon = Date(timeIntervalSince1970: 43_200)
    let test = StoreTest<Thermometer>(
      state: .init(),
      deps: .init(
        readings: {
          AsyncStream {
            $0.yield(20.5)
            $0.yield(21)
            $0.finish()
          }
        },
        now: { noon }))
    await test.send(.appeared, decisions: [.watch]) { $0.isWatching = true }
    await test.receive(.measured(20.5, at: noon)) {
      $0.celsius = 20.5
      $0.measuredAt = noon
    }
    await test.receive(.measured(21, at: noon)) { $0.celsius = 21 }
    await test.finish()
  }

  @Test func disappearingStopsTheReadings() async {
    let (readings, thermometer) = AsyncStream<Double>.makeStream()
    let test = StoreTest<Thermometer>(
      state: .init(),
      deps: .init(readings: { readings }, now: { Date(timeIntervalSince1970: 0) }),
      // NB: whether the cancelled loop still read 30 (and the store dropped it) is up to the stream.
      endChecks: .all.subtracting(.ignoredEvents))
    await test.send(.appeared, decisions: [.watch]) { $0.isWatching = true }
    await test.send(.disappeared, decisions: [.stopWatching]) { $0.isWatching = false }
    thermometer.yield(30)  // nobody listens any more
    await test.finish()
    await test.expectState(.init(isWatching: false))
  }

  @Test func theFactsDemoBuildsItsLiveDepsFromASource() async throws {
    // Sources/Examples/FactsDemo/main.swift builds its deps this way; here with a source that answers at once.
    let logged = Calls<String>()
    let deps = FactFeature.Deps.live(
      source: FactSource { Fact(text: "42 is the answer.") },
      track: { _ in },
      showSnackbar: unimplemented("showSnackbar"),
      log: logged.record)
    let store = Store<FactFeature>(state: .idle, deps: deps)
    await store.send(.view(.didTapButton))
    await store.settle()
    #expect(await store.state == .loaded("42 is the answer."))
    #expect(logged.all == ["42 is the answer."])
  }
}

@Suite(.timeLimit(.minutes(3))) struct ServiceDepsTests {
  struct Answers: NumberService {
    func fact(about number: Int) async throws -> String { "\(number) answers everything." }
  }

  @Test func aServiceMethodIsADep() async {
    let test = StoreTest<Counter>(
      state: .init(count: 42), deps: .live(service: Answers(), log: unimplemented("log")))
    await test.send(.factTapped, decisions: [.loadFact(42)]) { $0.isLoadingFact = true }
    await test.receive(.factLoaded("42 answers everything.")) {
      $0.isLoadingFact = false
      $0.fact = "42 answers everything."
    }
    await test.finish()
  }
}
