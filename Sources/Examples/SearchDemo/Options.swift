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

  /// The longest `--delay`, in milliseconds: a minute.
  static let maxDelayMilliseconds = 60_000

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
      case "--script":
        let text = try value(for: argument)
        do {
          options.script = try Step.parseScript(text)
        } catch {
          throw ParseError(description: "--script, \(error)")
        }
      case "--source":
        options.source = try checked { try parseHTTPURL(value(for: argument), option: argument) }
      case "--failure-rate":
        let text = try value(for: argument)
        guard let rate = Double(text), (0...1).contains(rate) else {
          throw ParseError(
            description: "--failure-rate takes a number from 0 to 1, not \(shown(text))")
        }
        options.failureRate = rate
      case "--delay":
        let text = try value(for: argument)
        guard let delay = Int(text), (0...maxDelayMilliseconds).contains(delay) else {
          throw ParseError(
            description:
              "--delay takes milliseconds from 0 to \(maxDelayMilliseconds), not \(shown(text))")
        }
        options.delayMilliseconds = delay
      case "--seed":
        let text = try value(for: argument)
        guard let seed = UInt64(text) else {
          throw ParseError(
            description: "--seed takes a whole number of 0 or more, not \(shown(text))")
        }
        options.seed = seed
      case "--timeout":
        options.timeout = try checked { try parseTimeout(value(for: argument)) }
      case "--max-bytes":
        options.maxBytes = try checked { try parseByteCount(value(for: argument)) }
      case "--record":
        let path = try value(for: argument)
        guard !path.isEmpty, !path.hasSuffix("/") else {
          throw ParseError(description: "--record takes the path of a file, not \(shown(path))")
        }
        options.record = path
      case "-h", "--help":
        options.help = true
      default:
        throw ParseError(description: "unknown option \(shown(argument))")
      }
    }
    return options
  }

  /// A value from the command line as a message echoes it: short, and with no control characters.
  private static func shown(_ text: String) -> String {
    sanitizedForTerminal(excerpt(text), keepingNewlines: false)
  }
}
