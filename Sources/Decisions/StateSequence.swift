// NB: not `AsyncStream`: its storage is generic code in the concurrency library that is never
// specialized, and looked up type metadata several times per state, about 15,000 instructions per
// state and reader in `decisions-bench` case 6. This sequence's code is inlinable, so the store's
// `states()` and the reader's loop are specialized for the feature's state in the caller's module.
/// The states of a ``Store``, as an asynchronous sequence: what ``Store/states(bufferingPolicy:)``
/// returns.
///
/// It starts with the store's state when it was made, then yields the state after each event, in
/// order, and ends when the store stops or is released. A reader that falls behind does not slow
/// the store: the states it has not read wait for it, and it takes them without suspending. A
/// reader is woken only when it waits, once per wait, not once per state.
///
/// With the default policy, `.unbounded`, a store's readers share one log of states: the store
/// adds each state once however many read it, a reader takes all it missed under one lock, and the
/// log keeps a state only until every reader has read it. With the other policies each reader has
/// a buffer of its own, which the policy bounds.
///
/// Iterate it from one task. Dropping the iterator, or cancelling the task that waits in it, ends
/// the sequence and detaches it from the store; so does dropping a sequence that was never
/// iterated.
public struct StateSequence<State: Sendable>: AsyncSequence, Sendable {
  /// A state of the store.
  public typealias Element = State
  /// Reading states never fails.
  public typealias Failure = Never

  /// What a sequence keeps when its reader is slower than the store.
  public enum BufferingPolicy: Sendable, Hashable {
    /// Every state, in order: the reader sees each one.
    case unbounded
    /// Only the newest `limit` states: older unread ones are dropped. `.bufferingNewest(1)` gives
    /// a reader the latest state only, which suits rendering.
    case bufferingNewest(Int)
    /// Only the oldest `limit` unread states: newer ones are dropped while the buffer is full.
    case bufferingOldest(Int)
  }

  @usableFromInline let source: StateSource<State>

  @inlinable
  init(source: StateSource<State>) {
    self.source = source
  }

  /// Makes the iterator; the sequence is meant to be iterated once.
  @inlinable
  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(source: source)
  }

  /// Reads the states in order.
  public struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline let source: StateSource<State>
    // NB: ends the sequence when the last copy of the iterator goes away.
    @usableFromInline let lifetime: IteratorLifetime<State>
    /// States taken from the store's log in one go and not yet returned: with the `.unbounded`
    /// policy, a reader that fell behind takes all it missed under one lock.
    @usableFromInline var batch = StateQueue<State>()

    @inlinable
    init(source: StateSource<State>) {
      self.source = source
      self.lifetime = IteratorLifetime(source: source)
    }

    @inlinable
    mutating func nextState(isolation actor: isolated (any Actor)? = #isolation) async -> State? {
      if let state = batch.take() { return state }
      switch source.kind {
      case .log(let reader):
        return await reader.next(batch: &batch)
      case .buffer(let buffer):
        // NB: one state at a time: a batch taken early would hand the reader states that the
        // policy would have dropped by the time it reads them.
        return await buffer.next()
      }
    }

    /// Returns the next state, waiting for the store if none is buffered; `nil` once the store has
    /// stopped or been released and every buffered state was read, or once the waiting task is
    /// cancelled.
    @inlinable
    public mutating func next() async -> State? {
      await nextState(isolation: nil)
    }

    /// Returns the next state, like ``next()``.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> State? {
      await nextState(isolation: actor)
    }
  }
}

/// Where a sequence's states come from: the store's shared log, or a buffer of the reader's own.
///
/// The log serves the `.unbounded` policy; a buffer serves the other policies, and a stopped store.
/// Ends the sequence when the sequence and its iterators are all gone, iterated or not.
@usableFromInline
final class StateSource<State: Sendable>: Sendable {
  @usableFromInline
  enum Kind: Sendable {
    case log(StateLogReader<State>)
    case buffer(StateBuffer<State>)
  }

  @usableFromInline let kind: Kind

  @inlinable
  init(_ kind: Kind) {
    self.kind = kind
  }

  /// Ends the sequence and detaches it from the store.
  @usableFromInline
  func terminate() {
    switch kind {
    case .log(let reader): reader.terminate()
    case .buffer(let buffer): buffer.terminate()
    }
  }

  deinit {
    terminate()
  }
}

/// Ends a sequence when its iterator goes away.
@usableFromInline
final class IteratorLifetime<State: Sendable>: Sendable {
  @usableFromInline let source: StateSource<State>

