/// A fact about a number, with the claim it makes in a form a program can check.
///
/// The bundled facts are number facts so that every one of them can be verified by computing it:
/// the tests recompute each claim and check that the text says exactly that.
public struct NumberFact: Equatable, Sendable, Codable {
  /// The fact as shown to the user.
  public var text: String
  /// What the text claims.
  public var claim: Claim

  /// A checkable claim about a number.
  public enum Claim: Equatable, Sendable, Codable {
    /// `n` is prime.
    case prime(n: Int)
    /// `n` is the sum of its proper divisors.
    case perfect(n: Int)
    /// `n` is `root` squared.
    case square(n: Int, root: Int)
    /// `n` is `root` cubed.
    case cube(n: Int, root: Int)
    /// `n` is a Fibonacci number.
    case fibonacci(n: Int)
    /// `n` is 2 to the power of `exponent`.
    case powerOfTwo(exponent: Int, n: Int)
    /// `n` is `k` factorial.
    case factorial(k: Int, n: Int)
    /// `n` is a triangular number, 1 + 2 + … + k for some k.
    case triangular(n: Int)
    /// `n` is the sum of two positive cubes in two different ways.
    case taxicab(n: Int)
    /// The decimal digits of `n` add up to `sum`.
    case digitSum(n: Int, sum: Int)
    /// The greatest common divisor of `a` and `b` is `gcd`.
    case gcd(a: Int, b: Int, gcd: Int)
    /// `n` reads the same forwards and backwards.
    case palindrome(n: Int)
    /// `n` has `count` positive divisors.
    case divisorCount(n: Int, count: Int)
  }

  /// The fact, for the screen.
  public var fact: Fact { Fact(text: text) }
}
