import Decisions
import ExampleSupport
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Why a fact could not be loaded: the examples' shared ``SourceFailure``.
public typealias FactSourceError = SourceFailure

/// Where live facts come from: the bundled list, or an HTTP endpoint.
public struct FactSource: Sendable {
  /// Loads one fact.
  public var load: @Sendable () async throws -> Fact

  /// Creates a source from its loading closure.
  public init(load: @escaping @Sendable () async throws -> Fact) {
    self.load = load
  }

  // MARK: - Bundled

  /// The facts bundled with the package: more than a hundred number facts.
  /// - Throws: ``FactSourceError/noFacts(_:)`` when the resource is missing or unreadable.
  /// - Returns: The bundled facts, in file order.
  public static func bundledFacts() throws -> [NumberFact] {
    guard let url = Bundle.module.url(forResource: "facts", withExtension: "json") else {
      throw FactSourceError.noFacts("the bundled facts.json is missing")
    }
    do {
      return try JSONDecoder().decode([NumberFact].self, from: Data(contentsOf: url))
    } catch {
      throw FactSourceError.noFacts("the bundled facts.json is unreadable: \(error)")
    }
  }

  /// Serves random bundled facts after a small, realistic delay.
  /// - Parameters:
  ///   - facts: The facts to choose from; the bundled ones by default.
  ///   - delay: How long each load takes.
  ///   - failureRate: The share of loads that fail with ``FactSourceError/simulatedFailure``, from 0
  ///     (never) to 1 (always).
  ///   - seed: Seeds the choice of facts and failures, for repeatable runs; random when nil.
  /// - Returns: A source of bundled facts.
  public static func bundled(
    facts: [NumberFact],
    delay: Duration = .milliseconds(400),
    failureRate: Double = 0,
    seed: UInt64? = nil
  ) -> FactSource {
    precondition((0...1).contains(failureRate), "failureRate must be between 0 and 1")
    let random = LockedValue(SeededRandom(seed: seed))
    return FactSource {
      if delay > .zero { try await Task.sleep(for: delay) }
      let (fails, index) = random.withLock { random in
        (random.nextUnit() < failureRate, facts.isEmpty ? 0 : random.next(below: facts.count))
      }
      if fails { throw FactSourceError.simulatedFailure }
      guard !facts.isEmpty else { throw FactSourceError.noFacts("the list is empty") }
      return facts[index].fact
    }
  }

  // MARK: - HTTP

  /// Loads facts from an HTTP endpoint that answers `GET` with JSON.
  ///
  /// The body is either one fact, `{"text": "…"}`, or a list of them, `[{"text": "…"}, …]`, from which
  /// one is chosen at random. Other fields are ignored, so the bundled `facts.json` can be served
  /// as it is.
  /// - Parameters:
  ///   - url: The endpoint.
  ///   - timeout: How long the whole load may take: connecting, the answer, and decoding it.
  ///   - maxBytes: The largest response body accepted (8 MiB by default).
  /// - Returns: A source that throws a ``FactSourceError`` for every way the request can fail.
  public static func http(
    url: URL, timeout: Duration = .seconds(5), maxBytes: Int = 8 << 20
  ) -> FactSource {
    FactSource {
      do {
        return try await httpGet(url, timeout: timeout, maxBytes: maxBytes, decode: decodeFact)
      } catch let failure as HTTPFailure {
        throw FactSourceError(failure)
      }
    }
  }

  /// Decodes one fact, or picks one from a list of facts, from a JSON body.
  package static func decodeFact(from data: Data) throws -> Fact {
    let decoder = JSONDecoder()
    if let fact = try? decoder.decode(Fact.self, from: data) { return fact }
    do {
      let facts = try decoder.decode([Fact].self, from: data)
      guard let fact = facts.randomElement() else {
        throw FactSourceError.malformedResponse("the list of facts is empty")
      }
      return fact
    } catch let error as FactSourceError {
      throw error
    } catch {
      let preview = excerpt(String(decoding: data.prefix(240), as: UTF8.self))
      throw FactSourceError.malformedResponse(
        "expected {\"text\": …} or a list of them, got \(preview.debugDescription)")
    }
  }
}

extension FactFeature.Deps {
  /// The live deps: facts from `source`, and the other capabilities as given.
  /// - Parameters:
  ///   - source: Where facts come from.
  ///   - track: Records analytics events.
  ///   - showSnackbar: Shows a snackbar.
  ///   - log: Writes a log line.
  /// - Returns: Deps for a store.
  public static func live(
    source: FactSource,
    track: @escaping @Sendable (FactFeature.Event) -> Void,
    showSnackbar: @escaping @Sendable (String) -> Void,
    log: @escaping @Sendable (String) -> Void
  ) -> Self {
    Self(track: track, showSnackbar: showSnackbar, log: log, loadFact: source.load)
  }
}
