import DecisionsTesting
import FactFeature
import Testing

/// Every event in every state, exhaustively: the whole behaviour of the fact screen.
@Suite struct FactCoreTests {
  private let tap = FactFeature.Event.view(.didTapButton)
  private let fact = Fact(text: "7 is a prime number.")

  // MARK: - The two classic checks

  @Test func aTapFromTheInitialStateStartsLoading() {
    expectStep(FactFeature.self, from: .idle, on: tap, decisions: [.track(tap), .load]) {
      $0 = .loading(previous: nil)
    }
  }

  @Test func finishLoadingShowsTheFactAndLogsItAndNothingElse() {
    expectStep(
      FactFeature.self, from: .loading(previous: nil), on: .model(.finishLoading(fact)),
      decisions: [.log(fact.text)]
    ) {
      $0 = .loaded(fact.text)
    }
  }

  // MARK: - Taps

  @Test func aTapOnALoadedFactLoadsAnotherAndKeepsShowingTheOld() {
    expectStep(FactFeature.self, from: .loaded("old"), on: tap, decisions: [.track(tap), .load]) {
      $0 = .loading(previous: "old")
    }
  }

  @Test func aTapWhileLoadingIsTrackedButStartsNoSecondLoad() {
    expectStep(FactFeature.self, from: .loading(previous: nil), on: tap, decisions: [.track(tap)])
    expectStep(FactFeature.self, from: .loading(previous: "old"), on: tap, decisions: [.track(tap)])
  }

  // MARK: - Results

  @Test func finishLoadingReplacesThePreviousFact() {
    expectStep(
      FactFeature.self, from: .loading(previous: "old"), on: .model(.finishLoading(fact)),
      decisions: [.log(fact.text)]
    ) {
      $0 = .loaded(fact.text)
    }
  }

  @Test func aFailureFromScratchGoesBackToIdleWithASnackbar() {
    expectStep(
      FactFeature.self, from: .loading(previous: nil), on: .model(.failedLoading("offline")),
      decisions: [.log("Failed to load a fact: offline"), .showSnackbar("Went wrong")]
    ) {
      $0 = .idle
    }
  }

  @Test func aFailureKeepsThePreviousFactOnScreen() {
    expectStep(
      FactFeature.self, from: .loading(previous: "old"), on: .model(.failedLoading("offline")),
      decisions: [.log("Failed to load a fact: offline"), .showSnackbar("Went wrong")]
    ) {
      $0 = .loaded("old")
    }
  }

  @Test(arguments: [FactFeature.State.idle, .loaded("old")])
  func resultsThatArriveWhenNotLoadingChangeNothing(state: FactFeature.State) {
    expectStep(FactFeature.self, from: state, on: .model(.finishLoading(fact)))
    expectStep(FactFeature.self, from: state, on: .model(.failedLoading("late")))
  }

  // MARK: - A whole story

  @Test func failThenRetryThenSucceed() {
    var test = CoreTest<FactFeature>(state: .idle)
    test.send(tap, decisions: [.track(tap), .load]) { $0 = .loading(previous: nil) }
    test.send(tap, decisions: [.track(tap)])
    test.send(
      .model(.failedLoading("offline")),
      decisions: [.log("Failed to load a fact: offline"), .showSnackbar("Went wrong")]
    ) { $0 = .idle }
    test.send(tap, decisions: [.track(tap), .load]) { $0 = .loading(previous: nil) }
    test.send(.model(.finishLoading(fact)), decisions: [.log(fact.text)]) {
      $0 = .loaded(fact.text)
    }
  }

  @Test func theSessionMatchesItsCheckedInTrace() {
    expectTrace(
      FactFeature.self, from: .idle,
      events: [
        tap, .model(.failedLoading("server unreachable")), tap, tap,
        .model(.finishLoading(fact)), tap, .model(.failedLoading("HTTP status 500")),
      ],
      named: "tap-fail-retry-succeed")
  }

  @Test func theStateTellsTheViewWhatToShow() {
    #expect(FactFeature.State.idle.text == nil)
    #expect(FactFeature.State.loading(previous: "old").text == "old")
    #expect(FactFeature.State.loaded("new").text == "new")
    #expect(FactFeature.State.loading(previous: nil).isLoading)
    #expect(!FactFeature.State.loaded("new").isLoading)
  }
}
