// The inspector page's HTML, written as a replay is walked: the page's head and what the run is,
// then one hidden section per step, then the timeline (which needs to know which steps changed the
// state), and last the explored states (drawn by InspectorDiagram.swift, and listed) and the script. `close` puts the timeline before the
// sections.
//
// Everything recorded is written through `escaped(_:)`, as text between tags, never in an
// attribute and never in the script: attributes hold only numbers and fixed words, and the script
// finds its data in the document. A content security policy forbids loading anything, so a page
// that somehow held markup could still reach no network.
//
// The byte limit is checked after each part is written, so a page that would be too large stops
// at about the limit plus one step, not after all of it is built; `close` then joins the parts,
// which holds the page twice for a moment.

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

  /// The head, and what the run is.
  private var head = ""
  /// The timeline of the steps.
  private var timeline = ""
  /// The sections of the initial state and the steps, and what follows them.
  private var sections = ""
  private let title: String
  private let byteLimit: Int

  init(title: String, byteLimit: Int) {
    self.title = title
    self.byteLimit = byteLimit
  }

  /// Appends `html` to a part of the page and checks the page's size.
  private mutating func write(
    _ html: String, to part: WritableKeyPath<InspectorHTML, String> = \.sections
  ) throws(InspectorPageError) {
    self[keyPath: part] += html
    let size = head.utf8.count + timeline.utf8.count + sections.utf8.count
    guard size <= byteLimit else { throw .tooLarge(limit: byteLimit) }
  }

  /// Writes the head, the title and the table of what the run is.
  mutating func open(steps: Int, rows: [(String, String)], finalDiff: String?)
    throws(InspectorPageError)
  {
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
    html += "</header>\n<main>\n"
    try write(html, to: \.head)
  }

  /// Writes the timeline: one numbered entry per step, with its event on one line, dimmed when
  /// the step left the state as it was.
  mutating func addTimeline(_ steps: [(event: String, changed: Bool)]) throws(InspectorPageError) {
    try write(
      """
      <nav id="timeline" aria-label="Steps">
      <input id="filter" type="search" placeholder="Filter steps by event" \
      aria-label="Filter steps by event" autocomplete="off">
      <p id="shown">\(steps.count == 1 ? "1 step" : "\(steps.count) steps")</p>
      <button id="initial-link" type="button">Initial state</button>
      <ol id="steps">

      """, to: \.timeline)
    for (index, step) in steps.enumerated() {
      let event = step.event
      let shown =
        event.count > Self.timelineWidth ? event.prefix(Self.timelineWidth) + "…" : event
      try write(
        "<li data-step=\"\(index + 1)\"\(step.changed ? "" : " class=\"same\"") tabindex=\"-1\">"
          + "<span class=\"n\">\(index + 1)</span>"
          + "<code class=\"event\">\(escaped(shown))</code></li>\n", to: \.timeline)
    }
    try write("</ol>\n</nav>\n", to: \.timeline)
  }

  /// Writes the section of the initial state, shown until a step is chosen.
  mutating func addInitialState(_ state: String) throws(InspectorPageError) {
    try write(
      """
      <section class="detail" data-step="0">
      <h2>Initial state</h2>
      <pre class="state">\(escaped(state))</pre>
      </section>

      """)
  }

  /// Writes the hidden section of one step.
  mutating func addStep(
    number: Int, event: String, decisions: [String], diff: String?, state: String
  ) throws(InspectorPageError) {
    var html = """
      <section class="detail" data-step="\(number)" hidden>
      <h2>Step \(number)</h2>
      <h3>Event</h3>
      <pre class="event">\(escaped(event))</pre>
      <h3>Decisions</h3>

      """
    if decisions.isEmpty {
      html += "<p class=\"none\">none</p>\n"
    } else {
      html += "<ol class=\"decisions\">"
      html += decisions.map { "<li><pre>\(escaped($0))</pre></li>" }.joined()
      html += "</ol>\n"
    }
    html += "<h3>State: − before, + after</h3>\n"
    if let diff {
      html += diffBlock(diff) + "\n"
    } else {
      html += "<p class=\"none unchanged\">The state did not change.</p>\n"
    }
    html += """
      <details class="after"><summary>The state after step \(number)</summary>\
      <pre class="state">\(escaped(state))</pre></details>
      </section>

      """
    try write(html)
  }

  /// Writes the explored states, if any, and the script, and returns the whole page.
  mutating func close(explored: Explored?) throws(InspectorPageError) -> String {
    try write("</div>\n</main>\n")
    if let explored {
      let visited = explored.visits.count { !$0.isEmpty }
      let outside =
        explored.unexplored == 0
        ? "" : "; \(explored.unexplored) of its states are not among them"
      let isDrawn = if case .drawn = explored.diagram { true } else { false }
      var html = """
        <section id="explored"\(isDrawn ? " class=\"drawn\"" : "")>
        <h2>Explored states</h2>
        <p>\(escaped(explored.summary)). The run visited \(visited) of them, highlighted\(outside).\
        </p>

        """
      switch explored.diagram {
      case .drawn(let diagram):
        html += """
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
        html += "<p class=\"left-out\">\(escaped(reason))</p>\n"
      }
      try write(html)
      html = "<ol start=\"0\">\n"
      for (state, visits) in zip(explored.states, explored.visits) {
        if visits.isEmpty {
          html += "<li><code>\(escaped(state))</code></li>\n"
        } else {
          let steps = visits.prefix(20).map(String.init).joined(separator: ", ")
          html +=
            "<li class=\"visited\" data-step=\"\(visits[0])\"><code>\(escaped(state))</code> "
            + "<span class=\"visits\">steps \(steps)\(visits.count > 20 ? ", …" : "")</span></li>\n"
        }
        if html.utf8.count > byteLimit { throw .tooLarge(limit: byteLimit) }
      }
      html += "</ol>\n</section>\n"
      try write(html)
    }
    try write(
      """
      <output id="selftest" hidden></output>
      <script>\(inspectorScript)</script>
      </body>
      </html>

      """)
    return head + timeline + "<div id=\"details\">\n" + sections
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
