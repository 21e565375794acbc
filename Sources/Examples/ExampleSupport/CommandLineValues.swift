import Foundation

/// Parsing and checking the command-line values the demos share: URLs, timeouts, byte counts.

/// Why a command-line value was refused, in one sentence that names the option.
package struct OptionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong.
  package var description: String

  /// Creates an error with its sentence.
  package init(_ description: String) {
    self.description = description
  }
}

/// The shortest and longest timeouts the demos accept, in seconds: 1 ms and an hour.
package let timeoutRange: ClosedRange<Double> = 0.001...3600

/// The longest simulated delay a demo's `--delay` accepts, in milliseconds: a minute.
package let maxDelayMilliseconds = 60_000

/// The largest response body the demos accept unless told otherwise: 8 MiB.
package let defaultMaxResponseBytes = 8 << 20

/// The largest value `--max-bytes` accepts: 1 GiB.
package let maxResponseBytesLimit = 1 << 30

/// Parses an `http` or `https` URL with a host, such as `http://127.0.0.1:8000/facts.json`.
///
/// The scheme is case-insensitive and comes back in lower case; the port, if any, must be 1 to
/// 65535. IPv6 address literals (`http://[::1]/`) are refused: the demos' HTTP stack does not
/// handle them on every platform.
/// - Parameters:
///   - text: The value.
///   - option: The option's name, for the message.
/// - Throws: ``OptionError`` saying what is wrong.
/// - Returns: The URL.
package func parseHTTPURL(_ text: String, option: String) throws(OptionError) -> URL {
  let shown = quoted(text)
  let notHTTP = OptionError("\(option) takes an http or https URL, not \(shown)")
  guard let separator = text.range(of: "://") else { throw notHTTP }
  let scheme = text[..<separator.lowerBound].lowercased()
  guard scheme == "http" || scheme == "https" else { throw notHTTP }
  let rest = text[separator.upperBound...]
  var authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
  if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
  if authority.hasPrefix("[") {
    throw OptionError(
      "\(option): IPv6 addresses are not supported, use a host name or an IPv4 address, not \(shown)"
    )
  }
  let host = authority.prefix { $0 != ":" }
  guard !host.isEmpty else { throw OptionError("\(option) takes a URL with a host, not \(shown)") }
  if host.count < authority.count {
    let port = authority[authority.index(after: host.endIndex)...]
    guard !port.isEmpty, port.allSatisfy(\.isASCII), port.allSatisfy(\.isNumber),
      let number = Int(port), (1...65535).contains(number)
    else {
      throw OptionError(
        "\(option): the port must be a number from 1 to 65535, not \(quoted(port))"
      )
    }
  }
  guard let url = URL(string: scheme + text[separator.lowerBound...]), url.host != nil else {
    throw OptionError("\(option) takes an http or https URL, not \(shown)")
  }
  return url
}

/// Parses a timeout in seconds, from 0.001 (1 ms) to 3600 (an hour).
/// - Parameters:
///   - text: The value, such as `2` or `0.5`.
///   - option: The option's name, for the message.
/// - Throws: ``OptionError`` saying what is wrong.
/// - Returns: The timeout.
package func parseTimeout(_ text: String, option: String = "--timeout") throws(OptionError)
  -> Duration
{
  guard let seconds = Double(text), seconds.isFinite else {
    throw OptionError(
      "\(option) takes seconds, from 0.001 to 3600, not \(quoted(text))")
  }
  guard seconds >= timeoutRange.lowerBound else {
    throw OptionError("\(option) must be at least 0.001 s (1 ms), not \(quoted(text))")
  }
  guard seconds <= timeoutRange.upperBound else {
    throw OptionError("\(option) must be at most 3600 s (an hour), not \(quoted(text))")
  }
  return .seconds(seconds)
}

/// Parses a number of bytes, from 1 to 1 GiB, such as the value of `--max-bytes`.
/// - Parameters:
///   - text: The value, in bytes.
///   - option: The option's name, for the message.
/// - Throws: ``OptionError`` saying what is wrong.
/// - Returns: The number of bytes.
package func parseByteCount(_ text: String, option: String = "--max-bytes") throws(OptionError)
  -> Int
{
  guard let count = Int(text), (1...maxResponseBytesLimit).contains(count) else {
    throw OptionError(
      "\(option) takes a whole number of bytes from 1 to \(maxResponseBytesLimit), "
        + "not \(quoted(text))")
  }
  return count
}

/// A number of bytes for a message: `8 MiB`, `64 KiB` or `1000 bytes`.
package func formatByteCount(_ count: Int) -> String {
  if count >= 1 << 20, count % (1 << 20) == 0 { return "\(count >> 20) MiB" }
  if count >= 1 << 10, count % (1 << 10) == 0 { return "\(count >> 10) KiB" }
  return count == 1 ? "1 byte" : "\(count) bytes"
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  package var inSeconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
