import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why text could not be written.
package struct WriteFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// Where the text was to go: `standard output`, `the log /tmp/x`.
  package var destination: String
  /// The system's reason, such as `No space left on device`.
  package var reason: String

  /// The failure, in one sentence.
  package var description: String { "cannot write to \(destination): \(reason)" }
}

/// A place text is written to with checked POSIX writes.
///
/// Standard output, standard error or a log file. Unlike `FileHandle.write(_:)` or `print`, a failed write (a full disk, a closed pipe, a
/// closed descriptor) is an error the caller sees, not a crash or silent loss.
package final class TextOutput: Sendable {
  /// The file descriptor written to.
  package let fileDescriptor: Int32
  /// Where the text goes, for messages: `standard output`, `the log FILE`.
  package let name: String
  /// Whether the descriptor was closed when the program started (it now points at /dev/null).
  private let wasClosed: Bool
  // NB: a plain lock, not a `LockedValue<Void>`: ThreadSanitizer reports a race on the zero-sized
  // value's accesses (`&value`) where the lock is held on both sides.
  /// Keeps concurrent lines whole.
  private let lock = NSLock()

  fileprivate init(fileDescriptor: Int32, name: String, wasClosed: Bool) {
    self.fileDescriptor = fileDescriptor
    self.name = name
    self.wasClosed = wasClosed
  }

  /// Writes all of `text`.
  /// - Throws: ``WriteFailure`` with the system's reason when not all of it could be written.
  package func write(_ text: String) throws(WriteFailure) {
    if wasClosed { throw WriteFailure(destination: name, reason: "it is closed") }
    let bytes = Array(text.utf8)
    let result: Int32? = lock.withLock {
      var offset = 0
      while offset < bytes.count {
        let written = bytes.withUnsafeBytes { buffer in
          systemWrite(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
        }
        if written < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += written
      }
      return nil
    }
    if let code = result {
      throw WriteFailure(destination: name, reason: String(cString: strerror(code)))
    }
  }

  /// Opens `path` for appending, creating it if needed.
  /// - Parameters:
  ///   - path: The file.
  ///   - name: What to call it in messages.
  /// - Throws: ``WriteFailure`` with the system's reason, such as `Is a directory`.
  /// - Returns: The output.
  package static func appending(toFile path: String, name: String) throws(WriteFailure)
    -> TextOutput
  {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw WriteFailure(destination: name, reason: String(cString: strerror(errno)))
    }
    return TextOutput(fileDescriptor: descriptor, name: name, wasClosed: false)
  }

  deinit {
    if fileDescriptor > 2 { close(fileDescriptor) }
  }
}

/// Standard output and standard error, ready for checked writes.
package struct StandardStreams: Sendable {
  /// Standard output.
  package let output: TextOutput
  /// Standard error.
  package let error: TextOutput

  /// Prepares the standard streams; call it first thing, before anything opens a file or socket.
  ///
  /// Ignores `SIGPIPE`, so that writing to a closed pipe is an `EPIPE` error rather than death. A
  /// standard descriptor that is closed is pointed at /dev/null, so that no file or socket the
  /// program opens later takes its number, and writing to it fails with "it is closed".
  package static func prepare() -> StandardStreams {
    signal(SIGPIPE, SIG_IGN)
    var closed: Set<Int32> = []
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO]
    where fcntl(descriptor, F_GETFD) == -1 {
      // NB: open returns the lowest free descriptor: the closed one, as the loop goes upwards.
      if open("/dev/null", O_RDWR) == descriptor { closed.insert(descriptor) }
    }
    return StandardStreams(
      output: TextOutput(
        fileDescriptor: STDOUT_FILENO, name: "standard output",
        wasClosed: closed.contains(STDOUT_FILENO)),
      error: TextOutput(
        fileDescriptor: STDERR_FILENO, name: "standard error",
        wasClosed: closed.contains(STDERR_FILENO)))
  }

  /// Reports a failed write on the first of `channels` that still works, and exits with status 1.
  ///
  /// Only the first failure reports and exits; a concurrent second one waits for the exit.
  /// - Parameters:
  ///   - failure: What failed.
  ///   - program: The program's name, to start the message.
  ///   - channels: Where to try to report it, in order; the one that failed is skipped.
  package static func exit(
    reporting failure: WriteFailure, program: String, on channels: [TextOutput]
  ) -> Never {
    if exiting.withLock({ exiting in
      defer { exiting = true }
      return exiting
    }) {
      while true { pause() }
    }
    for channel in channels where channel.name != failure.destination {
      do {
        try channel.write("\(program): \(failure)\n")
        break
      } catch {
        continue
      }
    }
    systemExit(1)
  }
}

private let exiting = LockedValue(false)

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  #if canImport(Darwin)
    Darwin.write(descriptor, bytes, count)
  #elseif canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
  #else
    Musl.write(descriptor, bytes, count)
  #endif
}

private func systemExit(_ status: Int32) -> Never {
  #if canImport(Darwin)
    Darwin.exit(status)
  #elseif canImport(Glibc)
    Glibc.exit(status)
  #else
    Musl.exit(status)
  #endif
}
