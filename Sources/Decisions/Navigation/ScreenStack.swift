/// A stack of screens pushed on a root screen, as navigation state in a feature's core.
///
/// Each screen pushed gets an id that the stack never gives again, so a screen's events, decisions
/// and work are addressed by it: an event for a screen that was popped finds nothing, and a screen
/// pushed again, even with the same state, is a new screen with a new id.
///
/// ```swift
/// struct State: Equatable, Sendable {
///   var path = ScreenStack<Detail.State>()
/// }
/// static let details = embed(
///   Detail.self, stack: \.path, event: Event.detail, decision: Decision.detail)
/// static let childWork = [details.work]  // a popped screen's work ends with it
/// // in makeDecisions:
/// case .open(let item):
///   state.path.push(Detail.State(item: item))
/// case .detail(let id, let event):
///   return details.makeDecisions(event: event, id: id, in: &state)
/// case .pathChanged(let ids):  // the platform's back button or swipe
///   state.path.keep(ids)
/// ```
///
/// Screens of several kinds are the cases of one enum (`Screen`), each kind declared on its own
/// with `embed(_:stack:case:event:decision:)`.
///
/// `==` compares the screens and their ids, in order.
public struct ScreenStack<Screen> {
  /// The id of a screen in a stack: the order in which it was pushed, never given twice by the same
  /// stack.
  public struct ID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The number: 0 for the first screen pushed on an empty stack, then 1, 2 and so on.
    public let rawValue: Int

    /// The id with this number.
    public init(_ rawValue: Int) {
      self.rawValue = rawValue
    }

    /// The id with this number, as failure messages print it: `ID(rawValue: 3)`.
    public init(rawValue: Int) {
      self.rawValue = rawValue
    }

    /// Whether `lhs` was pushed before `rhs`.
    public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#n`, the number.
    public var description: String { "#\(rawValue)" }

    /// Decodes the id from its number.
    public init(from decoder: any Decoder) throws {
      rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    /// Encodes the id as its number.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
  }

  /// A screen on the stack, with its id.
  public struct Entry: Identifiable {
    /// The screen's id.
    public let id: ID
    /// The screen's state.
    public var screen: Screen

    /// A screen with its id, for ``ScreenStack/init(entries:nextID:)``.
    public init(id: ID, screen: Screen) {
      self.id = id
      self.screen = screen
    }
  }

  /// The screens, bottom first, with their ids and identities.
  @usableFromInline var entries: IdentifiedArray<Entry>
  /// The number of the next id.
  @usableFromInline var nextID: Int

  /// An empty stack: only the root screen shows.
  public init() {
    entries = []
    nextID = 0
  }

  /// A stack of `screens`, bottom first, with ids #0, #1 and so on.
  public init(_ screens: some Sequence<Screen>) {
    self.init()
    for screen in screens { push(screen) }
  }

  /// A stack of these screens with their ids, bottom first, whose next push gets `nextID`: a stack
  /// as a test's diff and a printed story show it.
  ///
  /// A test writes a stack with `[a, b]` or ``push(_:)``; this initializer makes one with the ids
  /// a story reached (after pops, say) exactly.
  /// - Precondition: The ids are 0 or more, increase from the bottom, and are below `nextID`, as
  ///   pushes give them.
  /// - Complexity: O(*n*).
  public init(entries: [Entry], nextID: ID) {
    var below = -1
    for entry in entries {
      precondition(
        entry.id.rawValue > below && entry.id.rawValue < nextID.rawValue,
        "ScreenStack: ids must be 0 or more, increase from the bottom, and be below nextID "
          + "\(nextID); \(entry.id) comes after #\(below)")
      below = entry.id.rawValue
    }
    self.entries = IdentifiedArray(uniqueElements: entries)
    self.nextID = nextID.rawValue
  }

  /// The ids of the screens, bottom first: what a navigation stack's path shows.
  ///
  /// - Complexity: O(*n*).
  public var ids: [ID] { entries.ids }

