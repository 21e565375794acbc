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
/// a buffer of its own, which holds at most the policy's limit of states.
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
    @usableFromInline var batch = StateBatch<State>()

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
