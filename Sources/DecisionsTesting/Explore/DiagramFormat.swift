/// A text format for drawing an explored state machine.
public enum DiagramFormat: Sendable, Hashable {
  /// A Mermaid `stateDiagram-v2`, which GitHub renders in a ```` ```mermaid ```` block.
  case mermaid
  /// A Graphviz `digraph`, for `dot -Tsvg`.
  case dot

  /// The extension of the diagram's snapshot file: `mmd` or `dot`.
  var pathExtension: String {
    switch self {
    case .mermaid: "mmd"
    case .dot: "dot"
    }
  }
}
