/// Errors of work that nothing heard: no `catch:` handler turned them into an event, and the store
/// has no diagnostics hook to report them to.
///
/// A debug build prints each one to standard error, so that a feature that forgot its `catch:`
/// handler does not stay "loading" in silence; a release build drops it, as the store's
/// documentation says. The message is written by ``ReportWriter``'s thread, never on the store's
/// executor: a standard error that nobody reads, or a pipe whose reader has gone, neither stops the
/// store nor ends the process (messages that find its queue full are dropped and counted).
package enum UnheardErrors {
  /// Where a debug build's messages go instead of standard error, when set: for tests of them.
  package static let sink = Protected<(@Sendable (String) -> Void)?>(nil)
  /// The descriptor a debug build's messages are written to: standard error (2), or a pipe in
  /// tests.
  package static let descriptor = Protected<Int32>(2)
  /// What writes the messages, off the store's executor.
  package static let writer = ReportWriter(capacity: 100)

  /// Reports the error that work of feature `F` keyed `id` ended on.
  @inline(never)
  package static func report<F: Feature>(_ error: any Error, id: WorkID?, feature: F.Type) {
    #if DEBUG
      let message = message(error, id: id, feature: feature)
      if let sink = sink.withLock({ $0 }) {
        sink(message)
      } else {
        // NB: queued under the descriptor's lock, so that once a test has set it back, no message
        // is queued for the descriptor it is about to close.
        _ = descriptor.withLock { writer.enqueue(message + "\n", to: $0) }
      }
    #endif
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
