extension Store {
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
  /// - Parameter bufferingPolicy: What to keep when the consumer is slower than the store. The default
  ///   keeps every state; `.bufferingNewest(1)` keeps only the latest, which suits rendering.
  /// - Returns: A sequence of states that ends when the store stops or is released.
  public func states(
    bufferingPolicy: AsyncStream<F.State>.Continuation.BufferingPolicy = .unbounded
  ) -> AsyncStream<F.State> {
    let (stream, continuation) = AsyncStream.makeStream(
      of: F.State.self, bufferingPolicy: bufferingPolicy)
    let id = makeObserverID()
    let observer = StateObservers<F.State>.Observer(
      id: id,
      receive: { state in
        if case .terminated = continuation.yield(state) { return false }
        return true
      },
      finish: { continuation.finish() }
    )
    continuation.yield(addObserver(observer))
    if isStopped { continuation.finish() }
    continuation.onTermination = { [weak self] _ in
      Task { await self?.removeObserver(id: id) }
    }
    return stream
  }
}
