import ExampleSupport

/// The command's options.
struct Options: Equatable {
  /// The flight recording to read.
  var recording: String?
  /// Where to write the page; the recording's path with `.html` in place of `.json` unless given.
  var out: String?
  /// The largest recording read, in bytes.
  var maxBytes = 64 << 20
  /// Print the usage and exit.
  var help = false

  /// The usage text.
  static let usage = """
    USAGE: decisions-inspect RECORDING.json [--out PAGE.html]

    Reads a flight recording (such as one written by `search --record FILE`), replays it through
    today's core of the feature it names, and writes one self-contained HTML page that shows it:
    what the recording is, a timeline of its events, and each step's event, decisions and state
    diff. The page needs no network; open it in any browser.

    Features it knows: \(KnownFeature.all.map(\.name).joined(separator: ", ")).

    OPTIONS:
      --out PAGE.html     Write the page here (replace it), or to standard output for "-"; by
                          default next to the recording, with ".html" in place of ".json".
      --max-bytes N       The largest recording read, in bytes, from 1 to 1073741824 (default
                          67108864, 64 MiB).
      -h, --help          Show this help.

    Exits with 0 when the page is written, 1 if the recording cannot be read or replayed or the
    page cannot be made or written, 2 if the options are malformed.
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
  static func parse(_ arguments: [String]) throws(ParseError) -> Options {
    var options = Options()
    var remaining = arguments[...]
    func value(for option: String) throws(ParseError) -> String {
      guard let value = remaining.popFirst(), !value.hasPrefix("--") else {
        throw ParseError(description: "\(option) needs a value")
      }
      return value
    }
    while let argument = remaining.popFirst() {
      switch argument {
      case "--out":
        let path = try value(for: argument)
        guard !path.isEmpty, !path.hasSuffix("/") else {
          throw ParseError(description: "--out takes the path of a file, not \(shown(path))")
        }
        options.out = path
      case "--max-bytes":
        let text = try value(for: argument)
        do {
          options.maxBytes = try parseByteCount(text)
        } catch {
          throw ParseError(description: error.description)
        }
      case "-h", "--help":
        options.help = true
      case _ where argument.hasPrefix("-") && argument != "-":
        throw ParseError(description: "unknown option \(shown(argument))")
      default:
        guard options.recording == nil else {
          throw ParseError(description: "one recording at a time, not also \(shown(argument))")
        }
        options.recording = argument
      }
    }
    if !options.help && options.recording == nil {
      throw ParseError(description: "give the recording to read")
    }
    return options
  }

  /// Where the page goes: `--out`, or the recording's path with `.html` in place of `.json`.
  var page: String? {
    if let out { return out }
    guard let recording else { return nil }
    let stem = recording.hasSuffix(".json") ? String(recording.dropLast(5)) : recording
    return stem + ".html"
  }

  /// A value from the command line as a message echoes it: short, and with no control characters.
  private static func shown(_ text: String) -> String {
    sanitizedForTerminal(excerpt(text), keepingNewlines: false)
  }
}
