/// A small, seedable random number generator (SplitMix64), so demo runs can be repeated.
package struct SeededRandom: RandomNumberGenerator {
  private var state: UInt64

  /// Seeds the generator; a nil seed takes one from the system.
  package init(seed: UInt64?) {
    var system = SystemRandomNumberGenerator()
    state = seed ?? system.next()
  }

  /// Returns the next 64 random bits.
  package mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Returns a number in `0..<1`.
  package mutating func nextUnit() -> Double {
    Double(next() >> 11) / Double(1 << 53)
  }

  /// Returns a number in `0..<bound`.
  package mutating func next(below bound: Int) -> Int {
    Int(next(upperBound: UInt64(bound)))
  }
}
