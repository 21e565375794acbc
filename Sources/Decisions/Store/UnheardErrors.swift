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
