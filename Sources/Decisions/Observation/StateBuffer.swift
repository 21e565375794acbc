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
