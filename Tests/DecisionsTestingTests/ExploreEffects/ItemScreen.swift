// A screen that loads its item's text, presented by a list, with the bug of issue 38 (a) planted:
// the list loads the text as work of its own and forwards the answer to whichever screen is
// presented when it arrives, so the late answer of a closed screen reaches the next one. `fixed`
// has the screen load its own text, in its own work scope, which ends when the screen closes.

import Decisions
import DecisionsTesting

/// The screen: the item it shows, and the item whose text reached it.
enum ItemScreen: Feature {
  struct State: Hashable, Sendable {
    var item: Int
    /// The item the text on show was loaded for, once one arrived.
    var textItem: Int?
  }

  enum Event: Equatable, Sendable {
    case loaded(item: Int, text: String)
  }

  enum Decision: Equatable, Sendable {
    case load(Int)
  }

  struct Deps: Sendable {
    var load: @Sendable (Int) async throws -> String
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .loaded(let item, _):
      state.textItem = item
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load(let item):
      effects.run(id: "load") { send in
        await send(.loaded(item: item, text: try await deps.load(item)))
      }
    }
  }
}

/// The list that presents the screen.
enum ItemList: Feature {
  struct State: Hashable, Sendable {
    @Presented var screen: ItemScreen.State?
    /// Whether the screen loads its own text (the fix), or the list does (the bug).
    var fixed = false
    /// How many screens the user opened.
    var opened = 0
  }

  enum Event: Equatable, Sendable {
    case open(Int)
    case close
    case screen(ItemScreen.Event)
  }

  enum Decision: Equatable, Sendable {
    case screen(ItemScreen.Decision)
    /// The list loads the screen's text as work of its own (the bug).
    case loadForScreen(Int)
  }

  typealias Deps = ItemScreen.Deps

  static let screen = embed(
    ItemScreen.self, presented: \.$screen, event: Event.screen, decision: Decision.screen)
  static let childWork = [screen.work]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .open(let item):
      state.screen = ItemScreen.State(item: item)
      state.opened += 1
      return [state.fixed ? .screen(.load(item)) : .loadForScreen(item)]
    case .close:
      state.screen = nil
      return []
    case .screen(let event):
      return screen.makeDecisions(event: event, in: &state)
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .screen(let decision):
      screen.execute(decision, deps: deps, effects: effects)
    case .loadForScreen(let item):
      effects.run { send in
        await send(.screen(.loaded(item: item, text: try await deps.load(item))))
      }
    }
  }

  static func deps(_ effects: ExploredEffects) -> Deps {
    Deps(load: effects.dependency("load", answers: [.value("text")]))
  }

  /// The user opens item 1 or 2 when no screen is open, twice at most, and closes the one open.
  static func browsing(_ state: State) -> [Event] {
    guard state.screen == nil else { return [.close] }
    return state.opened < 2 ? [.open(1), .open(2)] : []
  }

  /// The rule: a screen shows only its own item's text.
  static func screenShowsItsOwnText(_ snapshot: FeatureExploration<ItemList>.Snapshot) -> Bool {
    guard let screen = snapshot.state.screen, let textItem = screen.textItem else { return true }
    return textItem == screen.item
  }
}
