/// Whether JSON text ends before its value does.
///
/// It ends early inside a string, with an object or array still open, or with no value at all. For
/// text that did not parse, it tells a truncated file from a corrupt one.
///
/// - Complexity: O(*n*) in the number of bytes, with no allocation.
func jsonEndsEarly(_ bytes: some Sequence<UInt8>) -> Bool {
  var depth = 0
  var inString = false
  var escaped = false
  var sawValue = false
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
    sawValue = true
  }
  return inString || depth > 0 || !sawValue
}
