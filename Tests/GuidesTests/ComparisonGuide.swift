// The Decisions version of the feature Docs/Comparison.md writes in five libraries, compiled, with
// its test. The other four versions are in the guide only: their libraries are not dependencies.

import DecisionsTesting
import Testing

/// A counter whose "fact" button loads a fact about the current number; changing the number
/// cancels a load in flight.
enum FactCounter: Feature {
  struct State: Equatable, Sendable {
    var count = 0
    var fact: String?
    var isLoadingFact = false
  }

  enum Event: Equatable, Sendable {
    case incrementTapped
    case decrementTapped
    case factTapped
    case factLoaded(String?)  // nil: the load failed
  }

  enum Decision: Equatable, Sendable {
    case loadFact(Int)
    case cancelFact
  }

  struct Deps: Sendable {
    var loadFact: @Sendable (Int) async throws -> String
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .incrementTapped, .decrementTapped:
      state.count += event == .incrementTapped ? 1 : -1
      state.fact = nil
      guard state.isLoadingFact else { return [] }
      state.isLoadingFact = false
      return [.cancelFact]
    case .factTapped:
      guard !state.isLoadingFact else { return [] }
      state.isLoadingFact = true
      state.fact = nil
      return [.loadFact(state.count)]
    case .factLoaded(let fact):
      guard state.isLoadingFact else { return [] }
      state.isLoadingFact = false
      state.fact = fact
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .loadFact(let number):
      effects.run(id: "fact") { send in
        await send(.factLoaded(try? await deps.loadFact(number)))
      }
    case .cancelFact:
      effects.cancel(id: "fact")
    }
  }
}

@Suite(.timeLimit(.minutes(3))) struct FactCounterTests {
  @Test func aFactIsAboutTheCurrentCount() {
    var test = CoreTest<FactCounter>(state: .init(count: 1))
    test.send(.factTapped, decisions: [.loadFact(1)]) {
      $0.isLoadingFact = true
    }
    test.send(.factLoaded("1 is odd.")) {
      $0.isLoadingFact = false
      $0.fact = "1 is odd."
    }
  }

  @Test func theLoadIsWiredToTheDeps() async {
    let execution = await perform(
      FactCounter.Decision.loadFact(1), of: FactCounter.self,
      deps: .init(loadFact: { "\($0) is odd." }))
    #expect(execution.events == [.factLoaded("1 is odd.")])
  }

  @Test func changingTheNumberCancelsTheLoad() {
    expectStep(
      FactCounter.self, from: .init(count: 1, isLoadingFact: true), on: .incrementTapped,
      decisions: [.cancelFact]
    ) {
      $0.count = 2
      $0.isLoadingFact = false
    }
  }
}
