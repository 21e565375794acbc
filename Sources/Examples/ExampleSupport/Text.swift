/// Text from outside the program (a server, a deep link, the command line), made fit to show.

/// `text` with every control character that a terminal would act on replaced by a visible escape.
///
/// The escape is written as Swift writes it, `\u{1B}`, so that text from outside cannot clear the
/// screen, move the cursor or change colours.
///
/// Replaced: the C0 controls (U+0000 to U+001F) except the newline and the tab, DEL (U+007F) and
/// the C1 controls (U+0080 to U+009F). Everything else, including other non-ASCII text, is kept.
/// - Parameters:
///   - text: The text to show.
///   - keepingNewlines: Whether newlines and tabs are kept as they are; pass `false` for text that
///     must stay on one line, such as a log line.
/// - Returns: The text, safe to write to a terminal.
package func sanitizedForTerminal(_ text: some StringProtocol, keepingNewlines: Bool = true)
  -> String
{
  func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x0A, 0x09: !keepingNewlines
    case 0x00...0x1F, 0x7F...0x9F: true
    default: false
    }
  }
  guard text.unicodeScalars.contains(where: isControl) else { return String(text) }
  var result = String.UnicodeScalarView()
  for scalar in text.unicodeScalars {
    if isControl(scalar) {
      let hex = String(scalar.value, radix: 16, uppercase: true)
      let padded = hex.count < 2 ? "0" + hex : hex
      result.append(contentsOf: "\\u{\(padded)}".unicodeScalars)
    } else {
      result.append(scalar)
    }
  }
  return String(result)
}

/// How many characters of outside text an error message echoes, at most.
package let excerptLimit = 40

/// The start of `text`, cut to `limit` Unicode scalars with an ellipsis when it is longer: what
/// error messages echo of their input, so that a huge input makes no huge message.
/// - Parameters:
///   - text: The text to echo.
///   - limit: How many Unicode scalars to keep.
/// - Returns: `text` itself when it is short enough, else its start followed by `…`.
package func excerpt(_ text: some StringProtocol, limit: Int = excerptLimit) -> String {
  let scalars = text.unicodeScalars
  guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
    end != scalars.endIndex
  else { return String(text) }
  return String(String.UnicodeScalarView(scalars[..<end])) + "…"
}
