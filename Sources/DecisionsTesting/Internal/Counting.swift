// Numbers in messages, written as a reader writes them.

/// "1 event", "1,000 events": a count and a noun, in English.
func counted(_ number: Int, _ noun: String) -> String {
  "\(grouped(number)) \(noun)\(number == 1 ? "" : "s")"
}

/// A number with commas between groups of three digits: 1,000.
func grouped(_ number: Int) -> String {
  let digits = String(number.magnitude)
  var result = ""
  for (index, digit) in digits.enumerated() {
    if index > 0 && (digits.count - index).isMultiple(of: 3) { result.append(",") }
    result.append(digit)
  }
  return number < 0 ? "-" + result : result
}
