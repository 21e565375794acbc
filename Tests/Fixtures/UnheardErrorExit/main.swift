// A program whose store's work fails with no `catch:` handler and no diagnostics hook, and that
// returns right after: its debug build must still print the report (issue 34, item 9). The tests
// run it as a separate process, which the test runner's own threads cannot keep alive.
import Decisions

enum Opener: Feature {
  struct State: Sendable {
    var taps = 0
  }

  enum Event: Sendable {
    case open
    case tap
  }

  typealias Decision = Event

  struct Failure: Error {
    let message: String
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    if case .tap = event { state.taps += 1 }
    return [event]
  }

  static func execute(_ decision: Decision, deps: Void, effects: Effects<Event>) {
    guard case .open = decision else { return }
    effects.run(id: "open") { _ in throw Failure(message: "the door is stuck") }
  }
}

let store = Store<Opener>(state: .init(), deps: ())
await store.send(.open)
await store.settle()
await store.send(.tap)
