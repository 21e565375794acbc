extension Store {
  // NB: inlinable, so that the closures that hand states to the sequence are specialized for the
  // feature's state in the caller's module: see `StateSequence`.
  /// Returns the store's states as an asynchronous sequence, starting with the current state.
  ///
  /// Each processed event yields the state after it. The sequence ends when the store stops or is
  /// released; stop iterating (or cancel the iterating task) to unsubscribe.
  ///
  /// ```swift
  /// for await state in await store.states() {
  ///   render(state)
  /// }
  /// ```
  /// - Parameter bufferingPolicy: What to keep when the reader is slower than the store. The
  ///   default keeps every state; `.bufferingNewest(1)` keeps only the latest, which suits
  ///   rendering.
  /// - Returns: A sequence of states that ends when the store stops or is released.
  @inlinable
  public func states(
    bufferingPolicy: StateSequence<F.State>.BufferingPolicy = .unbounded
  ) -> StateSequence<F.State> {
    if case .unbounded = bufferingPolicy,
      let reader = stateLogReader(makeLog: { id in
        let log = StateLog<F.State>(id: id) { [weak self] id in
          Task { await self?.releaseStateLog(id: id) }
        }
        let observer = StateObserver(
          id: id, of: F.State.self, receive: { log.receive($0) }, finish: { log.finish() })
        return (log, observer)
      })
    {
      return StateSequence(source: StateSource(.log(reader)))
    }
    let buffer = StateBuffer<F.State>(policy: bufferingPolicy)
    let id = makeObserverID()
    let observer = StateObserver(
      id: id, of: F.State.self, receive: { buffer.receive($0) }, finish: { buffer.finish() })
    _ = buffer.receive(addObserver(observer))
    if isStopped { buffer.finish() }
    buffer.onTermination { [weak self] in
      Task { await self?.removeObserver(id: id) }
    }
    return StateSequence(source: StateSource(.buffer(buffer)))
  }
}

// MARK: - Observers

// NB: the plumbing that `states()` and `ObservableStore` use, forwarded to the store's publisher
// (StorePublisher.swift), made with the first observer.
extension Store {
  /// Attaches an observer and returns the current state, atomically, so no state is missed.
  ///
  /// An observer attached to a stopped store is not kept; the caller finishes it after using the
  /// state.
  /// - Parameters:
  ///   - observer: The observer to attach.
  ///   - latestOnly: Whether the observer wants only the latest state, once the store has caught up
  ///     with posted events, instead of every state.
  /// - Returns: The current state.
  @usableFromInline
  func addObserver(_ observer: StateObserver, latestOnly: Bool = false) -> F.State {
    if !loop.isStopped { madePublisher.add(observer, latestOnly: latestOnly) }
    return loop.state
  }

  /// Adds a reader to the store's log of states for `.unbounded` readers, making the log with
  /// `makeLog` (from an observer id) if the store has none open; `nil` once the store has stopped.
  @usableFromInline
  func stateLogReader(
    makeLog: (_ id: UInt64) -> (StateLog<F.State>, StateObserver)
  ) -> StateLogReader<F.State>? {
    guard !loop.isStopped else { return nil }
    return madePublisher.stateLogReader(first: loop.state, makeLog: makeLog)
  }

  /// Lets the log of states with observer `id` go if it still has no reader: its last reader left.
  @usableFromInline
  func releaseStateLog(id: UInt64) {
    publisher?.releaseStateLog(id: id)
  }

  /// Returns an id for a new observer.
  @usableFromInline
  func makeObserverID() -> UInt64 {
    madePublisher.makeObserverID()
  }

  /// Detaches the observer with `id`.
  @usableFromInline
  func removeObserver(id: UInt64) {
    publisher?.remove(id: id)
  }

  /// The publisher, made now and made the loop's hook if no observer came before.
  var madePublisher: StorePublisher<F> {
    if let publisher { return publisher }
    let publisher = StorePublisher<F>(posted: posted)
    self.publisher = publisher
    loop.setHook(publisher)
    return publisher
  }

  /// How many observers are attached, for tests.
  var observerCount: Int { publisher?.count ?? 0 }

  /// How many states the log of `.unbounded` readers keeps, for tests of its memory.
  var stateLogKeptCount: Int { publisher?.stateLogKeptCount ?? 0 }
}
