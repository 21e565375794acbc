import Decisions
import ExampleSupport
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why a search failed: the examples' shared ``SourceFailure``.
public typealias SearchSourceError = SourceFailure

/// Where searches look: the bundled number facts, or a list of facts fetched over HTTP.
public struct SearchSource: Sendable {
  /// Returns the texts of the facts that match a search text, in the source's order.
  public var search: @Sendable (String) async throws -> [String]

  /// Creates a source from its search closure.
  public init(search: @escaping @Sendable (String) async throws -> [String]) {
    self.search = search
  }

  // MARK: - Matching

  /// The facts whose text contains `text`, ignoring case, in their order.
  /// - Parameters:
  ///   - text: What to look for.
  ///   - facts: The texts to look in.
  /// - Returns: The matching texts.
  public static func matches(for text: String, in facts: [String]) -> [String] {
    let needle = text.lowercased()
    return facts.filter { $0.lowercased().contains(needle) }
  }

  // MARK: - Bundled

  // NB: a copy of FactFeature's facts.json, not a dependency on FactFeature: this way the search
  // example is one folder (plus ExampleSupport) that can be copied into an app on its own, without
  // the fact screen's code. SearchSourceTests checks that the two files stay the same.
  /// The texts of the facts bundled with the package: more than a hundred number facts.
  /// - Throws: ``SearchSourceError/noFacts(_:)`` when the resource is missing or unreadable.
  /// - Returns: The texts, in file order.
  public static func bundledFacts() throws -> [String] {
    guard let url = Bundle.module.url(forResource: "facts", withExtension: "json") else {
      throw SearchSourceError.noFacts("the bundled facts.json is missing")
    }
    do {
      return try JSONDecoder().decode([FactText].self, from: Data(contentsOf: url)).map(\.text)
    } catch {
      throw SearchSourceError.noFacts("the bundled facts.json is unreadable: \(error)")
    }
  }

  /// Searches `facts` after a delay, failing some searches on purpose.
  /// - Parameters:
  ///   - facts: The texts to search.
  ///   - delay: How long each search takes.
  ///   - failureRate: The share of searches that fail with ``SearchSourceError/simulatedFailure``,
  ///     from 0 (never) to 1 (always).
  ///   - seed: Seeds the choice of failures, for repeatable runs; random when nil.
  ///   - clock: The clock the delay is measured on.
  /// - Returns: A source that searches the given facts.
  public static func bundled(
    facts: [String],
    delay: Duration = .milliseconds(250),
    failureRate: Double = 0,
    seed: UInt64? = nil,
    clock: any Clock<Duration> = ContinuousClock()
  ) -> SearchSource {
    precondition((0...1).contains(failureRate), "failureRate must be between 0 and 1")
    let random = LockedValue(SeededRandom(seed: seed))
    return SearchSource { text in
      if delay > .zero { try await clock.sleep(for: delay) }
      let fails = random.withLock { $0.nextUnit() < failureRate }
      if fails { throw SearchSourceError.simulatedFailure }
      return matches(for: text, in: facts)
    }
  }

  // MARK: - HTTP

  /// Searches a list of facts fetched from an HTTP endpoint that answers `GET` with JSON.
  ///
  /// Every search fetches the list again and keeps the facts that match. The body is a list of
  /// facts, `[{"text": "…"}, …]`, as in the bundled `facts.json` (other fields are ignored, so it
  /// can be served as it is), or one fact, `{"text": "…"}`, taken as a list of one.
  /// - Parameters:
  ///   - url: The endpoint.
  ///   - timeout: How long a whole search may take: connecting, the answer, and decoding it.
  ///   - maxBytes: The largest response body accepted (8 MiB by default).
  /// - Returns: A source that throws a ``SearchSourceError`` for every way the request can fail.
  public static func http(
    url: URL, timeout: Duration = .seconds(5), maxBytes: Int = 8 << 20
  ) -> SearchSource {
    SearchSource { text in
      do {
        return try await httpGet(url, timeout: timeout, maxBytes: maxBytes) { data in
          matches(for: text, in: try decodeFacts(from: data))
        }
      } catch let failure as HTTPFailure {
        throw SearchSourceError(failure)
      }
    }
  }

  /// Decodes the texts of a list of facts, or of one fact, from a JSON body.
  package static func decodeFacts(from data: Data) throws -> [String] {
    let decoder = JSONDecoder()
    if let facts = try? decoder.decode([FactText].self, from: data) { return facts.map(\.text) }
    if let fact = try? decoder.decode(FactText.self, from: data) { return [fact.text] }
    let preview = excerpt(String(decoding: data.prefix(240), as: UTF8.self))
    throw SearchSourceError.malformedResponse(
      "expected a list of facts, [{\"text\": …}, …], got \(preview.debugDescription)")
  }

  /// A fact as the JSON has it: only its text matters here.
  private struct FactText: Decodable {
    var text: String
  }
}

extension SearchFeature.Deps {
  /// The live deps: searches from `source`, on the continuous clock.
  /// - Parameter source: Where searches look.
  /// - Returns: Deps for a store.
  public static func live(source: SearchSource) -> Self {
    Self(clock: ContinuousClock(), search: source.search)
  }
}
