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

/// Errors of work that nothing heard: no `catch:` handler turned them into an event, and the store
/// has no diagnostics hook to report them to.
///
/// A debug build prints each one to standard error, so that a feature that forgot its `catch:`
/// handler does not stay "loading" in silence; a release build drops it, as the store's
/// documentation says.
package enum UnheardErrors {
  /// Where a debug build's messages go instead of standard error, when set: for tests of them.
  package static let sink = Protected<(@Sendable (String) -> Void)?>(nil)

  /// Reports the error that work of feature `F` keyed `id` ended on.
  @inline(never)
  package static func report<F: Feature>(_ error: any Error, id: WorkID?, feature: F.Type) {
    #if DEBUG
      let message = message(error, id: id, feature: feature)
      if let sink = sink.withLock({ $0 }) {
        sink(message)
      } else {
        write(message + "\n", to: 2)
      }
    #endif
  }

  /// Writes `text` to a file descriptor, whole unless the descriptor fails: standard error (2), or
  /// a pipe in tests.
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

  /// The message for an error that work of feature `F` keyed `id` ended on.
  package static func message<F: Feature>(_ error: any Error, id: WorkID?, feature: F.Type)
    -> String
  {
    let work = id.map { "work \"\($0)\"" } ?? "unkeyed work"
    return "Decisions: \(work) of \(F.self) failed with \(error), and nothing heard it: give its "
      + "effects.run a catch: handler, or the store a diagnostics hook (printed by debug builds)"
  }
}
