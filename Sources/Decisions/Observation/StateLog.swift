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