  /// The screen with `id`, or nil; setting it changes the screen in place (it stays the same
  /// screen, with its work), and setting nil pops it and the screens above it.
  ///
  /// - Precondition: Setting a screen requires one with `id` on the stack.
  /// - Complexity: O(1) to read and to change; popping is O(*n*).
  public subscript(id id: ID) -> Screen? {
    get { entries[id: id]?.screen }
    set {
      guard let newValue else {
        pop(from: id)
        return
      }
      precondition(entries.index(id: id) != nil, "ScreenStack: no screen \(id) to set")
      entries.update(id: id) { $0.screen = newValue }
    }
  }

  /// The state of the screen with id `id` when it is the case that `embed` makes, to read or
  /// change one screen in place.
  ///
  /// In a test step, change the one field the event changed rather than rebuild the screen:
  /// ```swift
  /// test.send(.detail(id: ScreenID(0), .deleteTapped)) {
  ///   $0.path[id: ScreenID(0), case: Path.detail]?.destination = .dialog(.deleteSyncUp)
  /// }
  /// ```
  /// Reading gives nil when no screen has the id, or when it is another case; a change through
  /// `?.` then changes nothing, and the step's comparison shows the difference. Setting a state
  /// makes the screen that case, as `self[id: id] = embed(state)` does; setting nil changes
  /// nothing (pop with `self[id: id] = nil`).
  ///
  /// The case is told by reflection, as in `embed(_:stack:case:…)`: `Screen` must have no custom
  /// mirror.
  /// - Parameters:
  ///   - id: The screen's id.
  ///   - embed: The case's constructor, such as `Path.detail`.
  public subscript<Child>(id id: ID, case embed: @escaping (Child) -> Screen) -> Child? {
    get {
      guard let screen = self[id: id] else { return nil }
      return CaseProjection<Child, Screen>(embed).extract(screen)
    }
    set {
      // NB: nil changes nothing: `stack[id: id, case: Path.detail]?.title = "x"` writes back the
      // nil it read when the screen is another case, and that must not pop it.
      guard let newValue else { return }
      self[id: id] = embed(newValue)
    }
  }

  /// Pushes `screen` on top, with a new id, and returns the id.
  ///
  /// - Complexity: O(1), amortized.
  @discardableResult
  public mutating func push(_ screen: Screen) -> ID {
    let id = ID(nextID)
    nextID += 1
    entries.append(Entry(id: id, screen: screen))
    return id
  }

  /// Pops the top screen and returns it; nil when only the root shows.
  ///
  /// - Complexity: O(1).
  @discardableResult
  public mutating func pop() -> Screen? {
    guard let top = entries.last else { return nil }
    return entries.remove(id: top.id)?.screen
  }

  /// Pops the screens above the one with `id`, which stays on top: going back to it.
  ///
  /// - Returns: Whether a screen with `id` is on the stack; if not, nothing is popped.
  /// - Complexity: O(*k*), for the *k* screens popped.
  @discardableResult
  public mutating func pop(to id: ID) -> Bool {
    guard let position = entries.index(id: id) else { return false }
    while entries.count > position + 1 { pop() }
    return true
  }

  /// Pops the screen with `id` and the screens above it: a screen dismissing itself.
  ///
  /// - Returns: Whether a screen with `id` was on the stack; if not, nothing is popped.
  /// - Complexity: O(*k*), for the *k* screens popped.
  @discardableResult
  public mutating func pop(from id: ID) -> Bool {
    guard let position = entries.index(id: id) else { return false }
    while entries.count > position { pop() }
    return true
  }

  /// Pops every screen: only the root shows.
  ///
  /// - Complexity: O(*n*).
  public mutating func popToRoot() {
    while pop() != nil {}
  }

