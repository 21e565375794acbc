// The inspector page's drawing of an explored graph, as inline SVG: one circle per explored state,
// one arrow per pair of states that a transition joins, and the run's path over them.
//
// The layout is computed here, so the SVG is the same text on every run: a state's column is its
// breadth-first depth from state 0 (the exploration's own depths), and the states of a column are
// ordered by a few barycentre sweeps, each state moved to the mean row of its neighbours in the
// column before (then after), which removes most crossings. Every coordinate is an integer.
//
// As in the rest of the page, recorded text is written only through `escaped(_:)` between tags
// (`<title>` and `<text>`); attributes hold numbers and fixed words. Arrowheads are drawn as
// polygons rather than markers, so the SVG refers to nothing, not even within the page.

/// An explored graph, ready to draw, and the run's path over it.
struct InspectorDiagram: Equatable {
  /// The transitions from one state to another, drawn as one arrow.
  struct Arrow: Equatable {
    var from: Int
    var to: Int
    /// The distinct labels of its transitions, `event / decisions`, in the order the search found
    /// them; at most `InspectorDiagram.labelLimit`.
    var labels: [String]
    /// Whether it has more distinct labels than `labels`.
    var hasMoreLabels = false
  }

  /// The run's steps from one state to another, drawn as one arrow of its path.
  struct Hop: Equatable {
    var from: Int
    var to: Int
    /// The steps that went from `from` to `to`, in order; at most `InspectorDiagram.stepLimit`.
    var steps: [Int]
    /// How many steps went from `from` to `to`.
    var count: Int
  }

  /// A diagram, or why it is left out.
  enum Outcome: Equatable {
    case drawn(InspectorDiagram)
    case leftOut(String)
  }

  /// The most labels an arrow's tooltip lists.
  static let labelLimit = 12
  /// The most steps a hop, or a state's tooltip, lists.
  static let stepLimit = 20

  /// Each state's column: its depth from state 0.
  var layers: [Int]
  /// The arrows, in the order the search found their first transition.
  var arrows: [Arrow]
  /// The run's moves from one explored state to another, in the order of their first step.
  var hops: [Hop]

  // MARK: - Layout

  /// The states of each column, in their order from the top, after `sweeps` barycentre sweeps down
  /// and up.
  static func columns(layers: [Int], arrows: [(from: Int, to: Int)], sweeps: Int = 4) -> [[Int]] {
    let count = (layers.max() ?? -1) + 1
    var columns = [[Int]](repeating: [], count: count)
    for state in layers.indices { columns[layers[state]].append(state) }
    // NB: only arrows between neighbouring columns pull; others are drawn as curves anyway.
    var before = [[Int]](repeating: [], count: layers.count)
    var after = [[Int]](repeating: [], count: layers.count)
    for arrow in arrows {
      let (a, b) = (arrow.from, arrow.to)
      if layers[b] == layers[a] + 1 {
        before[b].append(a)
        after[a].append(b)
      } else if layers[a] == layers[b] + 1 {
        before[a].append(b)
        after[b].append(a)
      }
    }
    var row = [Int](repeating: 0, count: layers.count)
    for column in columns {
      for (index, state) in column.enumerated() { row[state] = index }
    }
    func reorder(_ column: Int, by neighbours: [[Int]]) {
      // The barycentre as a fraction, compared exactly; a state with no neighbour keeps its row.
      let keyed = columns[column].map { state in
        let rows = neighbours[state].map { row[$0] }
        return rows.isEmpty
          ? (state: state, sum: row[state], count: 1)
          : (state: state, sum: rows.reduce(0, +), count: rows.count)
      }
      let sorted = keyed.sorted { a, b in
        let left = a.sum * b.count
        let right = b.sum * a.count
        return left != right ? left < right : row[a.state] < row[b.state]
      }
      columns[column] = sorted.map(\.state)
      for (index, state) in columns[column].enumerated() { row[state] = index }
    }
    for _ in 0..<sweeps where count > 1 {
      for column in 1..<count { reorder(column, by: before) }
      for column in (0..<count - 1).reversed() { reorder(column, by: after) }
    }
    return columns
  }

