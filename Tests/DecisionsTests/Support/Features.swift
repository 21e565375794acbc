// NB: Tests/DecisionsStressTests/CounterFeature.swift is a symlink to this file: the stress target
// (which CI also builds under AddressSanitizer, alone) runs StoreOrderingTests on the same counter.
import Decisions

/// A counter whose decisions exercise quick work, long work, keys and errors.
enum Counter: Feature {
  struct State: Equatable, Sendable {
    var count = 0
    var messages: [String] = []
  }

  enum Event: Equatable, Sendable {
    case increment
    case add(Int)
    case log(String)
    case logAll([String])
    case startWork(id: String, value: Int)
    case startUnkeyed(value: Int)
    case cancelWork(id: String)
    case cancelAll
    case fail(handled: Bool)
    case failed(String)
    case chain(remaining: Int)
    case echo(String)
  }

  enum Decision: Equatable, Sendable {
    case log(String)
    case work(id: String, value: Int)
    case unkeyedWork(value: Int)
    case cancel(id: String)
    case cancelAll
    case fail(handled: Bool)
    case chain(remaining: Int)
    case echo(String)
  }

  struct Deps: Sendable {
    var log: @Sendable (String) -> Void = { _ in }
    var work: @Sendable (_ id: String, _ value: Int) async throws -> Int = { _, value in value }
    /// The error that `.fail` work throws.
    var failure: @Sendable () -> any Error = { Failure(message: "boom") }
  }

  struct Failure: Error, Equatable {
    var message: String
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .increment:
      state.count += 1
      return []
    case .add(let value):
      state.count += value
      return []
    case .log(let text):
      return [.log(text)]
    case .logAll(let texts):
      return texts.map(Decision.log)
    case .startWork(let id, let value):
      return [.work(id: id, value: value)]
    case .startUnkeyed(let value):
      return [.unkeyedWork(value: value)]
    case .cancelWork(let id):
      return [.cancel(id: id)]
    case .cancelAll:
      return [.cancelAll]
    case .fail(let handled):
      return [.fail(handled: handled)]
    case .failed(let message):
      state.messages.append(message)
      return []
    case .chain(let remaining):
      state.count += 1
      return remaining > 0 ? [.chain(remaining: remaining - 1)] : []
    case .echo(let text):
      state.messages.append(text)
      return [.echo(text)]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .log(let text):
      deps.log(text)
    case .work(let id, let value):
      effects.run(id: id) { send in
        await send(.add(try await deps.work(id, value)))
      }
    case .unkeyedWork(let value):
      effects.run { send in
        await send(.add(try await deps.work("unkeyed", value)))
      }
    case .cancel(let id):
      effects.cancel(id: id)
    case .cancelAll:
      effects.cancelAll()
    case .fail(let handled):
      let operation: @Sendable (Send<Event>) async throws -> Void = { _ in
        throw deps.failure()
      }
      if handled {
        effects.run(operation: operation) { error in .failed("\(error)") }
      } else {
        effects.run(id: "unhandled", operation: operation)
      }
    case .chain(let remaining):
      effects.run { send in await send(.chain(remaining: remaining)) }
    case .echo(let text):
      effects.send(.log("echo \(text)"))
      deps.log(text)
    }
  }
}
