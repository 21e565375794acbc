/// Returns a value as Swift-like text without module names: `.model(.finishLoading(Fact(text: "hi")))`.
///
/// Short values stay on one line; longer ones are broken over several lines, one item per line, each
/// continuation line indented by `indent`.
func describe<T>(_ value: T, indent: String = "") -> String {
  Node(reflecting: value).lines(width: DiffFormat.standard.lineWidth).enumerated()
    .map { index, line in index == 0 ? line : indent + line }
    .joined(separator: "\n")
}
