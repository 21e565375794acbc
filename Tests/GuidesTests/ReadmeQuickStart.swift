// The README's quick start, compiled and run; GuideCodeBlocksTests checks that the README shows
// this code, line for line.

import Decisions
import Testing

enum Greeter: Feature {
  enum State: Equatable, Sendable {
    case idle
    case loading
    case greeted(String)
  }

  enum Event: Equatable, Sendable {
    case didTap
    case loaded(String)
  }

  enum Decision: Equatable, Sendable {
    case load
    case log(String)
  }

  struct Deps: Sendable {
    var loadName: @Sendable () async throws -> String
    var log: @Sendable (String) -> Void
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .didTap where state == .loading:
      return []  // one load at a time
    case .didTap:
      state = .loading
      return [.load]
    case .loaded(let name):
      state = .greeted("Hello, \(name)!")
      return [.log(name)]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load:
      effects.run(id: "load") { send in
        await send(.loaded(try await deps.loadName()))
      } catch: { _ in
        .loaded("stranger")
      }
    case .log(let text):
      deps.log(text)
    }
  }
}

@Test func readmeQuickStart() async {
  // The core, tested synchronously:
  var state = Greeter.State.idle
  #expect(Greeter.makeDecisions(event: .didTap, state: &state) == [.load])
  #expect(state == .loading)

  // The whole feature, in a real store with closure deps:
  let store = Store<Greeter>(state: .idle, deps: .init(loadName: { "Ada" }, log: { _ in }))
  await store.send(.didTap)
  await store.settle()  // no expectations, no sleeps
  #expect(await store.state == .greeted("Hello, Ada!"))
}
