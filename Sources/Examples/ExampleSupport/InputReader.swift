import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A line of input, as ``InputReader`` hands it over.
package enum InputLine: Sendable {
  /// A line, without its newline (or carriage return and newline).
  case line(String)
  /// A line longer than the reader's limit, skipped without being kept.
  case tooLong
}

/// Reads lines from a file descriptor on a thread of its own, with bounded memory.
///
/// Unlike `readLine()`, it keeps at most `maxLineBytes` of a line (a longer one is reported as
/// ``InputLine/tooLong`` and skipped), and at most `capacity` lines that the reader has not handled
/// yet: then it stops reading until ``handled()`` makes room. However much input arrives, and
/// however fast, memory stays bounded.
package final class InputReader: Sendable {
  /// The lines, in order; the sequence ends with the input.
  package let lines: AsyncStream<InputLine>
  private let room: DispatchSemaphore

  /// Starts reading `fileDescriptor`.
  /// - Parameters:
  ///   - fileDescriptor: Where to read; standard input by default.
  ///   - maxLineBytes: The longest line kept, in bytes, without its newline.
  ///   - capacity: How many lines may wait to be handled.
  package init(fileDescriptor: Int32 = STDIN_FILENO, maxLineBytes: Int, capacity: Int = 16) {
    let room = DispatchSemaphore(value: capacity)
    let (lines, continuation) = AsyncStream.makeStream(of: InputLine.self)
    self.lines = lines
    self.room = room
    Thread.detachNewThread {
      var buffer = [UInt8](repeating: 0, count: 4096)
      var line: [UInt8] = []
      var isTooLong = false
      func handOver() {
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        room.wait()
        continuation.yield(isTooLong ? .tooLong : .line(String(decoding: line, as: UTF8.self)))
        line.removeAll(keepingCapacity: true)
        isTooLong = false
      }
      while true {
        let count = read(fileDescriptor, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        // The end of the input, or an error reading it: either way, nothing more comes.
        guard count > 0 else { break }
        for byte in buffer[..<count] {
          if byte == UInt8(ascii: "\n") {
            handOver()
          } else if isTooLong {
            continue
          } else if line.count == maxLineBytes + 1 {
            // NB: one byte over the limit, so that a line of exactly the limit plus "\r" still fits.
            isTooLong = true
            line.removeAll()
          } else {
            line.append(byte)
          }
        }
      }
      if !line.isEmpty || isTooLong { handOver() }
      continuation.finish()
    }
  }

  /// Makes room for one more line: call it once for each line handled.
  package func handled() {
    room.signal()
  }
}
