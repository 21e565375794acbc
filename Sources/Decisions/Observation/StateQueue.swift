/// States in order, oldest first, in a ring of slots: taking the oldest, or dropping the oldest few,
/// shifts nothing and lets go of them at once.
///
/// It holds a store's log of states and the buffer of each reader with a bounded policy.
///
/// A slot holds a state only while the state is in the queue, so the queue holds `count` states,
/// whatever it has handed out or dropped. It doubles its slots when full, and gives back the room
/// of a burst as the burst is read: it keeps no more than 64 slots when empty, and moves into a
/// quarter of its slots when fewer than an eighth of them are used. Every operation is O(1),
/// amortised, per state added or removed.
@usableFromInline
struct StateQueue<State> {
  // NB: a power of two of slots, or none, so that a position in the ring is a mask away.
  @usableFromInline var slots: ContiguousArray<State?> = []
  /// The slot of the oldest state.
  @usableFromInline var head = 0
  /// How many states the queue holds.
  @usableFromInline var count = 0

  @inlinable init() {}

  /// How many slots an empty queue keeps for the next states.
  @inlinable static var keptCapacity: Int { 64 }

  /// How many states the queue has room for before it grows.
  var capacity: Int { slots.count }

  /// Whether the queue holds no state.
  @inlinable var isEmpty: Bool { count == 0 }

  /// How many slots hold a state, counted one by one, for tests of the queue's memory.
  var heldCount: Int { slots.reduce(0) { $1 == nil ? $0 : $0 + 1 } }

  /// The state `offset` places after the oldest; `offset` must be less than `count`.
  @inlinable
  subscript(offset: Int) -> State {
    slots[(head &+ offset) & (slots.count &- 1)].unsafelyUnwrapped
  }

  /// Adds a state after the others.
  @inlinable
  mutating func append(_ state: State) {
    if count == slots.count { moveToSlots(Swift.max(8, 2 * slots.count)) }
    slots[(head &+ count) & (slots.count &- 1)] = state
    count += 1
  }

  /// Appends the states from `offset` on, in order, to `array`.
  // NB: writes the states straight into the array, in at most two stretches without a wrap, which
  // a lazy map into `append(contentsOf:)` did not: it cost about 30 instructions per state in
  // `decisions-bench` case 6b.
  @inlinable
  func append(from offset: Int, to array: inout [State]) {
    let total = count - offset
    guard total > 0 else { return }
    slots.withUnsafeBufferPointer { slots in
      let start = (head &+ offset) & (slots.count &- 1)
      let first = Swift.min(total, slots.count &- start)
      if array.isEmpty, array.capacity < total {
        array = [State](unsafeUninitializedCapacity: total) { buffer, initialized in
          for index in 0..<first {
            buffer.initializeElement(at: index, to: slots[start &+ index].unsafelyUnwrapped)
          }
          for index in first..<total {
            buffer.initializeElement(at: index, to: slots[index &- first].unsafelyUnwrapped)
          }
          initialized = total
        }
      } else {
        array.reserveCapacity(array.count + total)
        for index in 0..<first { array.append(slots[start &+ index].unsafelyUnwrapped) }
        for index in first..<total { array.append(slots[index &- first].unsafelyUnwrapped) }
      }
    }
  }

  /// Takes the oldest state, if any.
  @inlinable
  mutating func take() -> State? {
    guard count > 0 else { return nil }
    let state = slots[head].take()
    head = (head &+ 1) & (slots.count &- 1)
    count -= 1
    giveBackRoomIfSparse()
    return state
  }

  /// Drops the oldest state; the queue must not be empty.
  @inlinable
  mutating func dropOldest() {
    _ = take()
  }

  /// Drops the `dropped` oldest states; there must be that many.
  @inlinable
  mutating func removeFirst(_ dropped: Int) {
    let mask = slots.count &- 1
    for offset in 0..<dropped { slots[(head &+ offset) & mask] = nil }
    head = (head &+ dropped) & mask
    count -= dropped
    giveBackRoomIfSparse()
  }

  /// Gives back the room a burst made once it is read: all but 64 slots when empty, and three
  /// quarters of the slots when fewer than an eighth are used.
  // NB: amortised O(1): a move copies fewer than an eighth of the slots, after at least three
  // eighths of them were emptied since the queue last grew or moved.
  @inlinable
  mutating func giveBackRoomIfSparse() {
    if count == 0 {
      head = 0
      if slots.count > Self.keptCapacity { slots = [] }
    } else if slots.count > Self.keptCapacity, count < slots.count / 8 {
      moveToSlots(slots.count / 4)
    }
  }

  /// Moves the states, in order, to `size` new slots, at least `count` of them.
  @inlinable
  mutating func moveToSlots(_ size: Int) {
    var moved = ContiguousArray<State?>(repeating: nil, count: size)
    let mask = slots.count &- 1
    for offset in 0..<count { moved[offset] = slots[(head &+ offset) & mask].take() }
    slots = moved
    head = 0
  }
}

// NB: sendable, so that the log's states and a reader's batch do not join one isolation region when
// the reader takes its batch under the log's lock.
extension StateQueue: Sendable where State: Sendable {}
