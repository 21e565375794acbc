import Foundation

// NB: not `Synchronization.Mutex`: on Linux a contended `Mutex` is handed over inside the kernel (a
// priority-inheritance futex), where ThreadSanitizer cannot see it, so `swift test
// --sanitize=thread` would report races that are not there. `NSLock` is a pthread mutex, which
// ThreadSanitizer understands, and it is public API on every platform, so the examples stay
// copyable.
/// A value behind a lock, shared between threads.
package final class LockedValue<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  /// Creates a lock protecting `value`.
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with exclusive access to the value.
  package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
