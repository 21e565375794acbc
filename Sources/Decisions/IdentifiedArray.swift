/// An ordered collection of identifiable values with O(1) lookup by id: the state of a list of
/// children, such as the rows of a screen.
///
/// Use it where a parent keeps its children in order and events name a child by id:
/// ```swift
/// struct State: Equatable, Sendable {
///   var rows: IdentifiedArray<Row.State> = []
/// }
/// // in makeDecisions:
/// case .row(let id, let event):
///   return Row.makeDecisions(event: event, id: id, in: &state.rows, embed: Decision.row)
/// ```
/// Ids are unique: adding an element whose id is already present is a programming error and stops
/// the program with a message that names the id. Positions are `Int`s from 0, as in an array.
///
/// - Complexity: Lookup, update and `append` by id are O(1) (amortized for `append`); inserting
///   or removing anywhere but the end is O(*n*), because the positions after it change.
public struct IdentifiedArray<Element: Identifiable> {
  // NB: usable from inlinable code, so that the composition helpers mutate a child in place,
  // specialized in the caller's module.
  /// The elements, in order.
  @usableFromInline var elements: [Element]
  /// The position of each element, by id.
  @usableFromInline var positions: [Element.ID: Int]

  /// Creates an empty collection.
  public init() {
    elements = []
    positions = [:]
  }

  /// Creates a collection of `elements`, in order.
  ///
  /// - Precondition: No two elements have the same id.
  /// - Complexity: O(*n*).
  public init(uniqueElements elements: some Sequence<Element>) {
    self.init()
    for element in elements { append(element) }
  }

  /// The ids, in order.
  ///
  /// - Complexity: O(*n*).
  public var ids: [Element.ID] {
    elements.map(\.id)
  }

  /// The position of the element with `id`, if there is one.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func index(id: Element.ID) -> Int? {
    positions[id]
  }

  /// The element with `id`; setting `nil` removes it, setting a value updates it in place or
  /// appends it.
  ///
  /// - Precondition: A value set for `id` has that id.
  /// - Complexity: O(1) to read, update or append; O(*n*) to remove.
  public subscript(id id: Element.ID) -> Element? {
    get {
      positions[id].map { elements[$0] }
    }
    set {
      guard let newValue else {
        remove(id: id)
        return
      }
      precondition(
        newValue.id == id,
        "IdentifiedArray: the element set for id \(id) has a different id, \(newValue.id)")
      if let position = positions[id] {
        elements[position] = newValue
      } else {
        append(newValue)
      }
    }
  }

  /// Adds `element` at the end.
  ///
  /// - Precondition: No element has the same id.
  /// - Complexity: O(1), amortized.
  public mutating func append(_ element: Element) {
    precondition(
      positions[element.id] == nil,
      "IdentifiedArray: an element with id \(element.id) is already present")
    positions[element.id] = elements.count
    elements.append(element)
  }

  /// Inserts `element` at `position`, moving the elements from there on one place back.
  ///
  /// - Precondition: No element has the same id, and `position` is in `0...count`.
  /// - Complexity: O(*n*).
  public mutating func insert(_ element: Element, at position: Int) {
    precondition(
      positions[element.id] == nil,
      "IdentifiedArray: an element with id \(element.id) is already present")
    precondition(
      (0...elements.count).contains(position),
      "IdentifiedArray: position \(position) is outside 0...\(elements.count)")
    elements.insert(element, at: position)
    reindex(from: position)
  }

  /// Removes and returns the element with `id`, if there is one.
  ///
  /// - Complexity: O(*n*).
  @discardableResult
  public mutating func remove(id: Element.ID) -> Element? {
    guard let position = positions.removeValue(forKey: id) else { return nil }
    let removed = elements.remove(at: position)
    reindex(from: position)
    return removed
  }

  /// Removes every element that `shouldBeRemoved` accepts, keeping the others in order.
  ///
  /// - Complexity: O(*n*).
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    try elements.removeAll(where: shouldBeRemoved)
    positions.removeAll(keepingCapacity: true)
    reindex(from: 0)
  }

  /// Updates the element with `id` in place with `body`, and returns what `body` returns; returns
  /// `nil` without calling `body` when there is no such element.
  ///
  /// - Precondition: `body` does not change the element's id.
  /// - Complexity: O(1), plus the cost of `body`.
  @inlinable
  public mutating func update<Result>(
    id: Element.ID, _ body: (inout Element) throws -> Result
  ) rethrows -> Result? {
    guard let position = positions[id] else { return nil }
    let result = try body(&elements[position])
    precondition(
      elements[position].id == id,
      "IdentifiedArray: an update changed the id \(id) to \(elements[position].id)")
    return result
  }

  private mutating func reindex(from start: Int) {
    for position in start..<elements.count {
      positions[elements[position].id] = position
    }
  }
}

extension IdentifiedArray: RandomAccessCollection {
  /// The position of the first element.
  public var startIndex: Int { 0 }

  /// The position after the last element.
  public var endIndex: Int { elements.count }

  /// The element at `position`.
  public subscript(position: Int) -> Element {
    elements[position]
  }
}

extension IdentifiedArray: ExpressibleByArrayLiteral {
  /// Creates a collection of the listed elements, in order.
  ///
  /// - Precondition: No two elements have the same id.
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements)
  }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  /// Whether two collections have equal elements in the same order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.elements == rhs.elements
  }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  /// Hashes the elements in order.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(elements)
  }
}

extension IdentifiedArray: Sendable where Element: Sendable, Element.ID: Sendable {}

extension IdentifiedArray: CustomReflectable {
  /// Reflects as the array of elements, so diffs and dumps read like an array's.
  public var customMirror: Mirror {
    Mirror(self, unlabeledChildren: elements, displayStyle: .collection)
  }
}

extension IdentifiedArray: CustomStringConvertible {
  /// The elements, written like an array.
  public var description: String {
    elements.description
  }
}
