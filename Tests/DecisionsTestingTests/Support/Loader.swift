import Decisions

/// A small loader in the shape of the fact feature: tap → loading → loaded, or a snackbar on failure.
enum Loader: Feature {
  enum State: Equatable, Sendable, Codable {
    case idle
    case loading(previous: String?)
    case loaded(String)
  }

  enum Event: Equatable, Sendable, Codable {
    case tap
    case finished(String)
    case failed(String)
  }

  enum Decision: Equatable, Sendable {
    case track(String)
    case load
    case log(String)
    case snackbar(String)
  }

  struct Deps: Sendable {
    var load: @Sendable () async throws -> String
    var track: @Sendable (String) -> Void
    var log: @Sendable (String) -> Void
    var snackbar: @Sendable (String) -> Void
  }

  struct Offline: Error, Equatable {}

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch (event, state) {
    case (.tap, .loading):
      return [.track("tap")]
    case (.tap, .idle):
      state = .loading(previous: nil)
      return [.track("tap"), .load]
    case (.tap, .loaded(let text)):
      state = .loading(previous: text)
      return [.track("tap"), .load]
    case (.finished(let text), _):
      state = .loaded(text)
      return [.log(text)]
    case (.failed(let reason), .loading(let previous)):
      state = previous.map(State.loaded) ?? .idle
      return [.log("failed: \(reason)"), .snackbar("Went wrong")]
    case (.failed, _):
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .track(let name):
      deps.track(name)
    case .load:
      effects.run(id: "load") { send in
        await send(.finished(try await deps.load()))
      } catch: { error in
        .failed("\(error)")
      }
    case .log(let text):
      deps.log(text)
    case .snackbar(let text):
      deps.snackbar(text)
    }
  }
}
