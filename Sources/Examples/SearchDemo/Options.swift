import ExampleSupport
import Foundation

/// The demo's command-line options.
struct Options: Equatable {
  /// Run these steps instead of reading standard input.
  var script: [Step]?
  /// Search a list of facts from this HTTP endpoint instead of the bundled facts.
  var source: URL?
  /// The share of bundled searches that fail on purpose, 0...1.
  var failureRate = 0.0
  /// How long a bundled search takes, in milliseconds.
  var delayMilliseconds = 250
  /// Seeds the bundled source's failures, for repeatable runs.
  var seed: UInt64?
  /// How long a whole HTTP search may take.
  var timeout = Duration.seconds(5)
  /// The largest HTTP response body accepted, in bytes.
  var maxBytes = defaultMaxResponseBytes
  /// Write the session's flight recording to this file when the demo ends.
  var record: String?
  /// Print the usage and exit.
  var help = false

  /// The usage text.
  static let usage = """
    USAGE: search [options]

    Searches number facts as you type, in a Decisions store. Each line of standard input is the
    whole query typed so far (not one keystroke). The search runs once typing pauses for 300 ms; a
    new query cancels the search in flight; an empty query clears the results. A line that starts
    with ":" is a command:
      :retry          run the failed search again
      :wait MS        stop typing for MS milliseconds, from 0 to 60000
      :settle         stop typing until the search in flight has finished
      :quit, :q       stop at once
      ::TEXT          type the query ":TEXT"
    Each change prints as a line: state: idle, debouncing, searching, loaded (then up to 10 lines
    "result: ...") or failed. When the input ends, the search in flight finishes and the demo exits:
    a run ends at most 0.3 s plus one search (--delay, or --timeout over HTTP) after its last step.

    OPTIONS:
      --script STEPS      Run these steps instead of reading standard input: the lines above,
                          separated by ";", such as "p;pr;pri;:wait 400;prime;:settle;:retry".
      --source URL        Search the facts an HTTP endpoint answers GET with, a list
                          [{"text": "..."}, ...] such as the bundled facts.json, or one
                          {"text": "..."}, fetched again for every search, instead of the bundled
                          facts.
      --failure-rate R    Make this share of bundled searches fail, from 0 to 1 (default 0).
      --delay MS          How long a bundled search takes, in milliseconds, from 0 to 60000
                          (default 250).
      --seed N            Seed the bundled failures, for repeatable runs.
      --timeout S         How long a whole HTTP search may take, in seconds, from 0.001 to 3600
                          (default 5).
      --max-bytes N       The largest HTTP response accepted, in bytes (default 8388608, 8 MiB).
      --record FILE       Keep the session's last 10,000 events in a flight recorder, and write
                          them as a JSON recording to FILE when the demo ends (replace FILE).
      -h, --help          Show this help.

    Exits with 0 when the input or script ends, 1 if the output or the recording cannot be
    written, 2 if the options are malformed.
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
      case "--script":
        options.script = try reader.parsed(for: argument, by: Step.parseScript)
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
      case "--record":
        options.record = try reader.filePath(for: argument)
      case "-h", "--help":
        options.help = true
      default:
        throw ArgumentReader.unknownOption(argument)
      }
    }
    return options
  }
}