  /// Keeps the screens of `path`, the path the platform's navigation stack now shows.
  ///
  /// The stack pops to `path` when it is a part of the stack's from the bottom: the user went back,
  /// by the back button, a swipe or a long press on it. Pushing is the core's to decide, so a path
  /// that is not such a part changes nothing.
  ///
  /// - Returns: Whether the stack now shows `path`.
  /// - Complexity: O(*n*).
  @discardableResult
  public mutating func keep(_ path: [ID]) -> Bool {
    let current = ids
    guard path.count <= current.count, Array(current.prefix(path.count)) == path else {
      return false
    }
    while entries.count > path.count { pop() }
    return true
  }
}

extension ScreenStack: RandomAccessCollection {
  /// The position of the bottom screen.
  public var startIndex: Int { 0 }

  /// The position after the top screen.
  public var endIndex: Int { entries.count }

  /// The screen at `position`, with its id, bottom first.
  public subscript(position: Int) -> Entry {
    entries[position]
  }
}

extension ScreenStack: ExpressibleByArrayLiteral {
  /// A stack of these screens, bottom first, with ids #0, #1 and so on.
  public init(arrayLiteral screens: Screen...) {
    self.init(screens)
  }
}

extension ScreenStack: Equatable where Screen: Equatable {
  /// Whether the two stacks have the same screens, with the same ids, in order.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.entries.elementsEqual(rhs.entries) { $0.id == $1.id && $0.screen == $1.screen }
  }
}

extension ScreenStack: Hashable where Screen: Hashable {
  /// Hashes the screens and their ids, in order.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(entries.count)
    for entry in entries {
      hasher.combine(entry.id)
      hasher.combine(entry.screen)
    }
  }
}

extension ScreenStack: Sendable where Screen: Sendable {}
extension ScreenStack.Entry: Sendable where Screen: Sendable {}
extension ScreenStack.Entry: Equatable where Screen: Equatable {}
extension ScreenStack.Entry: Hashable where Screen: Hashable {}

extension ScreenStack: CustomReflectable {
  /// Reflects as the entries, bottom first, and the next id, in the order of
  /// ``init(entries:nextID:)``: diffs show each screen with its id, and a printed story compiles.
  public var customMirror: Mirror {
    Mirror(
      self, children: ["entries": Array(entries), "nextID": ID(nextID)] as KeyValuePairs,
      displayStyle: .struct)
  }
}

extension ScreenStack: CustomStringConvertible {
  /// The screens with their ids, bottom first: `[#0: …, #3: …]`.
  public var description: String {
    "[" + entries.map { "\($0.id): \($0.screen)" }.joined(separator: ", ") + "]"
  }
}

extension ScreenStack: Codable where Screen: Codable {
  private enum CodingKeys: String, CodingKey {
    case screens, nextID
  }

  private struct CodedEntry: Codable {
    var id: ID
    var screen: Screen
  }

  // NB: 2^53 is the largest whole number that every JSON reader (a browser's among them) keeps
  // exact. From there, `push` adds 1 per screen and cannot reach `Int.max` in any run: at one push
  // a nanosecond that takes 290 years.
  static var maximumDecodedNextID: Int { 1 << 53 }

