import Foundation

// Diagrams of an explored graph, or of a projection of it. A node is a state (or a value of the
// projection), labelled as the failure messages print values; an edge is labelled
// `event / decision, decision`. Edges are listed in the order the search found them, once per
// distinct label, so the text is deterministic and its diffs are readable.

extension Exploration {
  /// Draws the explored graph, or a projection of it, as a Mermaid or Graphviz diagram.
  ///
  /// With a projection, states with the same projected value are one node, and each distinct
  /// `event / decisions` label between two nodes is one edge. Events that leave a state as it was
  /// and decide nothing are left out: they would loop on every node.
  ///
  /// ```
  /// stateDiagram-v2
  ///   state "idle" as s0
  ///   state "loading" as s1
  ///   [*] --> s0
  ///   s0 --> s1 : .view(.didTapButton) / .track(.view(.didTapButton)), .load
  /// ```
  /// - Parameters:
  ///   - format: Mermaid (the default) or Graphviz DOT.
  ///   - projection: The node a state belongs to; a `String` is its label as is, any other value
  ///     is printed as in failure messages.
  ///   - edgeLabel: The label of a transition; `event / decision, decision` unless given.
  /// - Returns: The diagram's text, ending with a newline.
  public func diagram<Group: Hashable>(
    _ format: DiagramFormat = .mermaid,
    projection: (C.State) -> Group,
    edgeLabel: ((Transition) -> String)? = nil
  ) -> String {
    diagram(
      format, projection: projection, nodeLabel: { ($0 as? String) ?? describeFlat($0) },
      edgeLabel: edgeLabel)
  }

  /// Draws the graph of a projection, with each node labelled by `nodeLabel`.
  private func diagram<Group: Hashable>(
    _ format: DiagramFormat,
    projection: (C.State) -> Group,
    nodeLabel: (Group) -> String,
    edgeLabel: ((Transition) -> String)?
  ) -> String {
    var nodeNumbers: [Group: Int] = [:]
    var labels: [String] = []
    let stateNodes = states.map { state in
      let node = projection(state)
      if let number = nodeNumbers[node] { return number }
      nodeNumbers[node] = labels.count
      labels.append(nodeLabel(node))
      return labels.count - 1
    }
    var seen: Set<DiagramEdge> = []
    var edges: [DiagramEdge] = []
    for transition in transitions
    where transition.from != transition.to || !transition.decisions.isEmpty {
      let edge = DiagramEdge(
        from: stateNodes[transition.from], to: stateNodes[transition.to],
        label: edgeLabel?(transition) ?? defaultLabel(transition))
      if seen.insert(edge).inserted { edges.append(edge) }
    }
    let start = stateNodes[0]
    switch format {
    case .mermaid:
      // NB: Mermaid ends a statement at `;` and a state's name at `"`: both as entity codes.
      let escape = { (text: String) in
        text.map { $0 == "\"" ? "#quot;" : $0 == ";" ? "#59;" : String($0) }.joined()
      }
      var lines = ["stateDiagram-v2"]
      lines += labels.indices.map { "  state \"\(escape(labels[$0]))\" as s\($0)" }
      lines.append("  [*] --> s\(start)")
      lines += edges.map { "  s\($0.from) --> s\($0.to) : \(escape($0.label))" }
      return lines.joined(separator: "\n") + "\n"
    case .dot:
      let quote = { (text: String) in
        "\""
          + text.replacingOccurrences(of: "\\", with: "\\\\")
          .replacingOccurrences(of: "\"", with: "\\\"") + "\""
      }
      var lines = [
        "digraph \(quote(typeName(C.self))) {", "  rankdir=LR;",
        "  node [shape=box, style=rounded];", "  start [shape=point];",
      ]
      lines += labels.indices.map { "  s\($0) [label=\(quote(labels[$0]))];" }
      lines.append("  start -> s\(start);")
      lines += edges.map { "  s\($0.from) -> s\($0.to) [label=\(quote($0.label))];" }
      lines.append("}")
      return lines.joined(separator: "\n") + "\n"
    }
  }

  /// Draws the explored graph, one node per explored state, as a Mermaid or Graphviz diagram.
  ///
  /// See ``diagram(_:projection:edgeLabel:)`` to draw a projection, such as the phase of each
  /// state, when there are too many states to read.
  /// - Parameters:
  ///   - format: Mermaid (the default) or Graphviz DOT.
  ///   - edgeLabel: The label of a transition; `event / decision, decision` unless given.
  /// - Returns: The diagram's text, ending with a newline.
  public func diagram(
    _ format: DiagramFormat = .mermaid, edgeLabel: ((Transition) -> String)? = nil
  ) -> String {
    diagram(
      format, projection: { number(of: $0) ?? -1 },
      nodeLabel: { states.indices.contains($0) ? describeFlat(states[$0]) : "?" },
      edgeLabel: edgeLabel)
  }

  /// Asserts a diagram of the graph against a snapshot file checked in beside the test, like
  /// ``expectTrace(_:from:events:named:record:fileID:filePath:line:column:)``.
  ///
  /// The file is `__Traces__/<test file name>/<name>.mmd` (or `.dot`). When it does not exist, the
  /// helper writes it and fails, asking you to review and commit it; when the machine changed, it
  /// fails with a line diff (`−` recorded, `+` now). To accept a change, record again: pass
  /// `record: true`, or set `DECISIONS_RECORD_TRACES=1` for the test run.
  /// - Parameters:
  ///   - format: Mermaid (the default) or Graphviz DOT.
  ///   - name: The diagram's name; it names the file, so keep it unique within the test file.
  ///   - projection: The node a state belongs to; see ``diagram(_:projection:edgeLabel:)``.
  ///   - edgeLabel: The label of a transition; `event / decision, decision` unless given.
  ///   - record: Whether to write the diagram instead of comparing.
  ///   - fileID: The caller's file id, for the failure's location.
  ///   - filePath: The caller's file path; the diagram is stored beside this file.
  ///   - line: The caller's line, for the failure's location.
  ///   - column: The caller's column, for the failure's location.
  public func expectDiagram<Group: Hashable>(
    _ format: DiagramFormat = .mermaid,
    named name: String,
    projection: (C.State) -> Group,
    edgeLabel: ((Transition) -> String)? = nil,
    record: Bool = false,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    expectSnapshot(
      diagram(format, projection: projection, edgeLabel: edgeLabel), kind: "diagram", named: name,
      at: snapshotFile(
        named: name, pathExtension: format.pathExtension, besideTestAt: "\(filePath)"),
      record: record,
      location: Location(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// `event / decision, decision`, or `event` alone when it decided nothing, on one line.
  func defaultLabel(_ transition: Transition) -> String {
    let event = describeFlat(transition.event)
    guard !transition.decisions.isEmpty else { return event }
    return event + " / " + transition.decisions.map(describeFlat).joined(separator: ", ")
  }
}

/// An edge of a diagram: two node numbers and a label.
private struct DiagramEdge: Hashable {
  var from: Int
  var to: Int
  var label: String
}

/// A value as the failure messages print it, on one line.
func describeFlat<T>(_ value: T) -> String {
  Node(reflecting: value).flat
}
