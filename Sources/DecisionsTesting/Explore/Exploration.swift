import Decisions

/// The graph of states a core can reach, as found by ``explore(_:from:key:limits:events:)``: each
/// distinct state once, every transition between them, and the shortest path to each state.
///
/// States are numbered in the order the breadth-first search found them, so state `0` is the
/// initial state and a state's number never comes before its parent's. With a key abstraction, the
/// state kept for a key is the first one found with it, which is one a shortest path reaches.
///
/// Checks over the graph (``expectInvariant(_:fileID:filePath:line:column:_:)`` and the others, in
/// `Exploration+Checks.swift`) fail the test with the shortest story to the offending state, ready to
/// paste into a test as a ``CoreTest``.
public struct Exploration<C: Core, Key: Hashable> {
  /// One event sent through the core in one explored state.
  public struct Transition {
    /// The number of the state the event was sent in.
    public var from: Int
    /// The event.
    public var event: C.Event
    /// The decisions the core returned.
    public var decisions: [C.Decision]
    /// The number of the state the core produced (of the state with its key).
    public var to: Int
  }

  /// One transition with both of its states, as a transition invariant sees it.
  public typealias Step = CoreStep<C>

  /// The state the search started from: state `0`.
  public var initialState: C.State { states[0] }
  /// The distinct states found, in the order they were found: index `i` is state `i`.
  public private(set) var states: [C.State] = []
  /// Every transition explored, grouped by the state it leaves, in the order the states were found.
  public private(set) var transitions: [Transition] = []
  /// The limit that cut the search, or nil when it explored every reachable state.
  public private(set) var limitReached: ExplorationLimits.Reached?

  /// What identifies a state: the key the search was given, or the state itself.
  ///
  /// NB: not `@Sendable`, so that the identity can be made for a state whose `Hashable` is
  /// isolated to the main actor (SE-0470: a `@Sendable` closure of a generic function captures the
  /// state's metatype, which then must be `SendableMetatype`). The conditional `Sendable` below
  /// stays sound: the key is either the caller's `@Sendable` function or the identity.
  let key: (C.State) -> Key
  /// The number of the state with each key.
  private(set) var numbers: [Key: Int] = [:]
  /// For each state, the transition that first reached it (`-1` for the initial state).
  private(set) var parents: [Int] = []
  /// For each state, how many events from the initial state it is.
  private(set) var depths: [Int] = []
  /// For each state, its transitions in `transitions`.
  private(set) var outgoing: [Range<Int>] = []
  /// For each state, whether every event tried in it led to a kept state (false when a limit cut
  /// its transitions, or the depth limit left it unexpanded).
  private(set) var isExpanded: [Bool] = []

  init(initialState: C.State, key: @escaping (C.State) -> Key) {
    self.key = key
    _ = add(initialState, key: key(initialState), parent: -1, depth: 0)
  }

  /// Whether the search explored every reachable state: no limit cut it.
  public var isComplete: Bool { limitReached == nil }

  /// The transitions that leave state `number`, in the order its events were listed.
  public func transitions(from number: Int) -> ArraySlice<Transition> {
    transitions[outgoing[number]]
  }

  /// The number of the explored state with the key of `state`, or nil if none has it.
  public func number(of state: C.State) -> Int? {
    numbers[key(state)]
  }

  /// The transitions of the shortest path from the initial state to state `number`, in order.
  public func shortestPath(to number: Int) -> [Transition] {
    var path: [Transition] = []
    var current = number
    while parents[current] >= 0 {
      let transition = transitions[parents[current]]
      path.append(transition)
      current = transition.from
    }
    return path.reversed()
  }

  /// Sends transition `index`'s event again in its state and returns the whole step.
  func step(_ index: Int) -> Step {
    let transition = transitions[index]
    var after = states[transition.from]
    let decisions = C.makeDecisions(event: transition.event, state: &after)
    return Step(
      before: states[transition.from], event: transition.event, after: after,
      decisions: decisions)
  }

  /// The bytes the graph's own storage holds, for the benchmark.
  ///
  /// It is each array's and the index's capacity times the size of its elements. Heap memory that
  /// states, keys or events point to is not counted.
  package var storageBytes: Int {
    func bytes<T>(_ array: [T]) -> Int { array.capacity * MemoryLayout<T>.stride }
    let index = numbers.capacity * (MemoryLayout<Key>.stride + MemoryLayout<Int>.stride)
    return bytes(states) + bytes(transitions) + bytes(parents) + bytes(depths) + bytes(outgoing)
      + bytes(isExpanded) + index
  }

  // MARK: - Search

  /// Adds a state found by `parent` and returns its number.
  private mutating func add(_ state: C.State, key: Key, parent: Int, depth: Int) -> Int {
    let number = states.count
    states.append(state)
    numbers[key] = number
    parents.append(parent)
    depths.append(depth)
    outgoing.append(0..<0)
    isExpanded.append(false)
    return number
  }

  /// Expands the states breadth first, in the order they were found, until none is left.
  mutating func search(events: (C.State) -> [C.Event], limits: ExplorationLimits) {
    var next = 0
    // NB: `states` is the queue: states are numbered in the order they are found, so expanding
    // them by number is breadth first.
    while next < states.count {
      let from = next
      next += 1
      guard depths[from] < limits.depth else {
        limitReached = limitReached ?? .depth(limits.depth)
        continue
      }
      let first = transitions.count
      var expanded = true
      let state = states[from]
      for event in events(state) {
        var after = state
        let decisions = C.makeDecisions(event: event, state: &after)
        let afterKey = key(after)
        let to: Int
        if let known = numbers[afterKey] {
          to = known
        } else if states.count < limits.states {
          to = add(after, key: afterKey, parent: transitions.count, depth: depths[from] + 1)
        } else {
          limitReached = .states(limits.states)
          expanded = false
          continue
        }
        transitions.append(Transition(from: from, event: event, decisions: decisions, to: to))
      }
      outgoing[from] = first..<transitions.count
      isExpanded[from] = expanded
    }
  }
}

extension Exploration.Transition: Equatable
where C.Event: Equatable, C.Decision: Equatable {}

extension Exploration: CustomStringConvertible {
  /// A one-line summary: "FactFeature: 6 states, 18 transitions, complete".
  public var description: String {
    "\(typeName(C.self)): \(states.count) states, \(transitions.count) transitions, "
      + (limitReached.map { "cut by \($0)" } ?? "complete")
  }
}

// NB: `@unchecked` for `key`, which is `@Sendable` or the identity (see its note). A main-actor
// feature's exploration may cross to another isolation, but nothing can be done with it there:
// every method needs the feature's conformance to `Core`, which is isolated to the main actor.
extension Exploration: @unchecked Sendable
where Key: Sendable, C.State: Sendable, C.Event: Sendable, C.Decision: Sendable {}

extension Exploration.Transition: Sendable
where C.State: Sendable, C.Event: Sendable, C.Decision: Sendable {}
