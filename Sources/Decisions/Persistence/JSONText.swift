/// Whether JSON text ends before its value does.
///
/// It ends early when it holds no value at all, or when its value begins as an object, an array
/// or a string and the text ends inside a string or with an object or array still open. For text
/// that did not parse, it tells a truncated file from a corrupt one: text that begins with
/// anything else (binary data, a word) is not taken for JSON cut short.
///
/// - Complexity: O(*n*) in the number of bytes, with no allocation.
func jsonEndsEarly(_ bytes: some Sequence<UInt8>) -> Bool {
  var depth = 0
  var inString = false
  var escaped = false
  var first: UInt8?
  for byte in bytes {
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
      continue
    }
    switch byte {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
      continue
    case UInt8(ascii: "\""):
      inString = true
    case UInt8(ascii: "{"), UInt8(ascii: "["):
      depth += 1
    case UInt8(ascii: "}"), UInt8(ascii: "]"):
      depth -= 1
      // NB: more closed than opened: the text is wrong, not short.
      if depth < 0 { return false }
    default:
      break
    }
    if first == nil {
      first = byte
      guard byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "\"")
      else { return false }
    }
  }
  return first == nil || inString || depth > 0
}
