import Testing

/// A deterministic random number generator (SplitMix64), so generated inputs are the same on every
/// run and every platform, and a counterexample can be reproduced from its seed.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Returns a whole number in `range`.
  mutating func int(in range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// Returns a multiple of 1/4 in `range`: such values add and subtract exactly in `Double`, so
  /// exact expectations hold for generated inputs too.
  mutating func quarters(in range: ClosedRange<Int>) -> Double {
    Double(int(in: range.lowerBound * 4...range.upperBound * 4)) / 4
  }

  /// Returns `true` with probability `chance`.
  mutating func chance(_ chance: Double) -> Bool {
    Double.random(in: 0..<1, using: &self) < chance
  }

  /// Returns one of `elements`.
  mutating func pick<Element>(_ elements: [Element]) -> Element {
    elements[int(in: 0...elements.count - 1)]
  }
}

/// Checks a property on `count` generated inputs.
///
/// Stops at the first input that breaks it and records one issue with the input, its index and
/// every broken rule, so a failure reads as a counterexample rather than a thousand lines.
///
/// - Parameters:
///   - count: How many inputs to generate.
///   - seed: The generator's seed; the same seed gives the same inputs.
///   - generate: Makes one input from the generator.
///   - check: Returns the rules the input breaks, as sentences; empty when it passes.
///   - sourceLocation: Where to report a counterexample.
func forAll<Input>(
  _ count: Int,
  seed: UInt64,
  generate: (inout SeededGenerator) -> Input,
  check: (Input) -> [String],
  sourceLocation: SourceLocation = #_sourceLocation
) {
  var generator = SeededGenerator(seed: seed)
  for index in 0..<count {
    let input = generate(&generator)
    let broken = check(input)
    if !broken.isEmpty {
      Issue.record(
        """
        counterexample \(index) of \(count) (seed \(seed)): \(input)
        - \(broken.joined(separator: "\n- "))
        """,
        sourceLocation: sourceLocation
      )
      return
    }
  }
}
