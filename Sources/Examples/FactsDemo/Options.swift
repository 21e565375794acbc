import ExampleSupport
import Foundation

/// The demo's command-line options.
struct Options: Equatable {
  /// Run non-interactively: tap this many times, each after the previous load settled.
  var taps: Int?
  /// Load facts from this HTTP endpoint instead of the bundled list.
  var source: URL?
  /// The share of bundled loads that fail on purpose, 0...1.
  var failureRate = 0.0
  /// How long a bundled load takes, in milliseconds.
  var delayMilliseconds = 400
  /// Seeds the bundled source's choices, for repeatable runs.
  var seed: UInt64?
  /// How long a whole HTTP load may take.
  var timeout = Duration.seconds(5)
  /// The largest HTTP response body accepted, in bytes.
  var maxBytes = defaultMaxResponseBytes
  /// Append tracking and log lines to this file instead of standard error.
  var logFile: String?
  /// Print the usage and exit.
  var help = false

  /// The usage text.
  static let usage = """
    USAGE: facts [options]

    Loads number facts in a Decisions store. Interactive by default: press Enter to load a fact,
    type q and Enter to quit. With piped input, each line is a command (empty line: load; q: quit).

    OPTIONS:
      --taps N            Tap N times without input, printing each state change as a line.
      --source URL        Load facts from an HTTP endpoint answering GET with {"text": "..."} or
                          a list of such objects, instead of the bundled facts.
      --failure-rate R    Make this share of bundled loads fail, from 0 to 1 (default 0).
      --delay MS          How long a bundled load takes, in milliseconds (default 400).
      --seed N            Seed the bundled facts and failures, for repeatable runs.
      --timeout S         How long a whole HTTP load may take, in seconds, from 0.001 to 3600
                          (default 5).
      --max-bytes N       The largest HTTP response accepted, in bytes (default 8388608, 8 MiB).
      --log FILE          Append tracking and log lines to FILE instead of standard error.
      -h, --help          Show this help.
    """

  /// Why the command line could not be parsed.
  struct ParseError: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in one sentence.
    var description: String
  }

  /// Parses the arguments after the program name.
  /// - Parameter arguments: The arguments, without the program name.
  /// - Throws: ``ParseError`` naming the offending option or value.
  /// - Returns: The options.
  static func parse(_ arguments: [String]) throws -> Options {
    var options = Options()
    var remaining = arguments[...]
    func value(for option: String) throws -> String {
      guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
        throw ParseError(description: "\(option) needs a value")
      }
      return value
    }
    func checked<Value>(_ parse: () throws -> Value) throws -> Value {
      do {
        return try parse()
      } catch let error as OptionError {
        throw ParseError(description: error.description)
      }
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--taps":
        let text = try value(for: argument)
        guard let taps = Int(text), taps >= 0 else {
          throw ParseError(description: "--taps takes a whole number of 0 or more, not \(text)")
        }
        options.taps = taps
      case "--source":
        options.source = try checked { try parseHTTPURL(value(for: argument), option: argument) }
      case "--failure-rate":
        let text = try value(for: argument)
        guard let rate = Double(text), (0...1).contains(rate) else {
          throw ParseError(description: "--failure-rate takes a number from 0 to 1, not \(text)")
        }
        options.failureRate = rate
      case "--delay":
        let text = try value(for: argument)
        guard let delay = Int(text), delay >= 0 else {
          throw ParseError(description: "--delay takes milliseconds, 0 or more, not \(text)")
        }
        options.delayMilliseconds = delay
      case "--seed":
        let text = try value(for: argument)
        guard let seed = UInt64(text) else {
          throw ParseError(description: "--seed takes a whole number of 0 or more, not \(text)")
        }
        options.seed = seed
      case "--timeout":
        options.timeout = try checked { try parseTimeout(value(for: argument)) }
      case "--max-bytes":
        options.maxBytes = try checked { try parseByteCount(value(for: argument)) }
      case "--log":
        options.logFile = try value(for: argument)
      case "-h", "--help":
        options.help = true
      default:
        throw ParseError(description: "unknown option \(argument)")
      }
    }
    return options
  }
}