  /// How many pairs of arrows between neighbouring columns cross, with states at `columns`.
  static func crossings(columns: [[Int]], layers: [Int], arrows: [(from: Int, to: Int)]) -> Int {
    var row = [Int](repeating: 0, count: layers.count)
    for column in columns {
      for (index, state) in column.enumerated() { row[state] = index }
    }
    var spans: [Int: [(Int, Int)]] = [:]
    for arrow in arrows {
      let (a, b) = (arrow.from, arrow.to)
      if layers[b] == layers[a] + 1 {
        spans[layers[a], default: []].append((row[a], row[b]))
      } else if layers[a] == layers[b] + 1 {
        spans[layers[b], default: []].append((row[b], row[a]))
      }
    }
    var total = 0
    for (_, lines) in spans {
      for i in lines.indices {
        for j in lines.indices where j > i {
          let (a, b) = (lines[i], lines[j])
          if (a.0 < b.0 && a.1 > b.1) || (a.0 > b.0 && a.1 < b.1) { total += 1 }
        }
      }
    }
    return total
  }

  // MARK: - Drawing

  /// The radius of a state's circle.
  static let radius = 14
  /// The distance between two columns' centres.
  static let columnGap = 190
  /// The distance between two rows' centres.
  static let rowGap = 46
  /// The room around the drawing; more at the top, for the loops drawn above states.
  static let margin = (top: 40, side: 24, bottom: 24)
  /// The width of a character of a label, at 11 pixels of a monospaced font, rounded up.
  static let characterWidth = 6.7

  /// A point.
  private struct Point {
    var x: Double
    var y: Double
  }

