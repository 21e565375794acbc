/// States waiting to be read, oldest first: read from a head that moves, so taking one shifts
/// nothing, and once read through the queue gives back the room a burst made.
@usableFromInline
struct StateQueue<State> {
  @usableFromInline var states: [State] = []
  /// The index of the oldest unread state in `states`.
  @usableFromInline var head = 0

  @inlinable init() {}

  /// How many states wait.
  @inlinable var count: Int { states.count - head }

  /// Whether no state waits.
  @inlinable var isEmpty: Bool { head == states.count }

  /// Adds a state after the others.
  @inlinable
  mutating func append(_ state: State) {
    states.append(state)
  }

  /// Drops the oldest waiting state; the queue must not be empty.
  @inlinable
  mutating func dropOldest() {
    _ = take()
  }

  /// Takes the oldest waiting state, if any.
  @inlinable
  mutating func take() -> State? {
    guard head < states.count else { return nil }
    let state = states[head]
    head += 1
    if head == states.count {
      // NB: keeps no state it has handed out, and after a burst, not the burst's room either.
      states.removeAll(keepingCapacity: states.capacity <= 64)
      head = 0
    }
    return state
  }

  /// Replaces the waiting states, if any, with `newStates`.
  @inlinable
  mutating func refill(with newStates: ArraySlice<State>) {
    states.removeAll(keepingCapacity: states.capacity <= 64)
    states.append(contentsOf: newStates)
    head = 0
  }
}
