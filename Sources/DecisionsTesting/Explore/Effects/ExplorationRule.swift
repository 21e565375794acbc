import Decisions

/// A named rule over an explored feature's moments: its core's state and its work in flight.
///
/// Rules are what `expectInvariant(_:)` and `expectEventually(_:after:within:assuming:)` check
/// across an exploration, and what a ``StoreTest`` checks with `expect(_:effects:)`. Declared as a
/// static computed property of `ExplorationRule`, a rule has a name that Swift code can call it
/// by, so the store test an exploration prints for a broken rule ends with the rule's own check,
/// and fails as printed:
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
/// Only a static *computed* property of `ExplorationRule` itself, which makes the rule with
/// `Self(…)` in its body, gives the printed test a name to call. A rule made anywhere else (a
/// `static let`, a local constant, a function that makes rules) works the same in the checks,
/// and its printed test ends with a comment where the rule breaks; a function that makes rules
/// can pass its caller's name on as `property:`.
public struct ExplorationRule<F: Feature>: Sendable {
  /// What the rule says, for messages: "idle results are for the query".
  public let name: String
  /// The static property that makes the rule, for printed tests; nil when it has none.
  let property: String?
  // NB: unchecked: the public initializer takes a `@Sendable` closure; the checks that take a
  // closure wrap it in a rule that never leaves their call.
  /// Whether a moment keeps the rule.
  nonisolated(unsafe) let check: (FeatureExploration<F>.Snapshot) -> Bool

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
    _ holds: @escaping @Sendable (FeatureExploration<F>.Snapshot) -> Bool
  ) {
    self.name = name
    // NB: `#function` is the property's name only inside a computed property's getter; in a
    // function it ends with its parameters ("test()"), and in a `static let` it is the type's
    // name, which begins with a capital.
    self.property = Self.isPropertyName(property) ? property : nil
    self.check = holds
  }

  /// Creates a rule over the state and the work in flight: for any feature, and the form a
  /// main-actor feature's rule takes.
  ///
  /// A snapshot of a feature whose conformances are isolated to the main actor (as every feature
  /// of a module with default main-actor isolation) can be used only on the main actor, which a
  /// `@Sendable` closure is not. Its state and work can: declare the property `@MainActor` and
  /// take them apart.
  ///
  /// ```swift
  /// extension ExplorationRule<Search> {
  ///   @MainActor static var idleResultsMatchTheQuery: Self {
  ///     Self("idle results are for the query") { state, work in
  ///       !work.isEmpty || state.resultsQuery == state.query
  ///     }
  ///   }
  /// }
  /// ```
  /// - Parameters:
  ///   - name: What the rule says, for messages.
  ///   - property: The name of the static property of `ExplorationRule` that makes the rule,
  ///     which printed store tests call it by. Leave it to its default: inside such a property it
  ///     is the property's name.
  ///   - holds: Whether a moment's state and work in flight keep the rule.
  public init(
    _ name: String,
    property: String = #function,
    _ holds: @escaping @Sendable (_ state: F.State, _ work: [ExploredWork]) -> Bool
  ) {
    self.name = name
    self.property = Self.isPropertyName(property) ? property : nil
    self.check = { holds($0.state, $0.work) }
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
