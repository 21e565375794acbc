// NB: one log for all of a store's `.unbounded` readers, rather than a buffer each: with a buffer
// per reader, the store copied each state into every reader's buffer, under each buffer's lock, so
// 100 readers cost the store 100 locked appends per event (`decisions-bench` case 6b). The store
// appends each state to the log once; readers keep their place in it, take everything they missed
// under one lock, and the log drops the states every reader has read.
/// The states a store publishes, shared by all of its readers that want every state.
///
/// The store appends each state on its executor; each ``StateLogReader`` reads from its own place.
/// A state is kept until every reader has read it: the log lets it go as soon as the last reader
/// to read it does so, or leaves. Appending, reading, joining and leaving cost O(1), amortised, per
/// state and reader, whatever the number of readers.
@usableFromInline
final class StateLog<State: Sendable>: @unchecked Sendable {
  @usableFromInline
  struct Contents: ~Copyable {
    /// The states some reader has not read: `states[i]` is state number `base + i`.
    @usableFromInline var states = StateQueue<State>()
    /// The number of the first state in `states`.
    @usableFromInline var base = 0
    /// Where the readers are, so that the lowest place is known without looking at each reader.
    @usableFromInline var places = ReaderPlaces()
    /// How many readers have joined and not left.
    @usableFromInline var readerCount = 0
    /// The readers that waited since the last state came.
    // NB: a reader that leaves while waiting stays listed, and is skipped when the list is next
    // cleared: leaving does not search the list.
    @usableFromInline var waiting: [StateLogReader<State>] = []
    /// The store stopped or went away: no more states come.
    @usableFromInline var isFinished = false
    /// The store let the log go, or is about to: no reader may join.
    @usableFromInline var isClosed = false
    /// How many places and listed readers the log looked at because readers left, for tests of
    /// what leaving costs.
    @usableFromInline var leaveWork = 0

    @inlinable init() {}

    /// The number the next state will have.
    @inlinable var end: Int { base + states.count }

    /// Drops the states below the lowest reader's place: every reader has read them.
    @inlinable
    mutating func trim() {
      let lowest = places.lowest ?? end
      guard lowest > base else { return }
      states.removeFirst(lowest - base)
      base = lowest
    }

    /// Moves `reader` past every state in the log: it has read them, or been handed the last.
    ///
    /// Call ``trim()`` after moving readers.
    @inlinable
    mutating func moveToEnd(_ reader: StateLogReader<State>) {
      reader.cursor = end
      reader.place = places.move(reader.place, to: end)
    }

    /// Skips the readers in `waiting` that left, and empties it.
    @inlinable
    mutating func clearWaiting() {
      for reader in waiting where reader.isTerminated { leaveWork += 1 }
      waiting = []
    }

    /// Closes the log and lets go of its states: no reader may join.
    @inlinable
    mutating func close() {
      isClosed = true
      states = StateQueue()
      clearWaiting()
    }
  }

  // NB: `Protected`, not `Mutex`: ThreadSanitizer cannot see `Mutex` hand a lock over on Linux.
  @usableFromInline let contents = Protected(Contents())
  /// The id of the log's observer in its store.
  @usableFromInline let id: UInt64
  /// Called, off the store's executor, when the last reader leaves.
  @usableFromInline let onEmpty: @Sendable (_ id: UInt64) -> Void

  @inlinable
  init(id: UInt64, onEmpty: @escaping @Sendable (_ id: UInt64) -> Void) {
    self.id = id
    self.onEmpty = onEmpty
  }

  /// Adds a reader whose first state is `first`, the store's current state.
  ///
  /// Returns `nil` when the log is closed or finished, and the store must make a new one. Call it
  /// on the store's executor.
  @inlinable
  func addReader(first: State) -> StateLogReader<State>? {
    contents.withLock { contents -> StateLogReader<State>? in
      guard !contents.isClosed, !contents.isFinished else { return nil }
      let end = contents.end
      let place = contents.places.add(at: end)
      contents.readerCount += 1
      return StateLogReader(log: self, cursor: end, place: place, first: first)
    }
  }

