import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Android)
  import Android
#elseif canImport(Darwin)
  import Darwin
#endif

// NB: the C function, which the static method `write(_:to:)` hides inside the type.
private let systemWrite = write

/// Writes lines to file descriptors from a thread of its own, so that the caller never waits and
/// never dies of a broken pipe.
///
/// A store reports on its executor, where a write to a pipe that nobody reads blocks until someone
/// does, and a write to a pipe whose reader has gone raises SIGPIPE, which ends the process. Here a
/// line waits in a queue of at most `capacity` lines, and a thread that blocks SIGPIPE for itself
/// alone (the process's handling of SIGPIPE is the app's) writes it: a broken pipe fails the write
/// with EPIPE, and a pipe nobody reads blocks that thread only. A line that finds the queue full is
/// dropped and counted, and the next line queued is preceded by one that says how many were.
// NB: SIGPIPE for a failed write goes to the thread that wrote (Linux and Darwin both), so blocking
// it in the writer's thread keeps it pending there, never delivered; the thread never unblocks it.
package final class ReportWriter: Sendable {
  /// The longest line kept, in UTF-8 bytes: a longer one is cut, so that the queue's memory is
  /// bounded.
  package static let maximumLineLength = 4_096

  private let capacity: Int
  private let state = Protected(State())
  /// Signalled once for each item queued.
  private let queued = DispatchSemaphore(value: 0)

  private struct State {
    /// What waits to be written, oldest first.
    var items: [Item] = []
    /// How many lines were dropped, in all.
    var dropped = 0
    /// How many were dropped since the last line was queued.
    var droppedSinceQueued = 0
    /// Whether the thread was started.
    var isStarted = false
  }

  private enum Item {
    /// A line to write to a descriptor, and how many lines were dropped just before it was queued.
    case line(String, descriptor: Int32, droppedBefore: Int)
    /// A mark that a caller of `waitUntilWritten()` waits for.
    case mark(DispatchSemaphore)
  }

  /// Creates a writer whose queue holds at most `capacity` lines; its thread starts with the first
  /// line.
  package init(capacity: Int) {
    self.capacity = capacity
  }

  /// How many lines were dropped because the queue was full.
  package var droppedCount: Int {
    state.withLock { $0.dropped }
  }

  /// Queues `line` to be written to `descriptor`, or drops it when the queue is full; never waits.
  /// - Returns: Whether the line was queued.
  @discardableResult
  package func enqueue(_ line: String, to descriptor: Int32) -> Bool {
    let line = Self.cut(line)
    let (isQueued, start) = state.withLock { state -> (Bool, Bool) in
      guard state.items.count < capacity else {
        state.dropped += 1
        state.droppedSinceQueued += 1
        return (false, false)
      }
      state.items.append(
        .line(line, descriptor: descriptor, droppedBefore: state.droppedSinceQueued))
      state.droppedSinceQueued = 0
      defer { state.isStarted = true }
      return (true, !state.isStarted)
    }
    if start { startThread() }
    if isQueued { queued.signal() }
    return isQueued
  }

  /// Blocks until every line queued before the call was written, or failed to be: for tests, which
  /// close the descriptor next.
  package func waitUntilWritten() {
    let done = DispatchSemaphore(value: 0)
    // NB: a mark is queued even when the queue is full of lines, so that the wait ends.
    let start = state.withLock { state in
      state.items.append(.mark(done))
      defer { state.isStarted = true }
      return !state.isStarted
    }
    if start { startThread() }
    queued.signal()
    done.wait()
  }

  /// `line`, cut to ``maximumLineLength`` bytes.
  private static func cut(_ line: String) -> String {
    guard line.utf8.count > maximumLineLength else { return line }
    return String(decoding: line.utf8.prefix(maximumLineLength - 4), as: UTF8.self) + "…\n"
  }

  // MARK: - The writer's thread

  private func startThread() {
    let context = Unmanaged.passRetained(self).toOpaque()
    // NB: `pthread_t` is a pointer on Darwin and Musl, an integer on Glibc and Android.
    #if canImport(Darwin) || canImport(Musl)
      var thread: pthread_t?
    #else
      var thread = pthread_t()
    #endif
    let status = pthread_create(
      &thread, nil,
      { argument in
        let context: UnsafeMutableRawPointer? = argument
        guard let context else { return nil }
        Unmanaged<ReportWriter>.fromOpaque(context).takeRetainedValue().run()
      }, context)
    guard status == 0 else {
      // NB: without a thread nothing is written: the lines queued so far are dropped, and the next
      // line tries again.
      Unmanaged<ReportWriter>.fromOpaque(context).release()
      let marks = state.withLock { state -> [DispatchSemaphore] in
        let lines = state.items.count { if case .line = $0 { true } else { false } }
        state.dropped += lines
        state.droppedSinceQueued += lines
        defer { state.items = [] }
        state.isStarted = false
        return state.items.compactMap { if case .mark(let done) = $0 { done } else { nil } }
      }
      for done in marks { done.signal() }
      return
    }
    #if canImport(Darwin) || canImport(Musl)
      if let thread { pthread_detach(thread) }
    #else
      pthread_detach(thread)
    #endif
  }

  /// Writes what is queued, for ever.
  private func run() -> Never {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
    while true {
      queued.wait()
      let item = state.withLock { state in
        state.items.isEmpty ? nil : state.items.removeFirst()
      }
      switch item {
      case .line(let line, let descriptor, let dropped):
        if dropped > 0 {
          Self.write(
            "Decisions: \(dropped) \(dropped == 1 ? "report was" : "reports were") dropped, as "
              + "the descriptor was not taking them\n",
            to: descriptor)
        }
        Self.write(line, to: descriptor)
      case .mark(let done):
        done.signal()
      case nil:
        continue
      }
    }
  }

  /// Writes `text` to a file descriptor, whole unless the descriptor fails; blocks while it is
  /// full.
  // NB: with write(2) rather than `stderr`, a C global that strict concurrency does not allow.
  package static func write(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return }
      var offset = 0
      while offset < bytes.count {
        let written = systemWrite(descriptor, base + offset, bytes.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }
}
