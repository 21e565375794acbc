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
