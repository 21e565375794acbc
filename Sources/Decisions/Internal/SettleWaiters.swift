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
}
