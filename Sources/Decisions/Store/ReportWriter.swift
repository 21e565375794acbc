import Dispatch
import Synchronization

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

/// Writes lines to file descriptors, at once when the descriptor can take them or else from a
/// thread of its own, so that the caller never waits and never dies of a broken pipe.
///
/// A store reports on its executor, where a write to a pipe that nobody reads blocks until someone
/// does, and a write to a pipe whose reader has gone raises SIGPIPE, which ends the process. Here a
/// line waits in a queue of at most `capacity` lines, and a thread that blocks SIGPIPE for itself
/// alone (the process's handling of SIGPIPE is the app's) writes it: a broken pipe fails the write
/// with EPIPE, and a pipe nobody reads blocks that thread only. A line that finds the queue full is
/// dropped and counted, and the next line queued is preceded by one that says how many were.
///
/// A line that finds nothing queued and a descriptor that can take it without blocking (poll(2)
/// says so, it is not broken, and the line is at most PIPE_BUF bytes) is written at once by the
/// caller, with SIGPIPE blocked for that write: so a process that ends right after still shows it.
/// A writer made with `flushesAtExit` also waits at exit for the lines still queued, at most
/// ``exitFlushLimit``.
// NB: SIGPIPE for a failed write goes to the thread that wrote (Linux and Darwin both), so blocking
// it in the writer's thread keeps it pending there, never delivered; the thread never unblocks it.
package final class ReportWriter: Sendable {
  /// The longest line kept, in UTF-8 bytes: a longer one is cut, so that the queue's memory is
  /// bounded.
  package static let maximumLineLength = 4_096

  /// How long a writer made with `flushesAtExit` waits at the process's exit for its queued lines.
  package static let exitFlushLimit: Duration = .milliseconds(200)

  private let capacity: Int
  private let flushesAtExit: Bool
  /// The longest line the caller writes at once, in UTF-8 bytes.
  private let atOnceLength: Int
  /// How many lines callers wrote at once, for tests.
  private let writtenAtOnce = Atomic<Int>(0)
  private let state = Protected(State())
  // NB: held for each write, by the thread and by a caller that writes at once, so that lines keep
  // their order; a caller only tries it, and queues its line when the thread holds it.
  /// Held while a line is written.
  private let writing = Mutex(())
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

  // NB: poll(2) says a pipe can take a write once it has room for PIPE_BUF bytes (512 on Darwin,
  // 4,096 on Linux), no more: a longer line could block the caller, so it goes to the thread. On
  // Linux, lines cut to `maximumLineLength` are never longer.
  /// Creates a writer whose queue holds at most `capacity` lines; its thread starts with the first
  /// line that must wait.
  /// - Parameters:
  ///   - capacity: The most lines that wait at once.
  ///   - flushesAtExit: Whether the process's exit waits for the lines still queued, at most
  ///     ``exitFlushLimit``: for a writer that lives as long as the process.
  ///   - atOnceLength: The longest line, in UTF-8 bytes, that a caller writes at once:
  ///     PIPE_BUF unless a test says less.
  package init(capacity: Int, flushesAtExit: Bool = false, atOnceLength: Int = Int(PIPE_BUF)) {
    self.capacity = capacity
    self.flushesAtExit = flushesAtExit
    self.atOnceLength = atOnceLength
  }

  /// How many lines callers wrote at once, rather than queue them for the thread.
  package var linesWrittenAtOnce: Int {
    writtenAtOnce.load(ordering: .relaxed)
  }

  /// How many lines were dropped because the queue was full.
  package var droppedCount: Int {
    state.withLock { $0.dropped }
  }

  /// Writes `line` to `descriptor` at once when it can, else queues it; never waits.
  ///
  /// The line is written at once when nothing waits and the descriptor can take it without
  /// blocking; otherwise it is queued, or dropped when the queue is full.
  /// - Returns: Whether the line was written or queued.
  @discardableResult
  package func enqueue(_ line: String, to descriptor: Int32) -> Bool {
    let line = Self.cut(line)
    let written = writing.withLockIfAvailable { _ -> Bool in
      // NB: with the write lock held and nothing queued, every line before this one was written.
      let isIdle = state.withLock { $0.items.isEmpty && $0.droppedSinceQueued == 0 }
      guard isIdle, line.utf8.count <= atOnceLength, Self.canTakeAtOnce(descriptor) else {
        return false
      }
      Self.writeWithoutPipeSignal(line, to: descriptor)
      writtenAtOnce.add(1, ordering: .relaxed)
      return true
    }
    if written == true { return true }
    return queue(line, to: descriptor)
  }

  /// Queues `line` for the thread, or drops it when the queue is full.
  private func queue(_ line: String, to descriptor: Int32) -> Bool {
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
    _ = waitUntilWritten(timeout: .distantFuture)
  }

  /// Blocks until every line queued before the call was written, or failed to be, or until
  /// `timeout`.
  /// - Returns: Whether the lines were written in time.
  package func waitUntilWritten(timeout: DispatchTime) -> Bool {
    guard state.withLock({ $0.isStarted }) else { return true }
    let done = DispatchSemaphore(value: 0)
    // NB: a mark is queued even when the queue is full of lines, so that the wait ends.
    let start = state.withLock { state in
      state.items.append(.mark(done))
      defer { state.isStarted = true }
      return !state.isStarted
    }
    if start { startThread() }
    queued.signal()
    return done.wait(timeout: timeout) == .success
  }

  /// Whether `descriptor` can take a line now without blocking, and is not broken: poll(2) with no
  /// timeout.
  private static func canTakeAtOnce(_ descriptor: Int32) -> Bool {
    var request = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    let ready = poll(&request, 1, 0)
    let broken = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)
    return ready == 1 && request.revents & Int16(POLLOUT) != 0 && request.revents & broken == 0
  }

  // NB: the caller's thread may be any thread of the app's: SIGPIPE is blocked for it only during
  // the write (a reader that goes between the poll and the write fails it with EPIPE), and a
  // SIGPIPE that the write left pending is taken, so that it is never delivered once unblocked.
  /// Writes `text` on the caller's thread with SIGPIPE blocked for it.
  private static func writeWithoutPipeSignal(_ text: String, to descriptor: Int32) {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    var previous = sigset_t()
    pthread_sigmask(SIG_BLOCK, &pipeSignal, &previous)
    var pendingBefore = sigset_t()
    sigpending(&pendingBefore)
    write(text, to: descriptor)
    var pendingAfter = sigset_t()
    sigpending(&pendingAfter)
    if sigismember(&pendingAfter, SIGPIPE) == 1, sigismember(&pendingBefore, SIGPIPE) == 0 {
      var taken: Int32 = 0
      sigwait(&pipeSignal, &taken)
    }
    pthread_sigmask(SIG_SETMASK, &previous, nil)
  }

  /// Registers, once per process, the wait at exit for the lines of ``UnheardErrors/writer``.
  private static let exitFlush: Void = {
    _ = atexit {
      let limit = ReportWriter.exitFlushLimit.components
      let nanoseconds = Int(limit.seconds) * 1_000_000_000 + Int(limit.attoseconds / 1_000_000_000)
      _ = UnheardErrors.writer.waitUntilWritten(
        timeout: .now() + .nanoseconds(nanoseconds))
    }
  }()

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
    if flushesAtExit { _ = Self.exitFlush }
  }

  /// Writes what is queued, for ever.
  private func run() -> Never {
    var pipeSignal = sigset_t()
    sigemptyset(&pipeSignal)
    sigaddset(&pipeSignal, SIGPIPE)
    pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
    while true {
      queued.wait()
      writing.withLock { _ in writeNext() }
    }
  }

  /// Writes the oldest item queued, if any: with the write lock held.
  private func writeNext() {
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
      break
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

/// Errors of work that nothing heard: no `catch:` handler turned them into an event, and the store
/// has no diagnostics hook to report them to.
///
/// A debug build prints each one to standard error, so that a feature that forgot its `catch:`
/// handler does not stay "loading" in silence; a release build drops it, as the store's
/// documentation says. The message is written by ``ReportWriter``: on the store's executor only
/// when standard error can take it without blocking, else by the writer's thread, so that a
/// standard error that nobody reads, or a pipe whose reader has gone, neither stops the store nor
/// ends the process (messages that find its queue full are dropped and counted); and a process
/// that ends right after the error still prints it.
package enum UnheardErrors {
  /// Where a debug build's messages go instead of standard error, when set: for tests of them.
  package static let sink = Protected<(@Sendable (String) -> Void)?>(nil)
  /// The descriptor a debug build's messages are written to: standard error (2), or a pipe in
  /// tests.
  package static let descriptor = Protected<Int32>(2)
  /// What writes the messages: at once when standard error can take them without blocking, else
  /// off the store's executor; the process's exit waits for those still queued, at most
  /// ``ReportWriter/exitFlushLimit``.
  package static let writer = ReportWriter(capacity: 100, flushesAtExit: true)

  /// Reports the error that work of feature `F` keyed `id` ended on.
  @inline(never)
  package static func report<F: Feature>(_ error: any Error, id: WorkID?, feature: F.Type) {
    #if DEBUG
      print(message(error, id: id, feature: feature))
    #endif
  }

  /// Reports that a store of feature `F` refused `count` posted events, as `limit` posted events
  /// waited and the posting threads could not wait.
  @inline(never)
  package static func reportRefusedPosts<F: Feature>(_ count: Int, limit: Int, feature: F.Type) {
    #if DEBUG
      print(refusedPostsMessage(count, limit: limit, feature: feature))
    #endif
  }

  /// The message for posted events that a store of feature `F` refused.
  package static func refusedPostsMessage<F: Feature>(_ count: Int, limit: Int, feature: F.Type)
    -> String
  {
    "Decisions: a store of \(F.self) refused \(count) posted \(count == 1 ? "event" : "events"), "
      + "as \(limit) posted events waited already: send them with await store.send, or give the "
      + "store a larger postLimit or a diagnostics hook (printed by debug builds)"
  }

  /// Hands a debug build's message to the test's sink, or queues it for the writer.
  private static func print(_ message: String) {
    if let sink = sink.withLock({ $0 }) {
      sink(message)
    } else {
      // NB: queued under the descriptor's lock, so that once a test has set it back, no message
      // is queued for the descriptor it is about to close.
      _ = descriptor.withLock { writer.enqueue(message + "\n", to: $0) }
    }
  }

  /// The message for an error that work of feature `F` keyed `id` ended on.
  package static func message<F: Feature>(_ error: any Error, id: WorkID?, feature: F.Type)
    -> String
  {
    let work = id.map { "work \"\($0)\"" } ?? "unkeyed work"
    return "Decisions: \(work) of \(F.self) failed with \(error), and nothing heard it: give its "
      + "effects.run a catch: handler, or the store a diagnostics hook (printed by debug builds)"
  }
}
