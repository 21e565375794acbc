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