  /// Appends a state, and hands it to the readers waiting for one.
  ///
  /// Returns `false`, and closes the log, when it has no reader left: the store then drops it.
  @inlinable
  func receive(_ state: State) -> Bool {
    let (isOpen, first, others) = contents.withLock {
      contents -> (Bool, UnsafeContinuation<State?, Never>?, [UnsafeContinuation<State?, Never>]) in
      guard contents.readerCount > 0 else {
        contents.close()
        return (false, nil, [])
      }
      contents.states.append(state)
      // NB: a waiting reader gets the state handed over, so its place moves past it.
      var first: UnsafeContinuation<State?, Never>?
      var others: [UnsafeContinuation<State?, Never>] = []
      for reader in contents.waiting {
        guard !reader.isTerminated, let waiter = reader.waiter else {
          contents.leaveWork += 1
          continue
        }
        reader.waiter = nil
        contents.moveToEnd(reader)
        if first == nil { first = waiter } else { others.append(waiter) }
      }
      contents.trim()
      contents.waiting.removeAll(keepingCapacity: true)
      return (true, first, others)
    }
    first?.resume(returning: state)
    for waiter in others { waiter.resume(returning: state) }
    return isOpen
  }

  /// Ends the log: readers read what is left, then their sequences end.
  @inlinable
  func finish() {
    let waiters = contents.withLock { contents -> [UnsafeContinuation<State?, Never>] in
      contents.isFinished = true
      let waiters = contents.waiting.compactMap(\.waiter)
      for reader in contents.waiting { reader.waiter = nil }
      contents.clearWaiting()
      return waiters
    }
    for waiter in waiters { waiter.resume(returning: nil) }
  }

  /// Closes the log if it has no reader, so that none can join, and returns whether it did.
  ///
  /// Call it on the store's executor.
  @usableFromInline
  func closeIfUnused() -> Bool {
    contents.withLock { contents -> Bool in
      guard contents.readerCount == 0 else { return false }
      contents.close()
      return true
    }
  }

  /// How many states the log holds, for tests of its memory.
  var keptCount: Int { contents.withLock { $0.states.heldCount } }

  /// How many places and listed readers the log looked at because readers left, for tests.
  var leaveWork: Int { contents.withLock { $0.leaveWork } }
}

/// One reader of a ``StateLog``: its place in the log.
///
/// Its fields are read and written only under the log's lock.
// NB: unchecked exclusivity: the log's lock already keeps accesses apart, and the dynamic checks
// cost about 60 instructions per state the log hands over.
@usableFromInline
final class StateLogReader<State: Sendable>: @unchecked Sendable {
  @usableFromInline let log: StateLog<State>
  /// The number of the next state to read.
  @exclusivity(unchecked) @usableFromInline var cursor: Int
  /// The number of the reader's place in the log's ``ReaderPlaces``.
  @exclusivity(unchecked) @usableFromInline var place: Int
  /// The store's state when the reader joined, until it is read.
  @exclusivity(unchecked) @usableFromInline var first: State?
  /// The reader's task, while it waits for a state.
  @exclusivity(unchecked) @usableFromInline var waiter: UnsafeContinuation<State?, Never>?
  /// The reader went away or was cancelled.
  @exclusivity(unchecked) @usableFromInline var isTerminated = false

  @inlinable
  init(log: StateLog<State>, cursor: Int, place: Int, first: State) {
    self.log = log
    self.cursor = cursor
    self.place = place
    self.first = first
  }

  /// Takes the states the reader has not read, if any, and moves the reader past them.
  ///
  /// Returns the first and puts the others in `batch`, which must be empty. Call it under the
  /// log's lock.
  @inlinable
  func takeUnread(
    from contents: inout StateLog<State>.Contents, into batch: inout StateBatch<State>
  ) -> State? {
    guard cursor < contents.end else { return nil }
    let index = cursor - contents.base
    let state = contents.states[index]
    if index + 1 < contents.states.count { batch.refill(from: contents.states, at: index + 1) }
    contents.moveToEnd(self)
    contents.trim()
    return state
  }