  @inlinable
  init(source: StateSource<State>) {
    self.source = source
  }

  deinit {
    source.terminate()
  }
}

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

/// The buffer between a store, which offers it states on its executor, and one reader.
@usableFromInline
final class StateBuffer<State: Sendable>: Sendable {
  @usableFromInline
  struct Contents: ~Copyable {
    /// The unread states.
    @usableFromInline var pending = StateQueue<State>()
    /// The reader waiting for a state, if any.
    @usableFromInline var waiter: UnsafeContinuation<State?, Never>?
    /// The store stopped or went away: no more states come.
    @usableFromInline var isFinished = false
    /// The reader went away or was cancelled: states are no longer wanted.
    @usableFromInline var isTerminated = false
    /// Called once when the reader ends the sequence.
    @usableFromInline var onTermination: (@Sendable () -> Void)?

    @inlinable init() {}
  }

  // NB: `Protected`, not `Mutex`: ThreadSanitizer cannot see `Mutex` hand a lock over on Linux.
  @usableFromInline let contents = Protected(Contents())
  @usableFromInline let policy: StateSequence<State>.BufferingPolicy

  @inlinable
  init(policy: StateSequence<State>.BufferingPolicy) {
    self.policy = policy
  }

  /// Sets what to call when the reader ends the sequence.
  @inlinable
  func onTermination(_ handler: @escaping @Sendable () -> Void) {
    contents.withLock { $0.onTermination = handler }
  }

  /// Offers a state: hands it to a waiting reader, or keeps it by the policy.
  ///
  /// - Returns: `false` once the reader has ended the sequence, so the store drops this observer.
  @inlinable
  func receive(_ state: State) -> Bool {
    let (waiter, isWanted) = contents.withLock {
      contents -> (UnsafeContinuation<State?, Never>?, Bool) in
      if contents.isTerminated || contents.isFinished { return (nil, !contents.isTerminated) }
      if let waiter = contents.waiter {
        contents.waiter = nil
        return (waiter, true)
      }
      switch policy {
      case .unbounded:
        contents.pending.append(state)
      case .bufferingNewest(let limit):
        guard limit > 0 else { break }
        contents.pending.append(state)
        if contents.pending.count > limit { contents.pending.dropOldest() }
      case .bufferingOldest(let limit):
        if contents.pending.count < limit { contents.pending.append(state) }
      }
      return (nil, true)
    }
    waiter?.resume(returning: state)
    return isWanted
  }

  /// Ends the sequence from the store's side: the reader reads what is buffered, then `nil`.
  @usableFromInline
  func finish() {
    let waiter = contents.withLock { contents -> UnsafeContinuation<State?, Never>? in
      contents.isFinished = true
      defer { contents.waiter = nil }
      return contents.waiter
    }
    waiter?.resume(returning: nil)
  }

  /// Ends the sequence from the reader's side: it went away or was cancelled.
  @usableFromInline
  func terminate() {
    let (waiter, handler) = contents.withLock {
      contents -> (UnsafeContinuation<State?, Never>?, (@Sendable () -> Void)?) in
      guard !contents.isTerminated else { return (nil, nil) }
      contents.isTerminated = true
      contents.pending = StateQueue()
      defer {
        contents.waiter = nil
        contents.onTermination = nil
      }
      return (contents.waiter, contents.onTermination)
    }
    waiter?.resume(returning: nil)
    handler?()
  }

  /// Returns the next state, waiting for one if none is buffered.
  @inlinable
  func next() async -> State? {
    // NB: the common case, a state already buffered, takes the lock once and does not suspend.
    let (state, mustWait) = contents.withLock { contents -> (State?, Bool) in
      if let state = contents.pending.take() { return (state, false) }
      return (nil, !(contents.isFinished || contents.isTerminated))
    }
    guard mustWait else { return state }
    return await wait()
  }

  /// Waits for the next state: the store hands it over directly.
  @inlinable
  func wait() async -> State? {
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (continuation: UnsafeContinuation<State?, Never>) in
        let resumeNow = contents.withLock { contents -> (resume: Bool, state: State?) in
          if let state = contents.pending.take() { return (true, state) }
          if contents.isFinished || contents.isTerminated || Task.isCancelled {
            return (true, nil)
          }
          contents.waiter = continuation
          return (false, nil)
        }
        if resumeNow.resume { continuation.resume(returning: resumeNow.state) }
      }
    } onCancel: {
      terminate()
    }
  }
}
