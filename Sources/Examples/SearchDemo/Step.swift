import ExampleSupport

/// One step of a session: a line of standard input, or one `;`-separated part of `--script`.
///
/// A step is the whole query typed so far, or a command that starts with `:`. One grammar for both
/// inputs, so that a script can be tried out by typing it line by line, and the other way round.
enum Step: Equatable {
  /// The query is now this text: the whole of it, not one keystroke.
  case type(String)
  /// Run the failed search again (`:retry`).
  case retry
  /// Stop typing for this long (`:wait MS`).
  case wait(Duration)
  /// Stop typing until the search in flight has finished (`:settle`).
  case settle
  /// Stop at once (`:quit`, or `:q`).
  case quit

  /// The longest `:wait`, in milliseconds: a minute.
  static let maxWaitMilliseconds = 60_000

  /// The longest step, in UTF-8 bytes: a longer query is refused rather than held in memory.
  static let maxBytes = 1_000

  /// Why a step could not be read, in one sentence.
  struct ParseError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    var description: String
  }

  /// Reads one step.
  /// - Parameter text: A line, or a part of a script, without its separator.
  /// - Throws: ``ParseError`` for an unknown or malformed command, or a step that is too long.
  /// - Returns: The step.
  static func parse(_ text: some StringProtocol) throws(ParseError) -> Step {
    guard text.utf8.count <= maxBytes else {
      throw ParseError(description: "a step may be at most \(maxBytes) bytes long")
    }
    guard text.hasPrefix(":") else { return .type(String(text)) }
    if text.hasPrefix("::") { return .type(String(text.dropFirst())) }
    let words = text.dropFirst().split(separator: " ")
    switch words.first {
    case "retry" where words.count == 1: return .retry
    case "settle" where words.count == 1: return .settle
    case "quit" where words.count == 1, "q" where words.count == 1: return .quit
    case "wait":
      guard words.count > 1 else {
        throw ParseError(description: ":wait needs milliseconds, from 0 to \(maxWaitMilliseconds)")
      }
      let value = words.dropFirst().joined(separator: " ")
      guard let milliseconds = Int(value), (0...maxWaitMilliseconds).contains(milliseconds) else {
        throw ParseError(
          description:
            ":wait takes milliseconds from 0 to \(maxWaitMilliseconds), not \(shown(value))")
      }
      return .wait(.milliseconds(milliseconds))
    default:
      throw ParseError(
        description:
          "unknown command \(shown(text)) (commands: :retry, :wait MS, :settle, :quit; "
          + "type a query that starts with \":\" as \"::…\")")
    }
  }

  /// Reads the steps of a script: steps separated by `;`.
  /// - Parameter script: The script, such as `p;pr;:wait 400;prime`.
  /// - Throws: ``ParseError`` naming the first bad step and its number.
  /// - Returns: The steps, in order.
  static func parseScript(_ script: String) throws(ParseError) -> [Step] {
    var steps: [Step] = []
    for (index, text) in script.split(separator: ";", omittingEmptySubsequences: false).enumerated()
    {
      do {
        steps.append(try parse(text))
      } catch {
        throw ParseError(description: "step \(index + 1): \(error)")
      }
    }
    return steps
  }

  /// Outside text as a message echoes it: short, quoted, and with no control characters left.
  private static func shown(_ text: some StringProtocol) -> String {
    sanitizedForTerminal(excerpt(text).debugDescription, keepingNewlines: false)
  }
}
