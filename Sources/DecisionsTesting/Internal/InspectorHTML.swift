// The inspector page's HTML, written as a replay is walked: the page's head and what the run is,
// then the run's data (InspectorData.swift), and last the explored states (drawn by
// InspectorDiagram.swift, and listed) and the script, which draws the timeline's visible rows and
// the chosen step from the data.
//
// Everything recorded is written either through `escaped(_:)`, as text between tags, or in the
// data, a JSON text in a hidden element in which `<`, `>` and `&` are `\u` escapes: never in an
// attribute and never in the script. Attributes hold only numbers and fixed words, the script
// reads the data as text and writes it into the document only as text (`textContent`), never as
// markup. A content security policy forbids loading anything, so a page that somehow held markup
// could still reach no network.
//
// The byte limit is checked after each step is added, so a page that would be too large stops at
// about the limit plus one step, not after all of it is built, and the error says whether the
// states or the number of steps made it too large.

/// An inspector page being written.
struct InspectorHTML {
  /// An exploration's states, and the steps of the run that were in each.
  struct Explored {
    /// The exploration, in a line.
    var summary: String
    /// Each explored state, in a line.
    var states: [String]
    /// For each explored state, the numbers of the steps whose state has its key (0 is the initial
    /// state).
    var visits: [[Int]]
    /// How many of the run's states are not among the explored ones.
    var unexplored: Int
    /// The explored graph with the run's path over it, or why it is not drawn.
    var diagram: InspectorDiagram.Outcome
  }

  /// The most characters of an event the timeline shows; the step's section shows all of it.
  static let timelineWidth = 160

  /// The head, what the run is, and the timeline's frame.
  private var head = ""
  /// The run's steps, states and texts.
  private var data = InspectorData()
  /// How many steps the run has.
  private var steps = 0
  private let title: String
  private let byteLimit: Int

  init(title: String, byteLimit: Int) {
    self.title = title
    self.byteLimit = byteLimit
  }

  /// The page's size so far, in bytes of UTF-8.
  private var size: Int { head.utf8.count + data.bytes }

  /// The bytes of distinct states and diffs per step from which a page too large is blamed on its
  /// states: below it, each step is small and there are too many of them.
  static let largeStateBytesPerStep = 512

  /// Throws when the page is past its limit, naming what made it so: its states and their diffs,
  /// when they take more than `largeStateBytesPerStep` a step, or else the number of its steps.
  private func checkSize() throws(InspectorPageError) {
    guard size > byteLimit else { return }
    guard data.stepCount > 0, data.stateBytes / data.stepCount < Self.largeStateBytesPerStep
    else { throw .tooLarge(limit: byteLimit) }
    throw .tooManyStepsForSize(
      count: steps, bytesPerStep: data.bytes / data.stepCount, limit: byteLimit)
  }

