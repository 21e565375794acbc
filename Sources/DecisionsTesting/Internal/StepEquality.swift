import Decisions

/// How a ``StoreTest`` compares a feature's states, events and decisions.
///
/// Declared (`==` of the types' `Equatable` conformances, checked by the compiler) for a feature
/// whose types are `Equatable` where the test names them. Found at run time for a main-actor
/// feature: the conformances of its types, written in a module with default main-actor isolation,
/// are main-actor isolated, and Swift does not let one satisfy a requirement on a `Sendable` type
/// parameter such as `F.State` (SE-0470), so no generic signature can ask for them. A dynamic cast
/// finds them, on the main actor only, which is where a main-actor test's steps run.
struct StepEquality<F: Feature> {
  /// Whether two states are equal.
  let states: (F.State, F.State) -> Bool
  /// Whether two events are equal.
  let events: (F.Event, F.Event) -> Bool
  /// Whether two decisions are equal.
  let decisions: (F.Decision, F.Decision) -> Bool
}

extension StepEquality where F.State: Equatable, F.Event: Equatable, F.Decision: Equatable {
  /// The types' own `==`.
  static var declared: Self { Self(states: ==, events: ==, decisions: ==) }
}

extension StepEquality {
  /// The `==` of the conformances found at run time, on the current isolation; nil when a type has
  /// none here.
  ///
  /// Call it on the isolation the conformances belong to (the main actor, for a main-actor feature)
  /// and use the result there: it calls them.
  static func foundAtRunTime() -> Self? {
    guard let states = runTimeEquality(of: F.State.self),
      let events = runTimeEquality(of: F.Event.self),
      let decisions = runTimeEquality(of: F.Decision.self)
    else { return nil }
    return Self(states: states, events: events, decisions: decisions)
  }

  /// The names of the feature's types that have no `Equatable` conformance found here.
  static func typesNotEquatable() -> [String] {
    var names: [String] = []
    if runTimeEquality(of: F.State.self) == nil { names.append(String(reflecting: F.State.self)) }
    if runTimeEquality(of: F.Event.self) == nil { names.append(String(reflecting: F.Event.self)) }
    if runTimeEquality(of: F.Decision.self) == nil {
      names.append(String(reflecting: F.Decision.self))
    }
    return names
  }
}

/// `==` of `Value`'s `Equatable` conformance, found by a dynamic cast; nil when it has none that
/// can be used here.
func runTimeEquality<Value>(of type: Value.Type) -> ((Value, Value) -> Bool)? {
  guard let equatable = type as? any Equatable.Type else { return nil }
  func equality<E: Equatable>(_: E.Type) -> (Value, Value) -> Bool {
    // NB: `E` is `Value`, opened: the casts cannot fail.
    { lhs, rhs in (lhs as! E) == (rhs as! E) }
  }
  return equality(equatable)
}
