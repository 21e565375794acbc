// A save that retries after a second on every failure, without a cap: under fairness over
// answers ("the server comes back"), it is saved in the end; under fairness over calls alone, it
// can fail for ever.

import Decisions
import DecisionsTesting

enum Retrier: Feature {
  struct State: Hashable, Sendable {
    var isSaved = false
    var attempts = 0
    /// Whether a success is dropped and the save tried again: a loop no fairness ends.
    var ignoresSuccess = false
  }

  enum Event: Equatable, Sendable {
    case save
    case saved
    case failed
  }

  enum Decision: Equatable, Sendable {
    case save(after: Duration)
  }

  struct Deps: Sendable {
    var save: @Sendable () async throws -> Void
    var clock: any Clock<Duration>
  }

  struct Offline: Error {}

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .save:
      guard state.attempts == 0 else { return [] }
      state.attempts = 1
      return [.save(after: .zero)]
    case .saved:
      guard !state.ignoresSuccess else { return [.save(after: .seconds(1))] }
      state.isSaved = true
      return []
    case .failed:
      return [.save(after: .seconds(1))]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .save(let delay):
      effects.run(id: "save") { send in
        if delay > .zero { try await deps.clock.sleep(for: delay) }
        try await deps.save()
        await send(.saved)
      } catch: { _ in
        .failed
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(
      save: effects.dependency("save", answers: [.value(()), .failure(Offline())]),
      clock: effects.clock)
  }

  static func saving(_ state: State) -> [Event] {
    state.attempts == 0 ? [.save] : []
  }
}
