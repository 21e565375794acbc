import FactFeature
import Foundation
import Testing

/// Every bundled fact is true: its claim is recomputed here, and its text says exactly that claim.
@Suite struct BundledFactsTests {
  @Test func thereAreAtLeastAHundredDistinctFacts() throws {
    let facts = try FactSource.bundledFacts()
    #expect(facts.count >= 100)
    #expect(Set(facts.map(\.text)).count == facts.count)
  }

  @Test func everyClaimIsTrue() throws {
    for fact in try FactSource.bundledFacts() {
      #expect(isTrue(fact.claim), "false: \(fact.text)")
    }
  }

  @Test func everyTextSaysItsClaim() throws {
    for fact in try FactSource.bundledFacts() {
      #expect(fact.text == sentence(for: fact.claim))
    }
  }

  @Test func theCheckerRejectsFalseClaims() {
    #expect(!isTrue(.prime(n: 91)))
    #expect(!isTrue(.perfect(n: 12)))
    #expect(!isTrue(.fibonacci(n: 100)))
    #expect(!isTrue(.taxicab(n: 1728)))
    #expect(!isTrue(.divisorCount(n: 12, count: 5)))
    #expect(!isTrue(.triangular(n: 11)))
    #expect(!isTrue(.palindrome(n: 123)))
  }

  // MARK: - The checker

  private func isTrue(_ claim: NumberFact.Claim) -> Bool {
    switch claim {
    case .prime(let n):
      return n > 1 && (2..<n).allSatisfy { d in d * d > n || n % d != 0 }
    case .perfect(let n):
      return n > 1 && (1..<n).filter { n % $0 == 0 }.reduce(0, +) == n
    case .square(let n, let root):
      return root * root == n
    case .cube(let n, let root):
      return root * root * root == n
    case .fibonacci(let n):
      var (a, b) = (0, 1)
      while b < n { (a, b) = (b, a + b) }
      return b == n
    case .powerOfTwo(let exponent, let n):
      return 1 << exponent == n
    case .factorial(let k, let n):
      return (1...k).reduce(1, *) == n
    case .triangular(let n):
      var (k, sum) = (0, 0)
      while sum < n { (k, sum) = (k + 1, sum + k + 1) }
      return sum == n
    case .taxicab(let n):
      var ways = 0
      var a = 1
      while a * a * a * 2 <= n {
        let rest = n - a * a * a
        let b = cubeRoot(rest)
        if b >= a, b * b * b == rest { ways += 1 }
        a += 1
      }
      return ways == 2
    case .digitSum(let n, let sum):
      return String(n).compactMap(\.wholeNumberValue).reduce(0, +) == sum
    case .gcd(let a, let b, let gcd):
      var (x, y) = (a, b)
      while y != 0 { (x, y) = (y, x % y) }
      return x == gcd
    case .palindrome(let n):
      return String(n) == String(String(n).reversed())
    case .divisorCount(let n, let count):
      return (1...n).filter { n % $0 == 0 }.count == count
    }
  }

  private func cubeRoot(_ n: Int) -> Int {
    var root = Int(Double(n).squareRoot())
    while root * root * root > n { root -= 1 }
    return root
  }

  private func sentence(for claim: NumberFact.Claim) -> String {
    switch claim {
    case .prime(let n): "\(n) is a prime number."
    case .perfect(let n): "\(n) is a perfect number: it is the sum of its proper divisors."
    case .square(let n, let root): "\(n) is the square of \(root)."
    case .cube(let n, let root): "\(n) is the cube of \(root)."
    case .fibonacci(let n): "\(n) is a Fibonacci number."
    case .powerOfTwo(let exponent, let n): "2 to the power of \(exponent) is \(n)."
    case .factorial(let k, let n): "\(k) factorial is \(n)."
    case .triangular(let n): "\(n) is a triangular number."
    case .taxicab(let n): "\(n) is the sum of two positive cubes in two different ways."
    case .digitSum(let n, let sum): "The digits of \(n) add up to \(sum)."
    case .gcd(let a, let b, let gcd): "The greatest common divisor of \(a) and \(b) is \(gcd)."
    case .palindrome(let n): "\(n) reads the same forwards and backwards."
    case .divisorCount(let n, let count): "\(n) has \(count) divisors."
    }
  }
}

@Suite struct FactSourceTests {
  @Test func oneFactOrAListOfFactsDecodes() throws {
    #expect(try load(#"{"text": "one"}"#) == Fact(text: "one"))
    #expect(try load(#"[{"text": "only"}]"#) == Fact(text: "only"))
    #expect(try load(#"[{"text": "a", "claim": {"prime": {"n": 2}}}]"#) == Fact(text: "a"))
  }

  @Test func malformedBodiesSaySo() {
    #expect(throws: FactSourceError.malformedResponse("the list of facts is empty")) {
      try load("[]")
    }
    #expect {
      try load("<html>not json</html>")
    } throws: { error in
      "\(error)".hasPrefix("malformed response: expected {\"text\": …} or a list of them, got")
    }
  }

  @Test func theBundledSourceFailsOnlyWhenAskedTo() async throws {
    let facts = try FactSource.bundledFacts()
    let reliable = FactSource.bundled(facts: facts, delay: .zero, failureRate: 0, seed: 1)
    for _ in 0..<20 { _ = try await reliable.load() }
    let broken = FactSource.bundled(facts: facts, delay: .zero, failureRate: 1, seed: 1)
    await #expect(throws: FactSourceError.simulatedFailure) { try await broken.load() }
  }

  @Test func aSeedMakesRunsRepeatable() async throws {
    let facts = try FactSource.bundledFacts()
    func run() async throws -> [Fact] {
      let source = FactSource.bundled(facts: facts, delay: .zero, failureRate: 0, seed: 42)
      var loaded: [Fact] = []
      for _ in 0..<10 { loaded.append(try await source.load()) }
      return loaded
    }
    let first = try await run()
    #expect(try await run() == first)
    #expect(Set(first).count > 1)
  }

  @Test func errorsReadWellInTheLog() {
    #expect(FactSourceError.httpStatus(404).description == "HTTP status 404")
    #expect(FactSourceError.timedOut(seconds: 2).description == "no answer within 2 s")
    #expect(FactSourceError.unreachable("refused").description == "server unreachable: refused")
  }

  private func load(_ json: String) throws -> Fact {
    try FactSource.decodeFact(from: Data(json.utf8))
  }
}
