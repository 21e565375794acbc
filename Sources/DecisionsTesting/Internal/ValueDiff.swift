// A structural diff of two values, built on `Mirror` alone, in three parts: reflection
// (ValueDiff+Reflection.swift: a value to a tree of nodes), comparing (ValueDiff+Comparing.swift:
// two trees to a list of differences) and rendering (ValueDiff+Rendering.swift: the differences
// printed in a `DiffFormat`).
//
// Output format: the first line names the type. Each difference follows as its path from the root
// (indented two spaces), then the expected value on lines marked `−` and the actual value on lines
// marked `+` (values indented four spaces). A value too long for one line is broken over several.
//
//     Parent.State
//       .rows[1].value
//     −   7
//     +   8
//       .sheet
//     −   nil
//     +   Counter.State(count: 0, messages: [])
//
// Paths use Swift syntax where there is one: `.field`, `.0` (tuple element), `[2]` (array index),
// `["key"]` (dictionary key), `?` (inside an optional). An enum case's associated value is
// `.case(label:)`, or `.case(_:)` when it is the only, unlabelled one, or `.case.1` by position.
//
// NB: the minus marker is U+2212 MINUS SIGN, as in LineDiff.swift. It is as wide as `+` in most
// fonts and cannot be mistaken for the sign of a negative number (`− -1` / `+ 1`).

/// Returns a readable diff of two values, or nil when their structure prints the same.
/// - Parameters:
///   - expected: The expected value, printed on `−` lines.
///   - actual: The actual value, printed on `+` lines.
///   - format: How to print the differences.
/// - Returns: The diff, or nil when the two values print the same.
func structuralDiff<T>(_ expected: T, _ actual: T, format: DiffFormat = .standard) -> String? {
  let old = Node(reflecting: expected)
  let new = Node(reflecting: actual)
  guard old != new else { return nil }
  let expectedType: Any.Type = type(of: expected)
  let actualType: Any.Type = type(of: actual)
  let rootType = expectedType == actualType ? expectedType : T.self
  return format.render(rootType: typeName(rootType), differences(between: old, and: new))
}
