/// Describes how a state differs from the expected one, with a structural diff, or returns nil when
/// they are equal: the one framing of a state mismatch that ``CoreTest``, ``StoreTest`` and
/// ``Journal`` report.
///
/// The message reads `<subject> differs from the <expected> one (− <expected>, + <actual>):`,
/// followed by the diff.
/// - Parameters:
///   - subject: What differs, such as "the state" or "The store's state".
///   - expected: The expected state, printed on `−` lines.
///   - actual: The actual state, printed on `+` lines.
///   - labels: What to call the two sides.
/// - Returns: The message, or nil when the states are equal.
func stateMismatch<State: Equatable>(
  _ subject: String, expected: State, actual: State,
  labels: (expected: String, actual: String) = ("expected", "actual")
) -> String? {
  stateMismatch(subject, expected: expected, actual: actual, labels: labels, by: ==)
}

/// ``stateMismatch(_:expected:actual:labels:)`` with the states compared by `equal`.
func stateMismatch<State>(
  _ subject: String, expected: State, actual: State,
  labels: (expected: String, actual: String) = ("expected", "actual"),
  by equal: (State, State) -> Bool
) -> String? {
  guard !equal(expected, actual) else { return nil }
  let diff = structuralDiff(expected, actual) ?? "(no structural difference printed)"
  return
    "\(subject) differs from the \(labels.expected) one (− \(labels.expected), + \(labels.actual)):\n\(diff)"
}