  /// The diagram as an `<svg>` element.
  /// - Parameters:
  ///   - states: Each explored state, in a line.
  ///   - visits: For each explored state, the steps of the run that were in it.
  /// - Returns: The element's markup, from `<svg` to `</svg>`.
  func svg(states: [String], visits: [[Int]]) -> String {
    let columns = Self.columns(layers: layers, arrows: arrows.map { ($0.from, $0.to) })
    let tallest = columns.map(\.count).max() ?? 0
    let r = Self.radius
    let margin = Self.margin
    var center = [Point](repeating: Point(x: 0, y: 0), count: layers.count)
    for (index, column) in columns.enumerated() {
      let offset = (tallest - column.count) * Self.rowGap / 2
      for (row, state) in column.enumerated() {
        center[state] = Point(
          x: Double(margin.side + r + index * Self.columnGap),
          y: Double(margin.top + r + offset + row * Self.rowGap))
      }
    }
    var bounds = (
      left: 0, top: 0,
      right: 2 * margin.side + 2 * r + max(0, columns.count - 1) * Self.columnGap,
      bottom: margin.top + margin.bottom + 2 * r + max(0, tallest - 1) * Self.rowGap
    )
    /// Makes room for a curve's middle and its label: a curve that goes back bends out of the grid.
    func include(_ point: Point) {
      bounds.left = min(bounds.left, int(point.x) - 30)
      bounds.right = max(bounds.right, int(point.x) + 30)
      bounds.top = min(bounds.top, int(point.y) - 16)
      bounds.bottom = max(bounds.bottom, int(point.y) + 22)
    }
    let pairs = Set(arrows.map { Pair(from: $0.from, to: $0.to) })
    let moves = Set(hops.map { Pair(from: $0.from, to: $0.to) })

    var svg = ""

    // The path's moves first, for their step numbers to take their places before the events.
    var placed: [(x: Double, y: Double, width: Double)] = []
    let moveShapes = hops.map { hop in
      let shape = self.shape(
        from: hop.from, to: hop.to, centers: center,
        isPaired: pairs.contains(Pair(from: hop.to, to: hop.from))
          || moves.contains(Pair(from: hop.to, to: hop.from)))
      include(shape.middle)
      return shape
    }
    let numbers = hops.map { hop in
      hop.steps.prefix(3).map(String.init).joined(separator: ", ") + (hop.count > 3 ? "…" : "")
    }
    for (shape, text) in zip(moveShapes, numbers) {
      placed.append(
        (shape.middle.x, shape.middle.y + 14, Double(text.count) * Self.characterWidth))
    }

    // The arrows, labelled where the label fits between two columns and clears the others.
    svg += "<g class=\"edges\">\n"
    let room = Double(Self.columnGap - 2 * r - 12)
    for arrow in arrows {
      let shape = self.shape(
        from: arrow.from, to: arrow.to, centers: center,
        isPaired: pairs.contains(Pair(from: arrow.to, to: arrow.from)))
      include(shape.middle)
      var label = ""
      if arrow.labels.count == 1, !arrow.hasMoreLabels, shape.isForward {
        let text = arrow.labels[0]
        let size = Double(text.count) * Self.characterWidth
        let spot = (x: shape.middle.x, y: shape.middle.y - 4, width: size)
        let clear = placed.allSatisfy { other in
          abs(other.x - spot.x) * 2 >= other.width + spot.width || abs(other.y - spot.y) >= 13
        }
        if size <= room && clear {
          placed.append(spot)
          label = "<text x=\"\(int(spot.x))\" y=\"\(int(spot.y))\">\(escaped(text))</text>"
        }
      }
      var title = arrow.labels.joined(separator: "\n")
      if arrow.hasMoreLabels { title += "\n…" }
      // NB: one append per piece: a chain of `+` takes the type checker long.
      svg += "<g class=\"edge\" data-from=\"\(arrow.from)\" data-to=\"\(arrow.to)\">"
      svg += "<title>\(arrow.from) → \(arrow.to): \(escaped(title))</title>"
      svg += shape.markup
      svg += label
      svg += "</g>\n"
    }
    svg += "</g>\n"

    // The run's path, over the arrows, each move numbered by its first steps.
    svg += "<g class=\"path\">\n"
    for (hop, (shape, shown)) in zip(hops, zip(moveShapes, numbers)) {
      let listed = hop.steps.map(String.init).joined(separator: ", ")
      let others = hop.count > hop.steps.count ? " and \(hop.count - hop.steps.count) more" : ""
      let kind = hop.count == 1 ? "step" : "steps"
      svg += "<g class=\"hop\" data-step=\"\(hop.steps[0])\" data-from=\"\(hop.from)\" "
      svg += "data-to=\"\(hop.to)\"><title>\(kind) \(listed)\(others): "
      svg += "\(hop.from) → \(hop.to)</title>"
      svg += shape.markup
      svg += "<text x=\"\(int(shape.middle.x))\" y=\"\(int(shape.middle.y + 14))\">"
      svg += "\(shown)</text></g>\n"
    }
    svg += "</g>\n"

    // The states, over everything.
    svg += "<g class=\"nodes\">\n"
    for state in layers.indices {
      let point = center[state]
      let steps = visits[state]
      var classes = "node"
      var data = "data-node=\"\(state)\""
      var title = "state \(state): \(escaped(states[state]))"
      if !steps.isEmpty {
        classes += " visited"
        let all = steps.map(String.init).joined(separator: " ")
        data += " data-step=\"\(steps[0])\" data-visits=\"\(all)\""
        let listed = steps.prefix(Self.stepLimit).map(String.init).joined(separator: ", ")
        let kind = steps.count == 1 ? "step" : "steps"
        let more = steps.count > Self.stepLimit ? ", …" : ""
        title += "\n\(kind) \(listed)\(more) (click to jump; again for the next)"
      }
      if state == 0 { classes += " start" }
      let ring =
        state == 0
        ? "<circle class=\"ring\" cx=\"\(int(point.x))\" cy=\"\(int(point.y))\" r=\"\(r + 4)\"/>"
        : ""
      svg += "<g class=\"\(classes)\" \(data)><title>\(title)</title>\(ring)"
      svg += "<circle cx=\"\(int(point.x))\" cy=\"\(int(point.y))\" r=\"\(r)\"/>"
      svg += "<text x=\"\(int(point.x))\" y=\"\(int(point.y))\">\(state)</text></g>\n"
    }
    svg += "</g>\n</svg>"
    let width = bounds.right - bounds.left
    let height = bounds.bottom - bounds.top
    let head = """
      <svg id="diagram-graph" width="\(width)" height="\(height)" \
      viewBox="\(bounds.left) \(bounds.top) \(width) \(height)" role="img" \
      aria-label="The explored states and their transitions" data-states="\(layers.count)" \
      data-edges="\(arrows.count)" data-hops="\(hops.count)">

      """
    return head + svg
  }

