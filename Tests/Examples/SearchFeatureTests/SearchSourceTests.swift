import DecisionsTesting
import Foundation
import SearchFeature
import Testing

@Suite struct SearchSourceTests {
  @Test func theBundledFactsAreACopyOfTheFactScreens() throws {
    let examples = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Sources/Examples")
    let ours = try Data(
      contentsOf: examples.appendingPathComponent("SearchFeature/Resources/facts.json"))
    let theirs = try Data(
      contentsOf: examples.appendingPathComponent("FactFeature/Resources/facts.json"))
    #expect(ours == theirs, "copy FactFeature's facts.json to SearchFeature's Resources")
  }

  @Test func thereAreAtLeastAHundredDistinctBundledFacts() throws {
    let facts = try SearchSource.bundledFacts()
    #expect(facts.count >= 100)
    #expect(Set(facts).count == facts.count)
    #expect(facts.first == "2 is a prime number.")
  }

  @Test func matchesContainTheTextIgnoringCaseInTheirOrder() {
    let facts = ["7 is a Prime number.", "8 is the cube of 2.", "11 is a prime number."]
    #expect(SearchSource.matches(for: "PRIME", in: facts) == [facts[0], facts[2]])
    #expect(SearchSource.matches(for: "cube of 2", in: facts) == [facts[1]])
    #expect(SearchSource.matches(for: "square", in: facts) == [])
  }

  @Test func aListOfFactsOrOneFactDecodes() throws {
    #expect(
      try decode(#"[{"text": "a"}, {"text": "b", "claim": {"prime": {"n": 2}}}]"#) == ["a", "b"])
    #expect(try decode(#"{"text": "one"}"#) == ["one"])
    #expect(try decode("[]") == [])
  }

  @Test func aMalformedBodySaysWhatItExpected() {
    #expect {
      try decode("<html>not json</html>")
    } throws: { error in
      "\(error)".hasPrefix(
        #"malformed response: expected a list of facts, [{"text": …}, …], got "<html>"#)
    }
    #expect(throws: SearchSourceError.self) { try decode(#"[{"title": "no text"}]"#) }
  }

  @Test func theBundledSourceFailsOnlyWhenAskedTo() async throws {
    let facts = ["2 is a prime number.", "4 is the square of 2."]
    let reliable = SearchSource.bundled(facts: facts, delay: .zero, failureRate: 0, seed: 1)
    for _ in 0..<20 { #expect(try await reliable.search("prime") == [facts[0]]) }
    let broken = SearchSource.bundled(facts: facts, delay: .zero, failureRate: 1, seed: 1)
    await #expect(throws: SearchSourceError.simulatedFailure) { try await broken.search("prime") }
  }

  @Test func aSeedMakesTheFailuresRepeatable() async {
    func outcomes() async -> [Bool] {
      let source = SearchSource.bundled(facts: ["a"], delay: .zero, failureRate: 0.5, seed: 42)
      var outcomes: [Bool] = []
      for _ in 0..<40 { outcomes.append((try? await source.search("a")) != nil) }
      return outcomes
    }
    let first = await outcomes()
    #expect(await outcomes() == first)
    #expect(Set(first) == [true, false])
  }

  @Test func theBundledDelayIsSleptOnTheGivenClock() async throws {
    let clock = ImmediateClock()
    let source = SearchSource.bundled(facts: ["a"], delay: .milliseconds(250), clock: clock)
    #expect(try await source.search("a") == ["a"])
    #expect(clock.now == .init(offset: .milliseconds(250)))
  }

  @Test func errorsReadWellOnTheScreen() {
    #expect(SearchSourceError.httpStatus(404).description == "HTTP status 404")
    #expect(SearchSourceError.timedOut(seconds: 2).description == "no answer within 2 s")
    #expect(SearchSourceError.unreachable("refused").description == "server unreachable: refused")
    #expect(
      SearchSourceError.tooLarge(limit: 1000).description == "response larger than 1000 bytes")
    #expect(SearchSourceError.simulatedFailure.description == "simulated failure (--failure-rate)")
  }

  private func decode(_ json: String) throws -> [String] {
    try SearchSource.decodeFacts(from: Data(json.utf8))
  }
}
