// A feature with its work, written in a module with default main-actor isolation and explored with
// its effects: the one word it needs is `nonisolated` on its state, whose `Hashable` the explorer
// asks (.ci/default-isolation.sh checks that it is needed).
import Decisions
import DecisionsTesting
import Testing

enum Autosave: Feature {
  nonisolated struct State: Hashable, Sendable {
    var text = ""
    var saved: String?
  }

  enum Event: Equatable, Sendable {
    case edit(String)
    case saved(String)
  }

  enum Decision: Equatable, Sendable {
    case save(String)
  }

  struct Deps: Sendable {
    var save: @Sendable (String) async throws -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .edit(let text):
      state.text = text
      return [.save(text)]
    case .saved(let text):
      state.saved = text
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .save(let text):
      // The bug: each save is work of its own, so an older save can finish last.
      effects.run { send in
        try await deps.save(text)
        await send(.saved(text))
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(save: effects.dependency("save", answers: [.value(())]))
  }

  /// The user types "a", then "ab".
  static func typing(_ state: State) -> [Event] {
    switch state.text {
    case "": [.edit("a")]
    case "a": [.edit("ab")]
    default: []
    }
  }
}

extension ExplorationRule<Autosave> {
  /// Once no save is in flight, the saved text is the text on show.
  static var idleSavedTextIsTheText: Self {
    Self("once idle, the saved text is the text") { state, work in
      !work.isEmpty || state.saved == nil || state.saved == state.text
    }
  }
}

@Suite struct AutosaveTests {
  @Test func theExplorerFindsAnOlderSaveFinishingLast() {
    let exploration = explore(
      Autosave.self, from: .init(), deps: Autosave.deps, events: Autosave.typing)
    exploration.expectComplete()
    withKnownIssue {
      exploration.expectInvariant(.idleSavedTextIsTheText)
    } matching: { issue in
      let text = String(describing: issue)
      return text.contains("let test = StoreTest<Autosave>(")
        && text.hasSuffix("await test.expect(.idleSavedTextIsTheText, effects: effects)")
    }
  }
}
