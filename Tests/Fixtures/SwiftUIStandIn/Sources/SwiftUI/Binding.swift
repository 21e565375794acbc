// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (Not API: each declaration names the page of Apple's that it stands in for, in a plain comment.)

// Bindings, and the state a view owns.

// developer.apple.com/documentation/swiftui/binding
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
  // developer.apple.com/documentation/swiftui/binding/init(get:set:)-7ufcp
  @preconcurrency
  public init(
    get: @escaping @isolated(any) @Sendable () -> Value,
    set: @escaping @isolated(any) @Sendable (Value) -> Void
  ) {}

  // developer.apple.com/documentation/swiftui/binding/wrappedvalue
  public var wrappedValue: Value {
    get { fatalError() }
    nonmutating set { fatalError() }
  }

  // developer.apple.com/documentation/swiftui/binding/projectedvalue
  public var projectedValue: Binding<Value> { self }

  // developer.apple.com/documentation/swiftui/binding/subscript(dynamicmember:)
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<
    Subject
  > { fatalError() }
}

// developer.apple.com/documentation/swiftui/binding ("A binding conforms to Sendable only if its
// wrapped value type also conforms to Sendable", on binding/init(get:set:)-7ufcp)
extension Binding: Sendable where Value: Sendable {}

// developer.apple.com/documentation/swiftui/state
// Deviation: the property wrapper that Xcode 26 and earlier build with; the pages show, beside it,
// the `State(initialValue:)` macro of the SDK after (developer.apple.com/documentation/swiftui/
// state(initialvalue:)), which `@State var x = ...` reaches in the same way. Its conformance to
// DynamicProperty is left out: no recipe uses it.
@propertyWrapper
public struct State<Value> {
  // developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
  public init(wrappedValue value: Value) {}

  // developer.apple.com/documentation/swiftui/state/wrappedvalue
  public var wrappedValue: Value {
    get { fatalError() }
    nonmutating set { fatalError() }
  }

  // developer.apple.com/documentation/swiftui/state/projectedvalue
  public var projectedValue: Binding<Value> { fatalError() }
}

extension State: Sendable where Value: Sendable {}