  /// Returns the next state, and puts every other state the reader has not read in `batch`, which
  /// must be empty; waits for a state if there is none.
  @inlinable
  func next(
    batch: inout StateBatch<State>, isolation actor: isolated (any Actor)? = #isolation
  ) async -> State? {
    let (state, mustWait) = log.contents.withLock { contents -> (State?, Bool) in
      if let first {
        self.first = nil
        return (first, false)
      }
      if isTerminated { return (nil, false) }
      if let state = takeUnread(from: &contents, into: &batch) { return (state, false) }
      return (nil, !contents.isFinished)
    }
    guard mustWait else { return state }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<State?, Never>) in
        let resumeNow = log.contents.withLock { contents -> (resume: Bool, state: State?) in
          if isTerminated { return (true, nil) }
          if let state = takeUnread(from: &contents, into: &batch) { return (true, state) }
          if contents.isFinished || Task.isCancelled { return (true, nil) }
          waiter = continuation
          contents.waiting.append(self)
          return (false, nil)
        }
        if resumeNow.resume { continuation.resume(returning: resumeNow.state) }
      }
    } onCancel: {
      terminate()
    }
  }

  /// Leaves the log: the reader's sequence ends, and the log lets go of the states only it had
  /// not read.
  ///
  /// The last reader to leave tells the store.
  @usableFromInline
  func terminate() {
    let (waiter, wasLast) = log.contents.withLock {
      contents -> (UnsafeContinuation<State?, Never>?, Bool) in
      guard !isTerminated else { return (nil, false) }
      isTerminated = true
      first = nil
      contents.readerCount -= 1
      contents.leaveWork += contents.places.remove(place)
      contents.trim()
      let waiter = self.waiter
      self.waiter = nil
      return (waiter, contents.readerCount == 0)
    }
    waiter?.resume(returning: nil)
    if wasLast { log.onEmpty(log.id) }
  }

  /// Whether the reader waits for a state, for tests.
  var isWaiting: Bool { log.contents.withLock { _ in waiter != nil } }
}

/// Where the readers of a ``StateLog`` are: the number of the next state each will read.
///
/// Readers join at the end of the log and move only to its end, so places come in increasing
/// order. Kept as a queue of places, each with how many readers are at it, the lowest place is the
/// first one, and joining, moving and leaving cost O(1), amortised, without looking at the other
/// readers. A reader knows its place by number; numbers stay valid while places before it go.
@usableFromInline
struct ReaderPlaces {
  /// A place some readers were at.
  @usableFromInline
  struct Place {
    /// The number of the next state the readers at this place will read.
    @usableFromInline var cursor: Int
    /// How many readers are at it.
    @usableFromInline var readers: Int

    @inlinable
    init(cursor: Int, readers: Int) {
      self.cursor = cursor
      self.readers = readers
    }
  }

  // NB: the places before `head` have no reader left and wait to be dropped in one go, so that
  // dropping the lowest place shifts nothing. After `head`, cursors increase; the place at `head`
  // has a reader, and later ones may have none until they come first.
  /// The places, oldest first: `places[i]` is place number `firstNumber + i`.
  @usableFromInline var places: ContiguousArray<Place> = []
  /// The index of the lowest place with a reader, or `places.count` when there is no reader.
  @usableFromInline var head = 0
  /// The number of `places[0]`.
  @usableFromInline var firstNumber = 0

  @inlinable init() {}

  /// The lowest place a reader is at; `nil` when there is no reader.
  @inlinable var lowest: Int? { head < places.count ? places[head].cursor : nil }

  /// Adds a reader at `cursor`, which must be at least every place, and returns its place's number.
  @inlinable
  mutating func add(at cursor: Int) -> Int {
    let last = places.count - 1
    if last >= head, places[last].cursor == cursor || places[last].readers == 0 {
      // NB: a last place with no reader is not the first, so moving it up keeps the order.
      places[last].cursor = cursor
      places[last].readers += 1
    } else {
      places.append(Place(cursor: cursor, readers: 1))
    }
    return firstNumber + places.count - 1
  }

  /// Moves a reader from place `number` to `cursor`, which must be at least every place, and
  /// returns the number of its new place.
  @inlinable
  mutating func move(_ number: Int, to cursor: Int) -> Int {
    let index = number - firstNumber
    if index == places.count - 1, places[index].readers == 1 {
      // NB: alone at the last place: the place moves with it.
      places[index].cursor = cursor
      return number
    }
    places[index].readers -= 1
    let moved = add(at: cursor)
    dropUnused()
    return moved
  }

  /// Removes a reader from place `number`, and returns how many places were let go of.
  @inlinable
  @discardableResult
  mutating func remove(_ number: Int) -> Int {
    places[number - firstNumber].readers -= 1
    return dropUnused()
  }

  /// Lets go of the lowest places while no reader is at them, and returns how many.
  // NB: amortised O(1): each place is let go of once, and moving the places after `head` to the
  // front copies no more of them than were let go of.
  @inlinable
  @discardableResult
  mutating func dropUnused() -> Int {
    let start = head
    while head < places.count, places[head].readers == 0 { head += 1 }
    let dropped = head - start
    guard dropped > 0 else { return 0 }
    if head == places.count {
      firstNumber += head
      head = 0
      places.removeAll(keepingCapacity: places.capacity <= 64)
    } else if head >= 32, head * 2 >= places.count {
      places.removeFirst(head)
      firstNumber += head
      head = 0
    }
    return dropped
  }
}

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
