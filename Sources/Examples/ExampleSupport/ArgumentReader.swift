/// Reads a demo's command line an argument at a time, and turns option values into checked values
/// with the messages every demo gives for the same mistake.
///
/// ```swift
/// var reader = ArgumentReader(Array(CommandLine.arguments.dropFirst()))
/// while let argument = reader.next() {
///   switch argument {
///   case "--delay": options.delay = try reader.wholeNumber(for: argument, in: 0...maxDelayMilliseconds, of: "milliseconds")
///   case "-h", "--help": options.help = true
///   default: throw ArgumentReader.unknownOption(argument)
///   }
/// }
/// ```
///
/// Every message that echoes a value from the command line shows it with ``quoted(_:)``: cut
/// short, in quotes, with its control characters escaped, so that no argument can write escape
/// sequences to the terminal.
package struct ArgumentReader {
  private var remaining: ArraySlice<String>

  /// Creates a reader of `arguments`, the command line without the program's name.
  package init(_ arguments: [String]) {
    remaining = arguments[...]
  }

  /// The next argument, an option or a positional argument; `nil` after the last.
  package mutating func next() -> String? {
    remaining.popFirst()
  }

  /// The value that follows `option`.
  /// - Throws: ``OptionError`` "`option` needs a value" when no argument follows, or the next one
  ///   is an option (starts with `--`).
  package mutating func value(for option: String) throws(OptionError) -> String {
    guard let value = remaining.first, !value.hasPrefix("--") else {
      throw OptionError("\(option) needs a value")
    }
    remaining.removeFirst()
    return value
  }

  /// The value of `option` as a whole number in `range`.
  /// - Parameters:
  ///   - option: The option, for the message.
  ///   - range: The numbers accepted. An upper bound of `T.max` reads as "or more".
  ///   - what: What the number counts, for the message: "takes milliseconds from 0 to 60000".
  /// - Throws: ``OptionError`` when the value is missing, not a whole number, or out of `range`.
  /// - Returns: The number.
  package mutating func wholeNumber<T: FixedWidthInteger>(
    for option: String, in range: ClosedRange<T>, of what: String = "a whole number"
  ) throws(OptionError) -> T {
    let text = try value(for: option)
    guard let number = T(text), range.contains(number) else {
      let bounds =
        range.upperBound == T.max
        ? "of \(range.lowerBound) or more" : "from \(range.lowerBound) to \(range.upperBound)"
      throw OptionError("\(option) takes \(what) \(bounds), not \(quoted(text))")
    }
    return number
  }

  /// The value of `option` as a number in `range`, such as a share from 0 to 1.
  /// - Throws: ``OptionError`` when the value is missing, not a number, or out of `range`.
  package mutating func number(for option: String, in range: ClosedRange<Double>)
    throws(OptionError) -> Double
  {
    let text = try value(for: option)
    guard let number = Double(text), range.contains(number) else {
      throw OptionError(
        "\(option) takes a number from \(shortest(range.lowerBound)) to "
          + "\(shortest(range.upperBound)), not \(quoted(text))")
    }
    return number
  }

  /// The value of `option` as the path of a file: not empty, and not ending in `/`.
  /// - Throws: ``OptionError`` when the value is missing, empty or a folder's path.
  package mutating func filePath(for option: String) throws(OptionError) -> String {
    let path = try value(for: option)
    guard !path.isEmpty, !path.hasSuffix("/") else {
      throw OptionError("\(option) takes the path of a file, not \(quoted(path))")
    }
    return path
  }

  /// The value of `option` as one of `choices`, by name.
  /// - Throws: ``OptionError`` naming the choices when the value is missing or none of them.
  package mutating func choice<Value>(
    for option: String, among choices: KeyValuePairs<String, Value>
  )
    throws(OptionError) -> Value
  {
    let text = try value(for: option)
    if let match = choices.first(where: { $0.key == text }) { return match.value }
    var list = ""
    for (index, choice) in choices.enumerated() {
      if index > 0 { list += index == choices.count - 1 ? " or " : ", " }
      list += choice.key
    }
    throw OptionError("\(option) takes \(list), not \(quoted(text))")
  }

  /// The value of `option`, parsed by `parse`, whose error message is prefixed with the option:
  /// "--script, step 2: …".
  /// - Throws: ``OptionError`` when the value is missing or `parse` throws.
  package mutating func parsed<Value>(
    for option: String, by parse: (String) throws -> Value
  ) throws(OptionError) -> Value {
    let text = try value(for: option)
    do {
      return try parse(text)
    } catch {
      throw OptionError("\(option), \(error)")
    }
  }

  /// The error for an argument that is no option the demo knows.
  package static func unknownOption(_ argument: String) -> OptionError {
    OptionError("unknown option \(quoted(argument))")
  }
}

/// A value from the command line as a message shows it: its start only when it is long, in quotes,
/// with newlines, tabs and other control characters escaped.
package func quoted(_ text: some StringProtocol) -> String {
  sanitizedForTerminal(excerpt(text).debugDescription, keepingNewlines: false)
}

/// A bound for a message: `0` and `1` rather than `0.0` and `1.0`.
private func shortest(_ value: Double) -> String {
  value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
