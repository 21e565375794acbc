/// A type-erased, `Sendable` key that names a piece of long work, or a scope of work.
///
/// Any `Hashable & Sendable` value can key work: an enum case, a string, a child's id. Two ids are
/// equal when their wrapped values have the same dynamic type and are equal, so `WorkID(1)` and
/// `WorkID("1")` are different keys, and so are `WorkID(1)` and `WorkID(Int8(1))`. Optionals are
/// unwrapped first: `WorkID(Optional(1))` is the same key as `WorkID(1)`, so work started with an
/// optional id can be cancelled with the plain value. Instances of a class and of its subclass are
/// different keys, whatever the class's `==` says, so that equality stays symmetric and agrees with
/// hashing.
///
/// You rarely create one directly: ``Effects/run(id:priority:operation:catch:)`` and
/// ``Effects/cancel(id:)`` take the raw value and wrap it.
public struct WorkID: Hashable, Sendable, CustomStringConvertible {
  /// The wrapped value, as given.
  public var base: any Hashable & Sendable { storage.base }
  // NB: an id is copied, hashed and compared where its work starts, ends and is cancelled, and by
  // the explorer at each new piece of work. Held in place, its two existentials were copied
  // through their value witnesses at each copy, and the wrapped value hashed (a string's bytes)
  // and opened at each lookup: about 1,000 instructions per piece of keyed work (bench rows 13e,
  // 15d). Held in one object, a copy is a retain, the hash is made once, and copies of one id are
  // equal without opening it.
  /// The id's value, key and hash, made once and shared by its copies.
  private let storage: Storage

  /// What a ``WorkID`` holds.
  // NB: `@unchecked Sendable` for `key` alone: it is `base`, or the value inside `base` when that
  // is an optional, so it is as `Sendable` as `base`. The checker cannot see that the payload of a
  // `Sendable` optional is `Sendable`, and a cast to `Sendable` is not allowed.
  private final class Storage: @unchecked Sendable {
    let base: any Hashable & Sendable
    /// What equality and hashing use: `base`, with optionals unwrapped.
    let key: any Hashable
    /// The hash of `key` and its dynamic type.
    let hash: Int

    init(base: any Hashable & Sendable, key: any Hashable) {
      self.base = base
      self.key = key
      var hasher = Hasher()
      hasher.combine(ObjectIdentifier(type(of: key)))
      hasher.combine(key)
      hash = hasher.finalize()
    }
  }

  /// What equality and hashing use: `base`, with optionals unwrapped.
  private var key: any Hashable { storage.key }

  /// Wraps a value as a work id.
  ///
  /// Wrapping a `WorkID` returns it unchanged.
  public init(_ base: some Hashable & Sendable) {
    // NB: only a `WorkID` or an optional can hold a `WorkID` (`AnyHashable` is not `Sendable`):
    // the dynamic cast, about 180 instructions, is left to optionals (each piece of keyed work
    // makes an id).
    let type = Swift.type(of: base)
    if type == WorkID.self {
      self = unsafeBitCast(base, to: WorkID.self)
    } else if _isOptional(type), let id = base as? WorkID {
      self = id
    } else {
      storage = Storage(base: base, key: WorkID.unwrapped(base))
    }
  }

  /// A key equal to `WorkID(value)`, for looking up the work in a scope made from `value`; its
  /// ``base`` is not `value`, so it names no scope of its own.
  // NB: for a declaration whose ids need not be `Sendable`: work can only have a scope made from a
  // `Sendable` value, so a key made from another finds nothing, as it should.
  @usableFromInline
  package init(lookingUp value: some Hashable) {
    storage = Storage(base: LookupKey(), key: WorkID.unwrapped(value))
  }

  // NB: the cast to `OptionalWorkKey` looks the conformance up at run time, about 1,400
  // instructions for each piece of keyed work started (callgrind, bench row 13e); whether the
  // type is an optional at all is a check of its metadata's kind, so most ids skip the cast.
  private static func unwrapped(_ value: any Hashable) -> any Hashable {
    if isOptional(value), let optional = value as? any OptionalWorkKey,
      let wrapped = optional.wrappedKey
    {
      return unwrapped(wrapped)
    }
    return value
  }

  /// Whether `value`'s type is an optional.
  private static func isOptional<Value: Hashable>(_ value: Value) -> Bool {
    _isOptional(Value.self)
  }

  /// Returns whether two ids wrap values of the same dynamic type that are equal, once optionals
  /// are unwrapped.
  ///
  /// A copy of an id is equal to it, even when its value is not equal to itself (`Double.nan`);
  /// two ids made apart from such a value are not.
  public static func == (lhs: WorkID, rhs: WorkID) -> Bool {
    // NB: comparing the dynamic types first keeps `==` symmetric for a class and its subclass, and
    // consistent with `hash(into:)`, which hashes the type.
    if lhs.storage === rhs.storage { return true }
    guard lhs.storage.hash == rhs.storage.hash, type(of: lhs.key) == type(of: rhs.key) else {
      return false
    }
    return lhs.key.isEqual(toSameType: rhs.key)
  }

  /// Hashes the wrapped value and its dynamic type, once optionals are unwrapped.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(storage.hash)
  }

  /// The wrapped value's description, with optionals unwrapped.
  public var description: String {
    String(describing: key)
  }
}

extension WorkID {
  /// What a redacted recording says of a work id: its type and enum case, no value it holds.
  ///
  /// `(…)` stands where a value was left out: `Search.Work.query(…)`, `Search.Work.refresh`,
  /// `Swift.String(…)`.
  var kindDescription: String {
    let type = String(reflecting: Swift.type(of: key))
    // NB: a custom mirror or description is the type's own code, and may show what it holds.
    guard !(key is any CustomReflectable) else { return type + "(…)" }
    let mirror = Mirror(reflecting: key)
    guard mirror.displayStyle == .enum else { return type + "(…)" }
    // An enum case with a payload reflects as one child labelled with the case's name; one
    // without is described by its name, unless the type describes itself some other way.
    if let label = mirror.children.first?.label { return "\(type).\(label)(…)" }
    if mirror.children.isEmpty, !(key is any CustomStringConvertible),
      !(key is any CustomDebugStringConvertible)
    {
      return "\(type).\(String(describing: key))"
    }
    return type + "(…)"
  }
}

extension Hashable {
  /// Whether `other`, whose dynamic type is this value's, is equal to it.
  // NB: the other value is read as `Self` in place, rather than cast: with the types compared
  // already, the runtime's dynamic cast (`other as? Self`) cost two fifths of an `==`, and a
  // registry's lookup of keyed work calls it on each start and end (bench row 13e). Opening an
  // existential gives the type it was made with, which for a class may be a superclass of its
  // dynamic type: either reads the same reference, as the cast would.
  fileprivate func isEqual(toSameType other: any Hashable) -> Bool {
    func read<Other: Hashable>(_ other: Other) -> Bool {
      withUnsafePointer(to: other) { pointer in
        pointer.withMemoryRebound(to: Self.self, capacity: 1) { $0.pointee == self }
      }
    }
    return read(other)
  }
}

/// An optional that a ``WorkID`` unwraps.
private protocol OptionalWorkKey {
  /// The wrapped value, or `nil`.
  var wrappedKey: (any Hashable)? { get }
}

extension Optional: OptionalWorkKey where Wrapped: Hashable {
  fileprivate var wrappedKey: (any Hashable)? { self }
}

/// The ``WorkID/base`` of a key made only to look up work (see ``WorkID/init(lookingUp:)``).
private struct LookupKey: Hashable, Sendable {}
