/// An optional child in a parent's state, such as a sheet, that knows which child it holds: a
/// sheet presented in place of another is a new child, even within one event.
///
/// A plain optional cannot tell a new sheet from the old one when one event replaces it, so the
/// old sheet's work would go on, and its result would reach the new sheet. Declare the slot with
/// `@Presented` instead, and name it by its projected value, `\.$sheet`, where the library asks
/// for the child's place:
/// ```swift
/// struct State: Equatable, Sendable {
///   @Presented var sheet: Editor.State?
/// }
/// static let sheet = embed(
///   Editor.self, presented: \.$sheet, event: Event.sheet, decision: Decision.sheet)
/// static let childWork = [sheet.work]
/// // in makeDecisions:
/// case .edit(let item):
///   state.sheet = Editor.State(item: item)  // a new sheet: the one on show, if any, is gone
/// case .sheet(let event):
///   return sheet.makeDecisions(event: event, in: &state)
/// ```
///
/// What makes a new child:
/// - **Assigning** a value presents a new child: `state.sheet = Editor.State(...)`. Its
///   predecessor, if any, is gone: its work is cancelled (see ``ChildWork``), and a view's model of
///   it no longer sends (see ``ChildModel``).
/// - **Changing** the child in place keeps it: `state.sheet?.title = "Draft"`, or forwarding an
///   event to it through its declaration or the composition helpers.
/// - Assigning `nil` dismisses it.
///
/// So, to change the sheet on show, change it in place: `if var sheet = state.sheet { ...;
/// state.sheet = sheet }` assigns, and so presents a new sheet.
///
/// Equality, hashing, coding and descriptions look only at the value.
@propertyWrapper
public struct Presented<Value> {
  /// The child's state, or `nil` when no child is presented.
  @usableFromInline var value: Value?
  /// Which child `value` is: drawn anew for each child presented; 0 when none is.
  @usableFromInline private(set) var identity: UInt64

  /// Creates the slot, with a child presented if `wrappedValue` is not `nil`.
  public init(wrappedValue: Value?) {
    value = wrappedValue
    identity = wrappedValue == nil ? 0 : ChangeVersions.next()
  }

  /// An empty slot that draws no identity: a placeholder while an embedding changes the child.
  @inlinable
  init(placeholder: Void) {
    value = nil
    identity = 0
  }

  /// The child's state, or `nil` when none is presented.
  ///
  /// Assigning a value presents a new child; changing the value in place keeps the child.
  public var wrappedValue: Value? {
    get { value }
    set {
      value = newValue
      identity = newValue == nil ? 0 : ChangeVersions.next()
    }
    // NB: an in-place change (optional chaining, an `inout` argument) goes through here, not
    // through `set`: it keeps the child, unless it empties the slot or fills an empty one.
    _modify {
      let wasPresented = value != nil
      yield &value
      if value == nil {
        identity = 0
      } else if !wasPresented {
        identity = ChangeVersions.next()
      }
    }
  }

  /// Whether this slot holds the same child as `other`: both empty, or the same presentation,
  /// however its state changed since.
  public func isSameChild(as other: Self) -> Bool {
    identity == other.identity
  }

  /// The slot itself: name it `\.$sheet` where the library asks for the child's place.
  public var projectedValue: Presented<Value> {
    get { self }
    set { self = newValue }
  }
}

extension Presented: Equatable where Value: Equatable {
  /// Whether both slots hold equal values, or are both empty.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.value == rhs.value
  }
}

extension Presented: Hashable where Value: Hashable {
  /// Hashes the value.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(value)
  }
}

extension Presented: Sendable where Value: Sendable {}

/// A property wrapper's storage, which a type's reflection shows under its property's name with an
/// underscore (`_sheet`): descriptions and diffs show the property's own name instead.
package protocol WrapperStorage {}

extension Presented: WrapperStorage {}

extension Presented: Codable where Value: Codable {
  /// Decodes the value; a decoded child is a new child.
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try Value?(from: decoder))
  }

  /// Encodes the value only.
  public func encode(to encoder: any Encoder) throws {
    try value.encode(to: encoder)
  }
}

extension Presented: CustomReflectable {
  /// Reflects as the value, so diffs and dumps read like an optional's.
  public var customMirror: Mirror {
    Mirror(reflecting: value as Any)
  }
}

extension Presented: CustomStringConvertible {
  /// The value, written like an optional.
  public var description: String {
    String(describing: value)
  }
}
