import Decisions
import DecisionsTesting
import Foundation
import Synchronization
import Testing

/// A search whose work is keyed by what the user typed: the kind of id a redaction must hide.
enum SecretSearch: Feature {
  struct State: Equatable, Sendable, Codable {
    /// The query, hidden by the redaction.
    var query = ""
  }

  enum Event: Equatable, Sendable, Codable {
    /// The user typed a query, which starts a search keyed by it.
    case typed(String)
  }

  /// A work id that holds the query in an enum case.
  enum Work: Hashable, Sendable {
    /// A search for the query.
    case query(String)
    /// A refresh, with nothing in it.
    case refresh
  }

  /// A work id that describes itself, and in doing so shows the query.
  struct Described: Hashable, Sendable, CustomStringConvertible {
    /// The query.
    var query: String
    var description: String { "search for \(query)" }
  }

  enum Key: Equatable, Sendable {
    /// Key the search by a string made from the query.
    case string
    /// Key it by an enum case holding the query.
    case enumCase
    /// Key it by an enum case holding nothing.
    case plainCase
    /// Key it by a type that describes itself with the query.
    case described
  }

  enum Decision: Equatable, Sendable {
    /// Search for the query, keyed as given.
    case search(String, Key)
  }

  struct Deps: Sendable {
    /// How the search is keyed.
    var key: Key
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String { "the server refused" }
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .typed(let query):
      state.query = query
      return [.search(query, .string)]
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .search(let query, _):
      let fail: @Sendable (Send<Event>) async throws -> Void = { _ in throw Failure() }
      switch deps.key {
      case .string: effects.run(id: "search \(query)", operation: fail)
      case .enumCase: effects.run(id: Work.query(query), operation: fail)
      case .plainCase: effects.run(id: Work.refresh, operation: fail)
      case .described: effects.run(id: Described(query: query), operation: fail)
      }
    }
  }
}

/// What a redaction hides appears nowhere in a recording, its JSON or its inspector page: work ids
/// included.
// NB: three minutes, as the other suites: under ThreadSanitizer in a full parallel run, where
// synchronous tests hold both cooperative threads for a while, these small tests took over the
// one minute they had (95 s in a CI run), though each takes milliseconds alone.
@Suite(.timeLimit(.minutes(3))) struct RedactedWorkIDTests {
  private static let secret = "hunter2"

  private static let redaction = FlightRecorder<SecretSearch>.Redaction(
    event: { _ in .typed("•••") }, state: { _ in .init(query: "•••") })

  /// The recording a store saves when its search, keyed as given, fails with no `catch:`.
  private func failedRecording(
    key: SecretSearch.Key, redaction: FlightRecorder<SecretSearch>.Redaction = Self.redaction
  ) async throws -> FlightRecording<SecretSearch> {
    let saved = Mutex<[FlightRecording<SecretSearch>]>([])
    let store = Store<SecretSearch>(
      state: .init(), deps: .init(key: key), diagnostics: { _ in },
      recorder: FlightRecorder(
        capacity: 10, redaction: redaction,
        save: { recording in saved.withLock { $0.append(recording) } }))
    await store.send(.typed(Self.secret))
    await store.settle()
    return try #require(saved.withLock { $0.first })
  }

  @Test(arguments: [
    (SecretSearch.Key.string, "Swift.String(…)"),
    (.enumCase, "\(String(reflecting: SecretSearch.Work.self)).query(…)"),
    (.plainCase, "\(String(reflecting: SecretSearch.Work.self)).refresh"),
    (.described, "\(String(reflecting: SecretSearch.Described.self))(…)"),
  ])
  func aRedactionHidesWorkIdsDownToTheirTypeAndCase(key: SecretSearch.Key, recorded: String)
    async throws
  {
    let recording = try await failedRecording(key: key)
    #expect(recording.trigger == .workFailed(work: recorded, error: "the server refused"))
    #expect(!"\(recording.trigger)".contains(Self.secret))
    #expect(!(try recording.json()).contains(Self.secret))
    #expect(!(try recording.inspectorPage()).contains(Self.secret))
  }

  @Test func aRedactionsWorkIdClosureSaysWhatIsRecorded() async throws {
    let redaction = FlightRecorder<SecretSearch>.Redaction(
      event: { _ in .typed("•••") }, state: { _ in .init(query: "•••") },
      workID: { "\($0)".replacingOccurrences(of: Self.secret, with: "•••") })
    let recording = try await failedRecording(key: .string, redaction: redaction)
    #expect(recording.trigger == .workFailed(work: "search •••", error: "the server refused"))
  }

  @Test func withoutARedactionWorkIdsAreKeptWhole() async throws {
    let recording = try await failedRecording(key: .string, redaction: .none)
    #expect(recording.trigger == .workFailed(work: "search hunter2", error: "the server refused"))
    #expect(!recording.isRedacted)
  }
}
