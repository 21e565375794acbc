import Decisions

/// Holds work until the test opens it: a load "in flight" without clocks or sleeps.
///
/// Test support, not part of any guide. It uses the package's `Protected` lock, which
/// ThreadSanitizer understands on Linux.
final class Gate: Sendable {
  private struct Contents {
    var isOpen = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }
  private let contents = Protected(Contents())

  /// Opens the gate, resuming every waiter; later waits return at once.
  func open() {
    let waiters = contents.withLock { contents in
      contents.isOpen = true
      defer { contents.waiters = [] }
      return contents.waiters
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Waits until the gate opens, ignoring cancellation: work that would send unless the store
  /// dropped what it sends.
  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = contents.withLock { contents -> Bool in
        if contents.isOpen { return true }
        contents.waiters.append(continuation)
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }
}
