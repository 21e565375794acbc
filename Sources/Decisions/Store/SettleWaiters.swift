/// The callers suspended in ``Store/settle()``, each resumed once the store is settled or its task
/// is cancelled.
///
/// Used only on the store's executor.
// NB: a struct in the store's own storage: it is not generic, so it costs no metadata lookup, and a
// class would cost every store an allocation.
struct SettleWaiters {
  private var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
  private var lastID: UInt64 = 0

  /// Whether no caller waits.
  var isEmpty: Bool { waiters.isEmpty }

  /// Returns an id for a caller about to wait.
  mutating func makeID() -> UInt64 {
    lastID += 1
    return lastID
  }

  /// Keeps a waiting caller's continuation under its id.
  mutating func add(_ continuation: CheckedContinuation<Void, Never>, id: UInt64) {
    waiters[id] = continuation
  }

  /// Resumes the caller with `id`, if it still waits.
  mutating func resume(id: UInt64) {
    waiters.removeValue(forKey: id)?.resume()
  }

  /// Resumes every waiting caller.
  mutating func resumeAll() {
    let resumed = waiters.values
    waiters = [:]
    for waiter in resumed { waiter.resume() }
  }

  /// Suspends the caller, on `isolation`, until the continuation handed to `keep` is resumed; at
  /// once if the task is cancelled already, and calls `onCancel` if it is cancelled meanwhile.
  // NB: `isolation` passed on explicitly: the closures do not capture it otherwise, so they would
  // not run on the caller's isolation, and a waiter kept off the isolation could miss the end of
  // the work it waits for and never be resumed.
  static func wait(
    isolation: isolated (any Actor)?,
    keep: (CheckedContinuation<Void, Never>) -> Void,
    onCancel: @escaping @Sendable () -> Void
  ) async {
    await withTaskCancellationHandler(
      operation: {
        await withCheckedContinuation(isolation: isolation) { continuation in
          if Task.isCancelled { continuation.resume() } else { keep(continuation) }
        }
      },
      onCancel: onCancel,
      isolation: isolation)
  }
}
