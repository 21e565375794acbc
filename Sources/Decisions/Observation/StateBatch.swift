// NB: an array rather than a `StateQueue`, whose slots are optional: a batch is filled in one go
// and read through, so it need not let go of each state as it is read, and taking one from an
// array is a load and an increment. With a `StateQueue` for a batch, `decisions-bench` case 6
// counted 16,800 instructions per event rather than 7,300 (callgrind): each state was wrapped into
// a slot, then emptied from it, one at a time.
/// States a reader took from the log in one go and has not returned yet, oldest first: read from a
/// head that moves, so taking one shifts nothing, and once read through the batch gives back the
/// room a burst made.
@usableFromInline
struct StateBatch<State> {
  @usableFromInline var states: [State] = []
  /// The index of the oldest unread state in `states`.
  @usableFromInline var head = 0

  @inlinable init() {}

  /// How many states wait.
  @inlinable var count: Int { states.count - head }

  /// Whether no state waits.
  @inlinable var isEmpty: Bool { head == states.count }

  /// How many states the batch has room for.
  var capacity: Int { states.capacity }

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

  /// Replaces the waiting states, if any, with the states of `queue` from `offset` on.
  @inlinable
  mutating func refill(from queue: borrowing StateQueue<State>, at offset: Int) {
    states.removeAll(keepingCapacity: states.capacity <= 64)
    queue.append(from: offset, to: &states)
    head = 0
  }
}

// NB: sendable for the same reason as `StateQueue`.
extension StateBatch: Sendable where State: Sendable {}