  /// Two states' numbers, in order.
  private struct Pair: Hashable {
    var from: Int
    var to: Int
  }

  /// An arrow's path and head, and the middle of its path.
  private struct Shape {
    var markup: String
    var middle: Point
    /// Whether it goes to the next column, where its label may fit.
    var isForward: Bool
  }

  /// The arrow from one state to another: straight from a column to the next unless an arrow goes
  /// back, else bent to its right, so that the two arrows of a pair, and arrows that go back or
  /// stay in a column, do not lie on each other; a loop above the state when it is one.
  private func shape(from: Int, to: Int, centers: [Point], isPaired: Bool) -> Shape {
    let r = Double(Self.radius)
    let a = centers[from]
    guard from != to else {
      let start = Point(x: a.x - 7, y: a.y - r + 2)
      let end = Point(x: a.x + 7, y: a.y - r + 2)
      let control = (Point(x: a.x - 22, y: a.y - r - 28), Point(x: a.x + 22, y: a.y - r - 28))
      var markup = "<path d=\"M\(int(start.x)) \(int(start.y))C\(int(control.0.x)) "
      markup += "\(int(control.0.y)) \(int(control.1.x)) \(int(control.1.y)) \(int(end.x)) "
      markup += "\(int(end.y))\"/>"
      markup += head(at: end, from: control.1)
      return Shape(markup: markup, middle: Point(x: a.x, y: a.y - r - 21), isForward: false)
    }
    let b = centers[to]
    let dx = b.x - a.x
    let dy = b.y - a.y
    let length = max(1, (dx * dx + dy * dy).squareRoot())
    let isNext = layers[to] == layers[from] + 1
    let isStraight = isNext && !isPaired
    let bend = isStraight ? 0 : isNext ? 12 : min(60, 16 + length * 0.1)
    // NB: the control point is twice as far from the chord as the curve's middle is.
    let control = Point(
      x: (a.x + b.x) / 2 - dy / length * bend * 2, y: (a.y + b.y) / 2 + dx / length * bend * 2)
    let start = toward(control, from: a, by: r)
    let end = toward(control, from: b, by: r + 1)
    let middle = Point(
      x: 0.25 * start.x + 0.5 * control.x + 0.25 * end.x,
      y: 0.25 * start.y + 0.5 * control.y + 0.25 * end.y)
    let command = isStraight ? "L" : "Q\(int(control.x)) \(int(control.y)) "
    let path = "<path d=\"M\(int(start.x)) \(int(start.y))\(command)\(int(end.x)) \(int(end.y))\"/>"
    return Shape(markup: path + head(at: end, from: control), middle: middle, isForward: isNext)
  }

