import Synchronization

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
/// Each element keeps its identity while it stays in the collection, through updates: an
/// element removed and then added with the same id, even within one event, is a new child. Its
/// old work is cancelled (see ``ChildWork``), and a view's model of the old child never drives
/// the new one. Equality looks only at the elements.
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
  /// The identity of each element, in the order of `elements`: the version drawn when it was
  /// added.
  @usableFromInline var stamps: [UInt64]
  /// What changed, for the store's checks of its children.
  @usableFromInline var log: ChangeLog<Element.ID>

  /// Creates an empty collection.
  public init() {
    elements = []
    positions = [:]
    stamps = []
    log = ChangeLog()
  }

  /// Creates a collection of `elements`, in order.
  ///
  /// - Precondition: No two elements have the same id.
  /// - Complexity: O(*n*).
  public init(uniqueElements elements: some Sequence<Element>) {
    self.init()
    for element in elements { append(element) }
  }

  /// Creates a collection of `elements`, in order, with one element per id: where a later element
  /// repeats an id, `combine` says what takes the place of the element already kept.
  ///
  /// For data that may repeat an id, such as a server's answer, where
  /// ``init(uniqueElements:)`` would stop the program:
  /// ```swift
  /// let rows = IdentifiedArray(books) { first, _ in first }  // the first book with each id
  /// ```
  /// - Parameters:
  ///   - elements: The elements, in order.
  ///   - combine: Given the element kept so far and a later one with the same id, returns the
  ///     element to keep, at the position of the first.
  /// - Precondition: `combine` returns an element with the id of the two it is given.
  /// - Complexity: O(*n*), plus the calls of `combine`.
  public init(
    _ elements: some Sequence<Element>,
    uniquingIDsWith combine: (_ kept: Element, _ later: Element) throws -> Element
  ) rethrows {
    self.init()
    for element in elements {
      if let position = positions[element.id] {
        let id = element.id
        let kept = try combine(self.elements[position], element)
        precondition(
          kept.id == id,
          "IdentifiedArray: uniquingIDsWith returned an element with the id \(kept.id) for \(id)")
        self.elements[position] = kept
      } else {
        append(element)
      }
    }
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
        log.updated(id)
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
    stamps.append(log.restructured(element.id))
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
    stamps.insert(log.restructured(element.id), at: position)
    reindex(from: position)
  }

  /// Removes and returns the element with `id`, if there is one.
  ///
  /// - Complexity: O(*n*).
  @discardableResult
  public mutating func remove(id: Element.ID) -> Element? {
    guard let position = positions.removeValue(forKey: id) else { return nil }
    let removed = elements.remove(at: position)
    stamps.remove(at: position)
    _ = log.restructured(id)
    reindex(from: position)
    return removed
  }

  /// Removes the elements at `offsets`, keeping the others in order.
  ///
  /// A list's swipe to delete hands over offsets (SwiftUI's `onDelete` gives an `IndexSet`).
  /// Offsets past the end are ignored.
  ///
  /// - Complexity: O(*n* + *k* log *k*) for *k* offsets.
  public mutating func remove(atOffsets offsets: some Sequence<Int>) {
    let ids = Set(offsets.filter { elements.indices.contains($0) }.map { elements[$0].id })
    guard !ids.isEmpty else { return }
    removeAll { ids.contains($0.id) }
  }

  /// Removes every element that `shouldBeRemoved` accepts, keeping the others in order.
  ///
  /// When `shouldBeRemoved` throws, the collection is left as it was.
  /// - Complexity: O(*n*).
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    // NB: every element asked first: a throw part of the way through left elements moved and
    // the index of ids stale.
    let isRemoved = try elements.map(shouldBeRemoved)
    guard isRemoved.contains(true) else { return }
    var kept = 0
    for position in elements.indices {
      if isRemoved[position] {
        positions[elements[position].id] = nil
        _ = log.restructured(elements[position].id)
      } else {
        if kept != position {
          elements.swapAt(kept, position)
          stamps.swapAt(kept, position)
        }
        kept += 1
      }
    }
    elements.removeSubrange(kept...)
    stamps.removeSubrange(kept...)
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
    log.updated(id)
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

  // MARK: - Identity, for the store's checks of its children

  /// The identity of the element with `id`, if there is one: it stays the same while the element
  /// stays in the collection, and differs for an element removed and then added with the same id.
  ///
  /// - Complexity: O(1).
  package func identity(of id: Element.ID) -> UInt64? {
    positions[id].map { stamps[$0] }
  }

  /// A value that changes whenever anything in the collection does, and that no other collection
  /// had: the same value means the same elements, with the same identities.
  @inlinable
  package var version: UInt64 { log.version }

  /// A value that changes whenever an element is added or removed, and that no other collection
  /// had: the same value means the same identities, though elements may have been updated.
  @inlinable
  package var structure: UInt64 { log.structure }

  /// The ids of the elements updated, added or removed since the collection had `version`, oldest
  /// first and possibly repeated; `nil` when that is not known (too many changes since, or another
  /// collection's version).
  @usableFromInline
  package func changes(since version: UInt64) -> [Element.ID]? {
    log.changes(since: version)
  }

  /// The ids of the elements added or removed since the collection's ``structure`` was
  /// `structure`, oldest first; `nil` when not known (more changes than the log keeps, or another
  /// collection's structure).
  @usableFromInline
  package func structuralChanges(since structure: UInt64) -> [Element.ID]? {
    log.structuralChanges(since: structure)
  }
}

