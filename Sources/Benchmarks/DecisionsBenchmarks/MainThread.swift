import Dispatch
import Synchronization

/// The main thread, for cases that need it but not its queue: a `MainStore` whose events are sent
/// synchronously (case 16).
///
/// Valgrind 3.19 crashes once the main thread parks in `dispatch_main`, so when no selected case
/// needs the main queue drained (8, 9, 14), `main.swift` keeps the main thread here instead, running
/// the jobs that ``run(_:)`` hands it, and such a case can be counted under callgrind.
enum MainThread {
  /// Whether the main thread runs jobs in ``serve()`` rather than the main queue in `dispatch_main`.
  ///
  /// Set before the first case starts, and never again.
  nonisolated(unsafe) static var isServing = false

  private static let jobs = Mutex<[@MainActor @Sendable () -> Void]>([])
  private static let available = DispatchSemaphore(value: 0)

  /// Runs `body` on the main thread and returns what it returns.
  static func run<Result: Sendable>(
    _ body: @escaping @MainActor @Sendable () -> Result
  ) async -> Result {
    guard isServing else { return await MainActor.run { body() } }
    return await withCheckedContinuation { continuation in
      jobs.withLock { $0.append { continuation.resume(returning: body()) } }
      available.signal()
    }
  }

  /// Runs the jobs handed to ``run(_:)``, in order, until ``finish()``.
  @MainActor
  static func serve() {
    while true {
      available.wait()
      let job = jobs.withLock { $0.isEmpty ? nil : $0.removeFirst() }
      guard let job else { return }
      job()
    }
  }

  /// Makes ``serve()`` return once it has run the jobs handed to it so far.
  static func finish() {
    available.signal()
  }
}
