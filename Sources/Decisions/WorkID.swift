/// A type-erased, `Sendable` key that names a piece of long work, or a scope of work.
///
/// Any `Hashable & Sendable` value can key work: an enum case, a string, a child's id. Two ids are
/// equal when their wrapped values have the same type and are equal, so `WorkID(1)` and
/// `WorkID("1")` are different keys.
///
/// You rarely create one directly: ``Effects/run(id:priority:operation:catch:)`` and
/// ``Effects/cancel(id:)`` take the raw value and wrap it.
public struct WorkID: Hashable, Sendable, CustomStringConvertible {
  /// The wrapped value.
  public let base: any Hashable & Sendable

  /// Wraps a value as a work id.
  ///
  /// Wrapping a `WorkID` returns it unchanged.
  public init(_ base: some Hashable & Sendable) {
    if let id = base as? WorkID {
      self = id
    } else {
      self.base = base
    }
  }

  /// Returns whether two ids wrap values of the same type that are equal.
  public static func == (lhs: WorkID, rhs: WorkID) -> Bool {
    func isEqual<T: Hashable>(_ value: T) -> Bool {
      (rhs.base as? T) == value
    }
    return isEqual(lhs.base)
  }

  /// Hashes the wrapped value and its type.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type(of: base)))
    hasher.combine(base)
  }

  /// The wrapped value's description.
  public var description: String {
    String(describing: base)
  }
}
