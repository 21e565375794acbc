import Decisions
import Foundation
import Testing

// NB: the code between the markers is the README's quick start, line for line; the last test checks
// that they have not drifted apart.
// README-BEGIN
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
// README-END

@Test func readmeQuickStartMatchesThisFile() throws {
  let thisFile = URL(fileURLWithPath: #filePath)
  let root = thisFile.deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  let source = try String(contentsOf: thisFile, encoding: .utf8)

  let block =
    try #require(readme.components(separatedBy: "```swift\n").dropFirst().first)
    .components(separatedBy: "```").first ?? ""
  let quickStart = try #require(
    source.components(separatedBy: "// README-BEGIN\n").dropFirst().first?
      .components(separatedBy: "// README-END").first)

  // Every code line of the README block stands, in order, in this file's quick start (the test
  // wrapper adds lines and indentation, so compare trimmed lines as a subsequence).
  let expected = quickStart.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
  var remaining = expected[...]
  for line in block.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) })
  where !line.isEmpty && line != "import Decisions" {
    guard let index = remaining.firstIndex(of: line) else {
      Issue.record("README line not found (in order) in the compiled quick start: \(line)")
      return
    }
    remaining = remaining[(index + 1)...]
  }
}
