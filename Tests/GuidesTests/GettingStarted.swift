// The feature of Docs/GettingStarted.md, compiled so that the tutorial cannot rot: every Swift block
// of the tutorial must appear, line for line, in this file or in GettingStartedTests.swift (see
// GuideCodeBlocksTests.swift).

import Decisions

// MARK: - Step 2: the core

/// A counter that can load a fact about its number.
enum Counter: Core {
  struct State: Equatable, Sendable {
    var count = 0
    var fact: String?
    var isLoadingFact = false
  }

  enum Event: Equatable, Sendable {
    case incrementTapped
    case decrementTapped
    case factTapped
    case factLoaded(String)
    case factFailed(String)
  }

  enum Decision: Equatable, Sendable {
    case loadFact(Int)
    case cancelFact
    case log(String)
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .incrementTapped, .decrementTapped:
      state.count += event == .incrementTapped ? 1 : -1
      state.fact = nil
      guard state.isLoadingFact else { return [] }
      state.isLoadingFact = false
      return [.cancelFact]  // a fact about the old number is of no use now

    case .factTapped:
      guard !state.isLoadingFact else { return [] }  // one load at a time
      state.isLoadingFact = true
      state.fact = nil
      return [.loadFact(state.count)]

    case .factLoaded(let fact):
      guard state.isLoadingFact else { return [] }  // nothing is loading: a stale answer
      state.isLoadingFact = false
      state.fact = fact
      return []

    case .factFailed(let reason):
      guard state.isLoadingFact else { return [] }
      state.isLoadingFact = false
      return [.log("No fact about \(state.count): \(reason)")]
    }
  }
}

// MARK: - Step 4: the executor

extension Counter: Feature {
  struct Deps: Sendable {
    var loadFact: @Sendable (Int) async throws -> String
    var log: @Sendable (String) -> Void
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .loadFact(let number):
      effects.run(id: "fact") { send in
        await send(.factLoaded(try await deps.loadFact(number)))
      } catch: { error in
        .factFailed("\(error)")
      }
    case .cancelFact:
      effects.cancel(id: "fact")
    case .log(let text):
      deps.log(text)
    }
  }
}

// MARK: - Step 6: live deps

extension Counter.Deps {
  /// Facts made up on the spot: a stand-in for a network call (a real one would `try await` here).
  static var live: Self {
    Self(
      loadFact: { number in
        "\(number) is \(number.isMultiple(of: 2) ? "even" : "odd")."
      },
      log: { print("log:", $0) }
    )
  }
}
