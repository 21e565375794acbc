// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (Not API: each declaration names the page of Apple's that it stands in for, in a plain comment.)

// Bindings, and the state a view owns.

// developer.apple.com/documentation/swiftui/binding
// Deviation: Apple's is also a `@propertyWrapper @dynamicMemberLookup` with `wrappedValue`,
// `projectedValue` and `subscript(dynamicMember:)`; no adapter or recipe uses them.
public struct Binding<Value> {
  // developer.apple.com/documentation/swiftui/binding/init(get:set:)-7ufcp
  @preconcurrency
  public init(
    get: @escaping @isolated(any) @Sendable () -> Value,
    set: @escaping @isolated(any) @Sendable (Value) -> Void
  ) {}
}

// developer.apple.com/documentation/swiftui/binding ("A binding conforms to Sendable only if its
// wrapped value type also conforms to Sendable", on binding/init(get:set:)-7ufcp)
extension Binding: Sendable where Value: Sendable {}

// developer.apple.com/documentation/swiftui/state
// Deviation: the property wrapper that Xcode 26 and earlier build with; the pages show, beside it,
// the `State(initialValue:)` macro of the SDK after (developer.apple.com/documentation/swiftui/
// state(initialvalue:)), which `@State var x = ...` reaches in the same way. Its conformance to
// DynamicProperty, and its `projectedValue`, are left out: no recipe uses them.
@propertyWrapper
public struct State<Value> {
  // developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
  public init(wrappedValue value: Value) {}

  // developer.apple.com/documentation/swiftui/state/wrappedvalue
  public var wrappedValue: Value {
    get { fatalError() }
    nonmutating set { fatalError() }
  }
}

extension State: Sendable where Value: Sendable {}