/// The last changes of an ``IdentifiedArray``, for the store's checks of its children: a version
/// drawn for each change, unique in the process, and the ids of the last few changes.
// NB: versions are drawn from one counter for the whole process, so a version names one state of
// one collection: a collection that has the version another had seen is that state, and its
// recent changes tell what changed since, whatever was copied or assigned in between.
// NB: inlinable, so that the composition helpers, specialized in the feature's module, record an
// update with a few instructions: unspecialized, the ring's generic array operations cost about
// 700 per event.
@usableFromInline
struct ChangeLog<ID: Hashable> {
  /// One change: the version before it, and the element it changed.
  @usableFromInline typealias Change = (before: UInt64, id: ID)

  /// How many changes are kept: more changes than this in one event are found by looking at every
  /// child instead.
  @inlinable static var capacity: Int { 16 }

  @usableFromInline private(set) var version: UInt64 = 0
  @usableFromInline private(set) var structure: UInt64 = 0
  @usableFromInline var recent: [Change] = []
  /// Where the next change goes in `recent`, once it is full: the oldest change.
  @usableFromInline var next = 0
  /// The last elements added or removed, each with the `structure` before it: what came or went
  /// since a store's last check, however many updates came in between.
  @usableFromInline var restructures: [Change] = []
  /// Where the next change goes in `restructures`, once it is full: the oldest change.
  @usableFromInline var nextRestructure = 0

  @inlinable
  init() {}

  /// Records that the element with `id` was updated.
  @inlinable
  mutating func updated(_ id: ID) {
    _ = record(id)
  }

  /// Records that the element with `id` was added or removed, and returns the new version: the
  /// identity of an added element.
  @inlinable
  mutating func restructured(_ id: ID) -> UInt64 {
    let version = record(id)
    let change: Change = (structure, id)
    if restructures.count < Self.capacity {
      restructures.append(change)
    } else {
      restructures[nextRestructure] = change
      nextRestructure = nextRestructure == Self.capacity - 1 ? 0 : nextRestructure + 1
    }
    structure = version
    return version
  }

  @inlinable
  mutating func record(_ id: ID) -> UInt64 {
    let version = ChangeVersions.next()
    let change: Change = (self.version, id)
    if recent.count < Self.capacity {
      recent.append(change)
    } else {
      recent[next] = change
      next = next == Self.capacity - 1 ? 0 : next + 1
    }
    self.version = version
    return version
  }

  /// The ids changed since `version`, oldest first; `nil` when not known.
  func changes(since version: UInt64) -> [ID]? {
    if version == self.version { return [] }
    return Self.ids(in: recent, from: next, since: version)
  }

  /// The ids added or removed since the log's `structure` was `structure`, oldest first; `nil`
  /// when not known.
  func structuralChanges(since structure: UInt64) -> [ID]? {
    if structure == self.structure { return [] }
    return Self.ids(in: restructures, from: nextRestructure, since: structure)
  }

  /// The ids of the changes in the ring `ring`, whose oldest is at `start`, from the change made
  /// after `before`; `nil` when no change in the ring was made after it.
  private static func ids(in ring: [Change], from start: Int, since before: UInt64) -> [ID]? {
    var ids: [ID] = []
    var found = false
    for offset in 0..<ring.count {
      let change = ring[(start + offset) % ring.count]
      if !found, change.before == before { found = true }
      if found { ids.append(change.id) }
    }
    return found ? ids : nil
  }
}

extension ChangeLog: Sendable where ID: Sendable {}

/// The process-wide counter that ``ChangeLog`` versions are drawn from.
@usableFromInline
enum ChangeVersions {
  private static let counter = Atomic<UInt64>(0)

  /// A version no collection had before.
  @usableFromInline
  static func next() -> UInt64 {
    counter.wrappingAdd(1, ordering: .relaxed).newValue
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

extension IdentifiedArray: Encodable where Element: Encodable {
  /// Encodes the elements as an array, in order.
  public func encode(to encoder: any Encoder) throws {
    try elements.encode(to: encoder)
  }
}

extension IdentifiedArray: Decodable where Element: Decodable {
  /// Decodes an array of elements, refusing one where two elements have the same id.
  public init(from decoder: any Decoder) throws {
    let elements = try [Element](from: decoder)
    self.init()
    for element in elements {
      guard positions[element.id] == nil else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: decoder.codingPath,
            debugDescription: "Two elements have the id \(element.id)."))
      }
      append(element)
    }
  }
}

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
