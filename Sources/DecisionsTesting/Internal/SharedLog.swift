import Decisions

/// An append-only list that any thread can add to: the storage behind ``Calls``, ``Journal`` and
/// the failure collector of the helpers' own tests.
package final class SharedLog<Value: Sendable>: Sendable {
  private let storage = Protected<[Value]>([])

  /// Creates an empty log.
  package init() {}

  /// Appends a value.
  package func append(_ value: Value) {
    storage.withLock { $0.append(value) }
  }

  /// Everything appended so far, in order.
  package var all: [Value] {
    storage.withLock { $0 }
  }

  /// How many values were appended.
  package var count: Int {
    storage.withLock { $0.count }
  }
}