  /// Decodes a stack, refusing what a stack could never have been.
  ///
  /// Refused, with a `DecodingError.dataCorrupted` that says which: a next id that is negative or
  /// above 2^53 (the largest whole number every JSON reader keeps exact), or screen ids that are
  /// negative, repeated, out of the order they were pushed in (bottom first, increasing), or not
  /// below the next id.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let coded = try container.decode([CodedEntry].self, forKey: .screens)
    let nextID = try container.decode(Int.self, forKey: .nextID)
    func corrupt(_ key: CodingKeys, _ why: String) -> DecodingError {
      DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: why)
    }
    guard nextID >= 0 else {
      throw corrupt(.nextID, "nextID \(nextID) is negative: ids count up from 0")
    }
    guard nextID <= Self.maximumDecodedNextID else {
      throw corrupt(
        .nextID,
        "nextID \(nextID) is above \(Self.maximumDecodedNextID), the largest a stack may have")
    }
    var entries = IdentifiedArray<Entry>()
    var below = -1
    for entry in coded {
      let id = entry.id.rawValue
      guard id >= 0 else {
        throw corrupt(.screens, "screen id \(entry.id) is negative: ids count up from 0")
      }
      guard id < nextID else {
        throw corrupt(
          .screens,
          "screen id \(entry.id) is not below nextID \(nextID): the stack would give it again")
      }
      guard id > below else {
        throw corrupt(
          .screens,
          id == below
            ? "screen id \(entry.id) is repeated"
            : "screen id \(entry.id) comes after #\(below): a stack's ids increase from the bottom"
        )
      }
      below = id
      entries.append(Entry(id: entry.id, screen: entry.screen))
    }
    self.entries = entries
    self.nextID = nextID
  }

  /// Encodes the screens with their ids, and the next id.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(
      entries.map { CodedEntry(id: $0.id, screen: $0.screen) }, forKey: .screens)
    try container.encode(nextID, forKey: .nextID)
  }
}

// MARK: - Forwarding to a screen

extension Core {
  /// Runs this core on the screen with the given id in a ``ScreenStack``, found in O(1), and
  /// wraps its decisions as the parent's with `embed`.
  ///
  /// When no screen has the id (it was popped), the event is dropped and no decisions are
  /// returned.
  /// ```swift
  /// case .detail(let id, let event):
  ///   return Detail.makeDecisions(event: event, id: id, in: &state.path, embed: Decision.detail)
  /// ```
  @inlinable
  package static func makeDecisions<ParentDecision>(
    event: Event,
    id: ScreenStack<State>.ID,
    in stack: inout ScreenStack<State>,
    embed: (ScreenStack<State>.ID, Decision) -> ParentDecision
  ) -> [ParentDecision] {
    guard let index = stack.entries.positions[id] else { return [] }
    stack.entries.log.updated(id)
    return makeDecisions(event: event, state: &stack.entries.elements[index].screen) {
      embed(id, $0)
    }
  }
}

// MARK: - The screens' work

extension ChildWork {
  /// The work of each screen of a ``ScreenStack``, in a scope made from the screen's id, lives
  /// while the screen is on the stack: popping it ends its work, and a screen pushed later is a
  /// new screen, whose work starts afresh.
  ///
  /// ```swift
  /// .stack(Detail.self, in: \.path) { (scope: Scope) in
  ///   if case .detail(let id) = scope { id } else { nil }
  /// }
  /// ```
  /// - Parameters:
  ///   - screen: The screens' feature: one screen, or an enum of screens.
  ///   - stack: The stack in the parent's state.
  ///   - id: The screen's id in a scope the executor made for it, or `nil` for any other scope.
  /// - Returns: The declaration, for the feature's ``Feature/childWork``.
  /// - Complexity: O(1) per piece of a screen's work, after each event.
  @inlinable
  package static func stack<Screen: Feature, Scope>(
    _ screen: Screen.Type, in stack: KeyPath<State, ScreenStack<Screen.State>>,
    id: @escaping @Sendable (Scope) -> ScreenStack<Screen.State>.ID?
  ) -> Self {
    let declaration = Self { path, parent in
      guard let scope = path.first?.base as? Scope, let id = id(scope) else { return nil }
      let entries = parent[keyPath: stack].entries
      guard let position = entries.positions[id] else { return .gone }
      return Screen.lifetime(ofWorkIn: path.dropFirst(), state: entries.elements[position].screen)
        .identified(by: entries.stamps[position])
    } fingerprint: { parent in
      Screen.childWork.isEmpty ? parent[keyPath: stack].entries.structure : nil
    }
    return declaration.reading(structureOfStateAt(Screen.self, stack) { $0.entries.structure })
  }
}
