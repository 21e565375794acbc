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
      --delay MS          How long a bundled load takes, in milliseconds, from 0 to 60000
                          (default 400).
      --seed N            Seed the bundled facts and failures, for repeatable runs.
      --timeout S         How long a whole HTTP load may take, in seconds, from 0.001 to 3600
                          (default 5).
      --max-bytes N       The largest HTTP response accepted, in bytes (default 8388608, 8 MiB).
      --log FILE          Append tracking and log lines to FILE instead of standard error.
      -h, --help          Show this help.
    """

  /// Parses the arguments after the program name.
  /// - Parameter arguments: The arguments, without the program name.
  /// - Throws: ``OptionError`` naming the offending option or value.
  /// - Returns: The options.
  static func parse(_ arguments: [String]) throws(OptionError) -> Options {
    var options = Options()
    var reader = ArgumentReader(arguments)
    while let argument = reader.next() {
      switch argument {
      case "--taps":
        options.taps = try reader.wholeNumber(for: argument, in: 0...Int.max)
      case "--source":
        options.source = try parseHTTPURL(reader.value(for: argument), option: argument)
      case "--failure-rate":
        options.failureRate = try reader.number(for: argument, in: 0...1)
      case "--delay":
        options.delayMilliseconds = try reader.wholeNumber(
          for: argument, in: 0...maxDelayMilliseconds, of: "milliseconds")
      case "--seed":
        options.seed = try reader.wholeNumber(for: argument, in: 0...UInt64.max)
      case "--timeout":
        options.timeout = try parseTimeout(reader.value(for: argument))
      case "--max-bytes":
        options.maxBytes = try parseByteCount(reader.value(for: argument))
      case "--log":
        options.logFile = try reader.filePath(for: argument)
      case "-h", "--help":
        options.help = true
      default:
        throw ArgumentReader.unknownOption(argument)
      }
    }
    return options
  }
}
