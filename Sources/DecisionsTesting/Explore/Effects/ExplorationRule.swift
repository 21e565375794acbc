import Decisions

/// A named rule over an explored feature's moments: its core's state and its work in flight.
///
/// Rules are what `expectInvariant(_:)` and `expectEventually(_:after:within:)` check across an
/// exploration, and what a ``StoreTest`` checks with `expect(_:effects:)`. Declared as a static
/// computed property of `ExplorationRule`, a rule has a name that Swift code can call it by, so
/// the store test an exploration prints for a broken rule ends with the rule's own check, and
/// fails as printed:
///
/// ```swift
/// extension ExplorationRule<Search> {
///   /// Once no search is in flight, the results shown are for the query shown.
///   static var idleResultsMatchTheQuery: Self {
///     Self("idle results are for the query") { moment in
///       !moment.work.isEmpty || moment.state.resultsQuery == moment.state.query
///     }
///   }
/// }
///
/// exploration.expectInvariant(.idleResultsMatchTheQuery)
/// // The printed StoreTest ends with:
/// // await test.expect(.idleResultsMatchTheQuery, effects: effects)
/// ```
///
/// A rule made anywhere else (a local constant, a `static let`) works the same in the checks,
/// but has no name the printed test can call: the test ends with a comment where the rule breaks.
public struct ExplorationRule<F: Feature> where F.State: Hashable {
  /// What the rule says, for messages: "idle results are for the query".
  public let name: String
  /// The static property that makes the rule, for printed tests; nil when it has none.
  let property: String?
  /// Whether a moment keeps the rule.
  let check: (FeatureExploration<F>.Snapshot) -> Bool

  /// Creates a rule.
  ///
  /// - Parameters:
  ///   - name: What the rule says, for messages.
  ///   - property: The name of the static property of `ExplorationRule` that makes the rule,
  ///     which printed store tests call it by. Leave it to its default: inside such a property it
  ///     is the property's name.
  ///   - holds: Whether an explored moment keeps the rule.
  public init(
    _ name: String,
    property: String = #function,
    _ holds: @escaping (FeatureExploration<F>.Snapshot) -> Bool
  ) {
    self.name = name
    // NB: `#function` is the property's name only inside a computed property's getter; in a
    // function it ends with its parameters ("test()"), and in a `static let` it is the type's
    // name, which begins with a capital.
    self.property = Self.isPropertyName(property) ? property : nil
    self.check = holds
  }

  /// Creates a rule that printed store tests cannot call by name: for the checks that take a
  /// closure.
  init(unnamed name: String, _ holds: @escaping (FeatureExploration<F>.Snapshot) -> Bool) {
    self.name = name
    self.property = nil
    self.check = holds
  }

  /// Whether `moment` keeps the rule: for a rule made of others.
  /// - Parameter moment: A feature's state and work in flight.
  /// - Returns: What the rule's closure returns for it.
  public func holds(in moment: FeatureExploration<F>.Snapshot) -> Bool {
    check(moment)
  }

  /// Whether `text` is a Swift identifier that begins with a lowercase letter or `_`.
  static func isPropertyName(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first,
      first == "_" || (first.properties.isLowercase)
    else { return false }
    return text.unicodeScalars.allSatisfy {
      $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
    }
  }

  /// The line a printed store test ends with to check the rule where it breaks.
  var printedCheck: String {
    guard let property else {
      return "// The rule \"\(name)\" breaks here. Declared as a static property of "
        + "ExplorationRule, it would be checked on this line."
    }
    return "await test.expect(.\(property), effects: effects)"
  }
}
