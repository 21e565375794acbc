import Decisions

/// A one-shot gate that work can wait on until the test opens it: a deterministic stand-in for "slow"
/// work, with no clocks or sleeps.
public final class Gate: Sendable {
  private struct Contents {
    var isOpen = false
    var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var nextID: UInt64 = 0
  }
  private let contents = Protected(Contents())

  /// Creates a closed gate.
  public init() {}

  /// Opens the gate, resuming every waiter.
  ///
  /// Later waits return at once.
  public func open() {
    let waiters = contents.withLock { contents in
      contents.isOpen = true
      defer { contents.waiters = [:] }
      return contents.waiters
    }
    for waiter in waiters.values { waiter.resume() }
  }

  /// Waits until the gate opens, ignoring cancellation: work that would send unless something
  /// dropped its events.
  public func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let resumeNow = contents.withLock { contents -> Bool in
        if contents.isOpen { return true }
        contents.nextID += 1
        contents.waiters[contents.nextID] = continuation
        return false
      }
      if resumeNow { continuation.resume() }
    }
  }

  /// Waits until the gate opens or the task is cancelled; returns whether it was cancelled.
  public func waitUnlessCancelled() async -> Bool {
    let id = contents.withLock { contents -> UInt64 in
      contents.nextID += 1
      return contents.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow = contents.withLock { contents -> Bool in
          if contents.isOpen || Task.isCancelled { return true }
          contents.waiters[id] = continuation
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      let waiter = contents.withLock { $0.waiters.removeValue(forKey: id) }
      waiter?.resume()
    }
    return Task.isCancelled
  }
}