  /// Writes the head, the title, the table of what the run is, and the timeline's frame.
  mutating func open(steps: Int, rows: [(String, String)], finalDiff: String?)
    throws(InspectorPageError)
  {
    self.steps = steps
    var html = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; \
      style-src 'unsafe-inline'; script-src 'unsafe-inline'">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta name="generator" content="Decisions inspector">
      <title>\(escaped(title)) · inspector</title>
      <style>\(inspectorStyle)</style>
      </head>
      <body data-steps="\(steps)">
      <header>
      <h1>\(escaped(title))</h1>
      <dl id="about">

      """
    for (name, value) in rows {
      html += "<div><dt>\(escaped(name))</dt><dd>\(escaped(value))</dd></div>\n"
    }
    html += "</dl>\n"
    if let finalDiff {
      html += """
        <details id="final-diff"><summary>The recorded final state (−) and the replay's (+)\
        </summary>\(diffBlock(finalDiff))</details>

        """
    }
    html += """
      </header>
      <main>
      <nav id="timeline" aria-label="Steps">
      <input id="filter" type="search" placeholder="Filter steps by event" \
      aria-label="Filter steps by event" autocomplete="off">
      <p id="shown">\(steps == 1 ? "1 step" : "\(steps) steps")</p>
      <button id="initial-link" type="button">Initial state</button>
      <div id="scroller"><ol id="steps"></ol></div>
      </nav>
      <div id="details"><p class="none">The steps are shown by the page&#39;s script.</p></div>
      </main>

      """
    head = html
    try checkSize()
  }

  /// Adds the initial state, shown until a step is chosen.
  mutating func addInitialState(_ state: String) throws(InspectorPageError) {
    data.setInitialState(state)
    try checkSize()
  }

  /// Adds one step: its event, in full and on one line, its decisions, its diff (nil when the
  /// state did not change) and the state after it.
  mutating func addStep(
    event: String, flatEvent: String, decisions: [String], diff: String?, state: String
  ) throws(InspectorPageError) {
    let shown =
      flatEvent.count > Self.timelineWidth
      ? flatEvent.prefix(Self.timelineWidth) + "…" : flatEvent
    data.addStep(event: event, flatEvent: shown, decisions: decisions, diff: diff, state: state)
    try checkSize()
  }

  /// Writes the explored states, if any, the data and the script, and returns the whole page.
  mutating func close(explored: Explored?) throws(InspectorPageError) -> String {
    var tail = ""
    if let explored {
      let visited = explored.visits.count { !$0.isEmpty }
      let outside =
        explored.unexplored == 0
        ? "" : "; \(explored.unexplored) of its states are not among them"
      let isDrawn = if case .drawn = explored.diagram { true } else { false }
      tail += """
        <section id="explored"\(isDrawn ? " class=\"drawn\"" : "")>
        <h2>Explored states</h2>
        <p>\(escaped(explored.summary)). The run visited \(visited) of them, highlighted\(outside).\
        </p>

        """
      switch explored.diagram {
      case .drawn(let diagram):
        tail += """
          <p class="legend">Each circle is a state, numbered as in the list below; each arrow, the \
          transitions from one state to another, with its event where it fits (hover for all; \
          events that leave a state as it was and decide nothing are not drawn). Filled: the \
          states the run visited; orange: its path, numbered by step. Click a visited state to \
          jump to its first step, again for its next.</p>
          <div id="diagram">
          \(diagram.svg(states: explored.states, visits: explored.visits))
          </div>

          """
      case .leftOut(let reason):
        tail += "<p class=\"left-out\">\(escaped(reason))</p>\n"
      }
      if size + tail.utf8.count > byteLimit { throw .tooLarge(limit: byteLimit) }
      tail += "<ol start=\"0\">\n"
      for (state, visits) in zip(explored.states, explored.visits) {
        if visits.isEmpty {
          tail += "<li><code>\(escaped(state))</code></li>\n"
        } else {
          let steps = visits.prefix(20).map(String.init).joined(separator: ", ")
          tail +=
            "<li class=\"visited\" data-step=\"\(visits[0])\"><code>\(escaped(state))</code> "
            + "<span class=\"visits\">steps \(steps)\(visits.count > 20 ? ", …" : "")</span></li>\n"
        }
        if size + tail.utf8.count > byteLimit { throw .tooLarge(limit: byteLimit) }
      }
      tail += "</ol>\n</section>\n"
    }
    tail += """
      <output id="selftest" hidden></output>
      <script>\(inspectorScript)</script>
      </body>
      </html>

      """
    let dataStart = "<div id=\"data\" hidden>"
    let dataEnd = "</div>\n"
    let total = size + dataStart.utf8.count + dataEnd.utf8.count + tail.utf8.count
    if total > byteLimit { try checkSize() }
    if total > byteLimit { throw .tooLarge(limit: byteLimit) }
    var page = ""
    page.reserveCapacity(total)
    page += head
    page += dataStart
    data.write(to: &page)
    page += dataEnd
    page += tail
    return page
  }

  /// A diff as lines, each marked as removed, added or a path.
  private func diffBlock(_ diff: String) -> String {
    let lines = diff.split(separator: "\n", omittingEmptySubsequences: false).map { line in
      let kind =
        line.hasPrefix("\u{2212}") ? "del" : line.hasPrefix("+") ? "add" : "path"
      return "<span class=\"\(kind)\">\(escaped(line))</span>"
    }
    return "<pre class=\"diff\">" + lines.joined(separator: "\n") + "</pre>"
  }
}

/// `text` as HTML text or attribute value: `&`, `<`, `>` and quotes as entities, and control
/// characters other than the newline and the tab as visible `\u{1B}` escapes.
func escaped(_ text: some StringProtocol) -> String {
  var result = ""
  result.reserveCapacity(text.utf8.count)
  for scalar in text.unicodeScalars {
    switch scalar {
    case "&": result += "&amp;"
    case "<": result += "&lt;"
    case ">": result += "&gt;"
    case "\"": result += "&quot;"
    case "'": result += "&#39;"
    case "\n", "\t": result.unicodeScalars.append(scalar)
    case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
      result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result
}
