import Decisions

/// Lets the steps of one ``StoreTest`` run one at a time, in the order they began: for a test that
/// uses it from several tasks at once.
///
/// A step holds its turn from ``enter()`` to ``leave()``, and never across a wait for the store to
/// settle, which may wait for what another task's step does.
final class StepQueue: Sendable {
  private struct State {
    var isTaken = false
    /// The steps waiting for their turn, oldest first.
    var waiting: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Protected(State())

  /// Returns once it is this step's turn.
  nonisolated(nonsending) func enter() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let isFree = state.withLock { state in
        guard state.isTaken else {
          state.isTaken = true
          return true
        }
        state.waiting.append(continuation)
        return false
      }
      if isFree { continuation.resume() }
    }
  }

  /// Ends this step's turn, and gives it to the step that has waited longest.
  func leave() {
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      guard !state.waiting.isEmpty else {
        state.isTaken = false
        return nil
      }
      return state.waiting.removeFirst()
    }
    next?.resume()
  }
}
