// NB: one log for all of a store's `.unbounded` readers, rather than a buffer each: with a buffer
// per reader, the store copied each state into every reader's buffer, under each buffer's lock, so
// 100 readers cost the store 100 locked appends per event (`decisions-bench` case 6b). The store
// appends each state to the log once; readers keep their place in it, take everything they missed
// under one lock, and the log drops the states every reader has read.
/// The states a store publishes, shared by all of its readers that want every state.
///
/// The store appends each state on its executor; each ``StateLogReader`` reads from its own place.
/// States are kept until every reader has read them.
@usableFromInline
final class StateLog<State: Sendable>: @unchecked Sendable {
  @usableFromInline
  struct Contents: ~Copyable {
    /// The states not yet read by every reader: `states[i]` is state number `base + i`.
    @usableFromInline var states: [State] = []
    /// The number of the first state in `states`.
    @usableFromInline var base = 0
    /// The readers, each with its place.
    @usableFromInline var readers: [StateLogReader<State>] = []
    /// The readers waiting for the next state.
    @usableFromInline var waiting: [StateLogReader<State>] = []
    /// The store stopped or went away: no more states come.
    @usableFromInline var isFinished = false
    /// The store let the log go, or is about to: no reader may join.
    @usableFromInline var isClosed = false
    /// The count of `states` at which the log next drops what every reader has read.
    @usableFromInline var trimAt = Contents.minimumTrim

    @inlinable init() {}

    /// The number the next state will have.
    @inlinable var end: Int { base + states.count }

    @inlinable static var minimumTrim: Int { 256 }

    /// Drops the states every reader has read, and the room of a burst that has been read.
    @inlinable
    mutating func trim() {
      var lowest = end
      for reader in readers where reader.cursor < lowest { lowest = reader.cursor }
      let read = lowest - base
      if read > 0 {
        states.removeFirst(read)
        base = lowest
      }
      if states.capacity > 4 * Contents.minimumTrim, states.count < states.capacity / 8 {
        states = Array(states)
      }
      trimAt = Swift.max(Contents.minimumTrim, 2 * states.count)
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
      let reader = StateLogReader(log: self, cursor: contents.end, first: first)
      contents.readers.append(reader)
      return reader
    }
  }

  /// Appends a state, and hands it to the readers waiting for one.
  ///
  /// Returns `false`, and closes the log, when it has no reader left: the store then drops it.
  @inlinable
  func receive(_ state: State) -> Bool {
    let (isOpen, first, others) = contents.withLock {
      contents -> (Bool, UnsafeContinuation<State?, Never>?, [UnsafeContinuation<State?, Never>]) in
      guard !contents.readers.isEmpty else {
        contents.isClosed = true
        contents.states = []
        return (false, nil, [])
      }
      contents.states.append(state)
      let end = contents.end
      // NB: a waiting reader gets the state handed over, so its place moves past it.
      var first: UnsafeContinuation<State?, Never>?
      var others: [UnsafeContinuation<State?, Never>] = []
      for reader in contents.waiting {
        reader.cursor = end
        guard let waiter = reader.waiter else { continue }
        reader.waiter = nil
        if first == nil { first = waiter } else { others.append(waiter) }
      }
      contents.waiting.removeAll(keepingCapacity: true)
      if contents.states.count >= contents.trimAt { contents.trim() }
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
      contents.waiting = []
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
      guard contents.readers.isEmpty else { return false }
      contents.isClosed = true
      contents.states = []
      return true
    }
  }

  /// How many states the log keeps, for tests of its memory.
  var keptCount: Int { contents.withLock { $0.states.count } }
}

/// One reader of a ``StateLog``: its place in the log.
///
/// Its fields are read and written only under the log's lock.
@usableFromInline
final class StateLogReader<State: Sendable>: @unchecked Sendable {
  @usableFromInline let log: StateLog<State>
  /// The number of the next state to read.
  @usableFromInline var cursor: Int
  /// The store's state when the reader joined, until it is read.
  @usableFromInline var first: State?
  /// The reader's task, while it waits for a state.
  @usableFromInline var waiter: UnsafeContinuation<State?, Never>?
  /// The reader went away or was cancelled.
  @usableFromInline var isTerminated = false

  @inlinable
  init(log: StateLog<State>, cursor: Int, first: State) {
    self.log = log
    self.cursor = cursor
    self.first = first
  }

  /// Returns the next state, and puts every other state the reader has not read in `batch`, which
  /// must be empty; waits for a state if there is none.
  @inlinable
  func next(
    batch: inout StateQueue<State>, isolation actor: isolated (any Actor)? = #isolation
  ) async -> State? {
    let (state, mustWait) = log.contents.withLock { contents -> (State?, Bool) in
      if let first {
        self.first = nil
        return (first, false)
      }
      if isTerminated { return (nil, false) }
      let end = contents.end
      guard cursor < end else { return (nil, !contents.isFinished) }
      let index = cursor - contents.base
      let state = contents.states[index]
      if index + 1 < contents.states.count {
        batch.refill(with: contents.states[(index + 1)...])
      }
      cursor = end
      return (state, false)
    }
    guard mustWait else { return state }
    return await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<State?, Never>) in
        let resumeNow = log.contents.withLock { contents -> (resume: Bool, state: State?) in
          if cursor < contents.end {
            let state = contents.states[cursor - contents.base]
            cursor += 1
            return (true, state)
          }
          if contents.isFinished || isTerminated || Task.isCancelled { return (true, nil) }
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

  /// Leaves the log: the reader's sequence ends.
  ///
  /// The last reader to leave tells the store.
  @usableFromInline
  func terminate() {
    let (waiter, wasLast) = log.contents.withLock {
      contents -> (UnsafeContinuation<State?, Never>?, Bool) in
      guard !isTerminated else { return (nil, false) }
      isTerminated = true
      first = nil
      contents.readers.removeAll { $0 === self }
      contents.waiting.removeAll { $0 === self }
      let waiter = self.waiter
      self.waiter = nil
      if contents.states.count >= StateLog<State>.Contents.minimumTrim { contents.trim() }
      return (waiter, contents.readers.isEmpty)
    }
    waiter?.resume(returning: nil)
    if wasLast { log.onEmpty(log.id) }
  }

  /// Whether the reader waits for a state, for tests.
  var isWaiting: Bool { log.contents.withLock { _ in waiter != nil } }
}
