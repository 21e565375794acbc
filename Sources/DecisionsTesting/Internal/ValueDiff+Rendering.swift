// Rendering: the differences printed in a `DiffFormat`, and a node printed on one line or several.

/// How a structural diff is printed: the seam where a test helper can choose its own markers and
/// widths without forking the differ.
struct DiffFormat {
  /// The marker of expected (old) lines.
  var removed: String
  /// The marker of actual (new) lines.
  var added: String
  /// The indentation of a path under the type's name.
  var pathIndent: String
  /// What separates a marker from its value.
  var valueIndent: String
  /// The longest value printed on one line before it is broken over several.
  var lineWidth: Int

  /// The format of every DecisionsTesting failure: `−` and `+` (U+2212 MINUS SIGN, as in
  /// LineDiff.swift), paths indented two spaces, values four.
  static let standard = DiffFormat(
    removed: "\u{2212}", added: "+", pathIndent: "  ", valueIndent: "   ", lineWidth: 80)

  /// Prints `differences` under the name of the root type.
  func render(rootType: String, _ differences: [Difference]) -> String {
    var lines = [rootType]
    var lastPath: String?
    for difference in differences {
      if difference.path != lastPath, !difference.path.isEmpty {
        lines.append(pathIndent + difference.path)
      }
      lastPath = difference.path
      switch difference.change {
      case .changed(let old, let new):
        lines += marked(removed, old) + marked(added, new)
      case .removed(let old):
        lines += marked(removed, old)
      case .added(let new):
        lines += marked(added, new)
      case .beyondDepthLimit:
        lines.append(
          pathIndent + pathIndent + "(differs deeper than \(depthLimit) levels; not shown)")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// Returns the lines of `node`, each prefixed with `marker` and indented under the path.
  private func marked(_ marker: String, _ node: Node) -> [String] {
    node.lines(width: lineWidth).map { marker + valueIndent + $0 }
  }
}

/// How a composite node prints: brackets around items, each item a prefix and a node.
private struct Layout {
  var open: String
  var items: [(prefix: String, node: Node)]
  var close: String
}

extension Node {
  /// The node on one line.
  var flat: String {
    switch self {
    case .leaf(let text):
      return text
    case .truncated:
      return "…"
    case .optional(let wrapped):
      return wrapped?.flat ?? "nil"
    case .dictionary(let entries) where entries.isEmpty:
      return "[:]"
    default:
      guard let layout else { return "" }
      let items = layout.items.map { $0.prefix + $0.node.flat }
      return layout.open + items.joined(separator: ", ") + layout.close
    }
  }

  /// The node on one line, or broken over several with one item per line when longer than `width`.
  func lines(width: Int) -> [String] {
    if case .optional(let wrapped?) = self { return wrapped.lines(width: width) }
    let flat = self.flat
    guard flat.count > width, let layout, !layout.items.isEmpty else { return [flat] }
    var result = [layout.open]
    for (index, item) in layout.items.enumerated() {
      var itemLines = item.node.lines(width: width)
      itemLines[0] = item.prefix + itemLines[0]
      if index < layout.items.count - 1 { itemLines[itemLines.count - 1] += "," }
      result += itemLines.map { "  " + $0 }
    }
    result.append(layout.close)
    return result
  }

  /// The brackets and items of a composite node, or nil for a leaf.
  private var layout: Layout? {
    let labelled = { (fields: [Field]) in
      fields.map { (prefix: $0.label.map { "\($0): " } ?? "", node: $0.node) }
    }
    let unlabelled = { (nodes: [Node]) in nodes.map { (prefix: "", node: $0) } }
    switch self {
    case .record(let type, let fields):
      return Layout(open: "\(type)(", items: labelled(fields), close: ")")
    case .tuple(let fields):
      return Layout(open: "(", items: labelled(fields), close: ")")
    case .enumCase(let name, let payload):
      return Layout(open: ".\(name)(", items: labelled(payload), close: ")")
    case .collection(let elements):
      return Layout(open: "[", items: unlabelled(elements), close: "]")
    case .set(let elements):
      return Layout(open: "Set([", items: unlabelled(elements), close: "])")
    case .dictionary(let entries):
      return Layout(
        open: "[", items: entries.map { (prefix: "\($0.key): ", node: $0.value) }, close: "]")
    case .leaf, .optional, .truncated:
      return nil
    }
  }
}