  /// The point `distance` from `point` toward `target`.
  private func toward(_ target: Point, from point: Point, by distance: Double) -> Point {
    let dx = target.x - point.x
    let dy = target.y - point.y
    let length = max(1, (dx * dx + dy * dy).squareRoot())
    return Point(x: point.x + dx / length * distance, y: point.y + dy / length * distance)
  }

  /// An arrowhead with its tip at `tip`, pointing away from `point`.
  private func head(at tip: Point, from point: Point) -> String {
    let back = toward(point, from: tip, by: 8)
    let dx = (tip.x - back.x) / 2
    let dy = (tip.y - back.y) / 2
    let corners = [
      tip, Point(x: back.x - dy, y: back.y + dx), Point(x: back.x + dy, y: back.y - dx),
    ]
    let points: [String] = corners.map { "\(int($0.x)),\(int($0.y))" }
    return "<polygon points=\"\(points.joined(separator: " "))\"/>"
  }

  /// A coordinate, rounded to a whole pixel.
  private func int(_ value: Double) -> Int {
    Int(value.rounded())
  }
}

extension Exploration {
  /// The graph ready to draw, with the run's path over it, or why it is too large to draw.
  /// - Parameters:
  ///   - path: The explored state of each step of the run, from step 0, or nil where a step's
  ///     state is not among the explored ones.
  ///   - limits: The most states and arrows to draw.
  /// - Returns: The diagram, or the sentence that says why the page leaves it out.
  func inspectorDiagram(path: [Int?], limits: InspectorPage.Limits) -> InspectorDiagram.Outcome {
    let list = "the list below has every state"
    guard states.count <= limits.diagramStates else {
      return .leftOut(
        "The diagram is left out: the exploration has \(states.count) states, more than the "
          + "page's limit of \(limits.diagramStates) (InspectorPage.Limits.diagramStates); \(list)."
      )
    }
    let tooMany =
      "The diagram is left out: it would draw more than \(limits.diagramEdges) arrows, the page's "
      + "limit (InspectorPage.Limits.diagramEdges); \(list)."
    // NB: the pairs first, so that a graph too large to draw is not labelled.
    var index: [Int: Int] = [:]
    var arrows: [InspectorDiagram.Arrow] = []
    var arrowOf: [Int] = []
    for transition in transitions {
      // Events that leave a state as it was and decide nothing would loop on every state.
      guard transition.from != transition.to || !transition.decisions.isEmpty else {
        arrowOf.append(-1)
        continue
      }
      let key = transition.from * states.count + transition.to
      if let known = index[key] {
        arrowOf.append(known)
        continue
      }
      guard arrows.count < limits.diagramEdges else { return .leftOut(tooMany) }
      index[key] = arrows.count
      arrowOf.append(arrows.count)
      arrows.append(.init(from: transition.from, to: transition.to, labels: []))
    }
    var hopIndex: [Int: Int] = [:]
    var hops: [InspectorDiagram.Hop] = []
    for (step, pair) in zip(path.indices.dropFirst(), zip(path, path.dropFirst())) {
      guard let from = pair.0, let to = pair.1, from != to else { continue }
      let key = from * states.count + to
      if let known = hopIndex[key] {
        hops[known].count += 1
        if hops[known].steps.count < InspectorDiagram.stepLimit { hops[known].steps.append(step) }
        continue
      }
      guard arrows.count + hops.count < limits.diagramEdges else { return .leftOut(tooMany) }
      hopIndex[key] = hops.count
      hops.append(.init(from: from, to: to, steps: [step], count: 1))
    }
    for (transition, arrow) in zip(transitions, arrowOf) where arrow >= 0 {
      let label = defaultLabel(transition)
      guard !arrows[arrow].labels.contains(label) else { continue }
      if arrows[arrow].labels.count < InspectorDiagram.labelLimit {
        arrows[arrow].labels.append(label)
      } else {
        arrows[arrow].hasMoreLabels = true
      }
    }
    return .drawn(InspectorDiagram(layers: depths, arrows: arrows, hops: hops))
  }
}
