import Foundation
import Testing

@testable import DecisionsTesting

/// The inspector page's diagram of an exploration: a circle per explored state, an arrow per pair
/// of states a transition joins, the visited states filled and the run's path drawn over them, laid
/// out the same on every run, left out past its limits, and every recorded text escaped.
@Suite struct InspectorDiagramTests {
  /// The keypad with its light: two states, one arrow each way.
  static let light = explore(
    Keypad.self, from: .init(), key: { $0.isLit },
    events: { _ in [.light(true), .light(false)] })

  /// The keypad's last digits with two keys: 31 states, 62 transitions, 2 of which loop on the
  /// state they leave (7 7 7 7 and 3 3 3 3) and are not drawn.
  static let digits = explore(
    Keypad.self, from: .init(), key: \.lastDigits, events: { _ in [.digit(7), .digit(3)] })

  /// A run over `digits`: each step's state is explored; `.clear` goes back to state 0.
  static let run: [Keypad.Event] = [
    .digit(7), .digit(3), .light(true), .digit(3), .digit(7), .clear, .digit(3), .digit(3),
    .digit(7), .digit(7),
  ]

  // MARK: - What is drawn

  @Test func aSmallExplorationIsDrawnExactly() throws {
    let replay = Replay(
      Keypad.self, from: .init(), events: [.light(true), .light(false), .digit(1), .light(true)])
    let page = try replay.inspectorPage(exploration: Self.light)
    let svg = try diagram(of: page)
    // State 0 (the start, ringed) in the first column, 1 in the second; the arrow there is bent
    // because one comes back, and labelled; the one back bends more and is not; both are on the
    // path, numbered by their steps; the digit changes no explored state and draws no move.
    #expect(
      svg == """
        <svg id="diagram-graph" width="266" height="93" viewBox="0 -1 266 93" role="img" \
        aria-label="The explored states and their transitions" data-states="2" data-edges="2" \
        data-hops="2">
        <g class="edges">
        <g class="edge" data-from="0" data-to="1"><title>0 → 1: .light(true)</title>\
        <path d="M52 57Q133 78 213 58"/><polygon points="213,58 207,64 205,56"/>\
        <text x="133" y="64">.light(true)</text></g>
        <g class="edge" data-from="1" data-to="0"><title>1 → 0: .light(false)</title>\
        <path d="M217 46Q133 -16 50 45"/><polygon points="50,45 54,37 59,44"/></g>
        </g>
        <g class="path">
        <g class="hop" data-step="1" data-from="0" data-to="1"><title>steps 1, 4: 0 → 1</title>\
        <path d="M52 57Q133 78 213 58"/><polygon points="213,58 207,64 205,56"/>\
        <text x="133" y="82">1, 4</text></g>
        <g class="hop" data-step="2" data-from="1" data-to="0"><title>step 2: 1 → 0</title>\
        <path d="M217 46Q133 -16 50 45"/><polygon points="50,45 54,37 59,44"/>\
        <text x="133" y="29">2</text></g>
        </g>
        <g class="nodes">
        <g class="node visited start" data-node="0" data-step="0" data-visits="0 2 3">\
        <title>state 0: Keypad.State(lastDigits: [], isOpen: false, isLit: false)
        steps 0, 2, 3 (click to jump; again for the next)</title>\
        <circle class="ring" cx="38" cy="54" r="18"/><circle cx="38" cy="54" r="14"/>\
        <text x="38" y="54">0</text></g>
        <g class="node visited" data-node="1" data-step="1" data-visits="1 4">\
        <title>state 1: Keypad.State(lastDigits: [], isOpen: false, isLit: true)
        steps 1, 4 (click to jump; again for the next)</title><circle cx="228" cy="54" r="14"/>\
        <text x="228" y="54">1</text></g>
        </g>
        </svg>
        """)
  }

  @Test func everyStateIsACircleAndEveryPairOfStatesAnArrow() throws {
    let replay = Replay(Keypad.self, from: .init(), events: Self.run)
    let page = try replay.inspectorPage(exploration: Self.digits)
    let svg = try diagram(of: page)
    #expect(Self.digits.states.count == 31 && Self.digits.transitions.count == 62)
    #expect(occurrences(of: " data-node=", in: svg) == 31)
    #expect(occurrences(of: "<g class=\"edge\"", in: svg) == 60)
    #expect(svg.contains("data-states=\"31\" data-edges=\"60\""))
    // The list is still there, below the diagram.
    #expect(occurrences(of: "<li", in: try explored(of: page)) == 31)
    #expect(page.contains("<section id=\"explored\" class=\"drawn\">"))
    let diagramStart = try #require(page.range(of: "<div id=\"diagram\">"))
    let listStart = try #require(page.range(of: "<ol start=\"0\">"))
    #expect(diagramStart.lowerBound < listStart.lowerBound)
    // Each arrow is labelled by its event, in its tooltip at least.
    #expect(svg.contains("<title>0 → 1: .digit(7)</title>"))
    #expect(svg.contains("<text x=\"") && svg.contains(">.digit(3)</text>"))
  }

  @Test func theVisitedStatesAreFilledAndThePathIsInTheOrderOfItsSteps() throws {
    let replay = Replay(Keypad.self, from: .init(), events: Self.run)
    let svg = try diagram(of: try replay.inspectorPage(exploration: Self.digits))
    let path = (0...replay.count).map { step in
      replay.state(atStep: step).flatMap(Self.digits.number(of:)) ?? -1
    }
    #expect(!path.contains(-1))
    // Each visited state once, with its steps; no other state is marked.
    var visits: [Int: [Int]] = [:]
    for (step, state) in path.enumerated() { visits[state, default: []].append(step) }
    #expect(occurrences(of: "<g class=\"node visited", in: svg) == visits.count)
    for (state, steps) in visits {
      let first = steps[0]
      let listed = steps.map(String.init).joined(separator: " ")
      #expect(
        svg.contains(
          "data-node=\"\(state)\" data-step=\"\(first)\" data-visits=\"\(listed)\">"),
        "state \(state)")
    }
    // The path's moves, in the order of their first steps: the light changes no explored state.
    let moves = zip(path, path.dropFirst()).enumerated().filter { $0.element.0 != $0.element.1 }
    let expected = moves.map {
      "data-step=\"\($0.offset + 1)\" data-from=\"\($0.element.0)\" "
        + "data-to=\"\($0.element.1)\""
    }
    let drawn = svg.split(separator: "\n").filter { $0.hasPrefix("<g class=\"hop\"") }.map {
      String($0.dropFirst("<g class=\"hop\" ".count).prefix { $0 != ">" })
    }
    #expect(drawn == expected)
    #expect(drawn.count == 9)
    #expect(!drawn.contains { $0.hasPrefix("data-step=\"3\"") })
  }

  @Test func theLayoutIsTheSameOnEveryRunAndBarycentresUncross() throws {
    let replay = Replay(Keypad.self, from: .init(), events: Self.run)
    let page = try replay.inspectorPage(exploration: Self.digits)
    let again = explore(
      Keypad.self, from: .init(), key: \.lastDigits, events: { _ in [.digit(7), .digit(3)] })
    #expect(try diagram(of: replay.inspectorPage(exploration: again)) == diagram(of: page))

    // State 0 leads to 1 and 2; 1 to 4 and 2 to 3: listed in order, the arrows to 3 and 4 cross.
    let layers = [0, 1, 1, 2, 2]
    let arrows = [(from: 0, to: 1), (0, 2), (1, 4), (2, 3)]
    let columns = InspectorDiagram.columns(layers: layers, arrows: arrows)
    #expect(columns == [[0], [1, 2], [4, 3]])
    #expect(
      InspectorDiagram.crossings(columns: [[0], [1, 2], [3, 4]], layers: layers, arrows: arrows)
        == 1)
    #expect(InspectorDiagram.crossings(columns: columns, layers: layers, arrows: arrows) == 0)

    // On the keypad's graph, the sweeps cross no more arrows than the order of the search.
    let digits = Self.digits.transitions.map { (from: $0.from, to: $0.to) }
    var byNumber = [[Int]](repeating: [], count: 5)
    for state in Self.digits.states.indices { byNumber[Self.digits.depths[state]].append(state) }
    let swept = InspectorDiagram.columns(layers: Self.digits.depths, arrows: digits)
    #expect(swept.map { $0.sorted() } == byNumber)
    #expect(
      InspectorDiagram.crossings(columns: swept, layers: Self.digits.depths, arrows: digits)
        <= InspectorDiagram.crossings(
          columns: byNumber, layers: Self.digits.depths, arrows: digits))
  }

  @Test func aClickOnAVisitedStateIsHandledByThePagesScript() throws {
    // The script finds the diagram, jumps from a visited state, and checks both in its self-test;
    // .ci/inspector-browser.sh runs it in Chromium.
    for needle in [
      "getElementById('diagram-graph')", "closest('g.node.visited')", "function jumpTo(node)",
      "' nodes=' + nodes.length", "closest('g.hop, li.visited')",
    ] {
      #expect(inspectorScript.contains(needle), "\(needle)")
    }
  }

  // MARK: - Limits

  @Test func anExplorationPastTheLimitsIsListedAndThePageSaysWhy() throws {
    let replay = Replay(Keypad.self, from: .init(), events: Self.run)
    let tooManyStates = try replay.inspectorPage(
      exploration: Self.digits, limits: .init(diagramStates: 30))
    #expect(!tooManyStates.contains("<svg"))
    #expect(!tooManyStates.contains("class=\"drawn\""))
    #expect(
      tooManyStates.contains(
        "<p class=\"left-out\">The diagram is left out: the exploration has 31 states, more than "
          + "the page&#39;s limit of 30 (InspectorPage.Limits.diagramStates); the list below has "
          + "every state.</p>"))
    #expect(occurrences(of: "<li", in: try explored(of: tooManyStates)) == 31)

    // 60 arrows and 9 moves of the path: 69 arrows in all.
    let tooManyArrows = try replay.inspectorPage(
      exploration: Self.digits, limits: .init(diagramEdges: 68))
    #expect(!tooManyArrows.contains("<svg"))
    #expect(
      tooManyArrows.contains(
        "The diagram is left out: it would draw more than 68 arrows, the page&#39;s limit "
          + "(InspectorPage.Limits.diagramEdges)"))
    let onlyJust = try replay.inspectorPage(
      exploration: Self.digits, limits: .init(diagramStates: 31, diagramEdges: 69))
    #expect(onlyJust.contains("<svg"))
    let noPath = try Replay(Keypad.self, from: .init(), events: [])
      .inspectorPage(exploration: Self.digits, limits: .init(diagramEdges: 59))
    #expect(!noPath.contains("<svg") && noPath.contains("more than 59 arrows"))

    // By default, 300 states: the four keys of the factory code make 341.
    let factory = explore(
      Keypad.self, from: .init(), key: \.lastDigits,
      events: { _ in [.digit(7), .digit(3), .digit(9), .digit(1)] })
    let page = try replay.inspectorPage(exploration: factory)
    #expect(!page.contains("<svg"))
    #expect(page.contains("the exploration has 341 states, more than the page&#39;s limit of 300"))
  }

  // MARK: - Escaping

  @Test func hostileEventsInTheDiagramAreEscapedAndNeverBecomeMarkup() throws {
    let hostile = [
      "<script>alert(1)</script>", "</script><img src=x onerror=alert(2)>", "\"'&amp;<!--",
      "</title></text></svg><b>", "\u{1B}[2J\u{0}]]>",
    ]
    let exploration = explore(
      Chat.self, from: .init(), key: { $0.log }, limits: .init(depth: 2),
      events: { _ in hostile.map(Chat.Event.send) })
    let replay = Replay(Chat.self, from: .init(), events: hostile.prefix(2).map(Chat.Event.send))
    let page = try replay.inspectorPage(title: "<b>Chat</b>", exploration: exploration)
    let svg = try diagram(of: page)
    #expect(occurrences(of: " data-node=", in: svg) == exploration.states.count)
    #expect(
      svg.contains(
        "<title>0 → 1: .send(&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;) / &quot;posted&quot;"
          + "</title>"))
    #expect(svg.contains("&lt;/title&gt;&lt;/text&gt;&lt;/svg&gt;&lt;b&gt;"))
    let tail = "<script>\(inspectorScript)</script>\n</body>\n</html>\n"
    #expect(page.hasSuffix(tail))
    let markup = String(page.dropLast(tail.count))
    let tags = Set(
      markup.split(separator: "<").dropFirst().map { text in
        String(text.prefix { $0.isLetter || $0.isNumber || $0 == "/" || $0 == "!" })
      })
    let allowed = InspectorPageTests.pageTags.union(Self.diagramTags)
    #expect(tags.isSubset(of: allowed), "\(tags.subtracting(allowed))")
    #expect(occurrences(of: "<script", in: page.lowercased()) == 1)
    #expect(occurrences(of: "</script", in: page.lowercased()) == 1)
    #expect(occurrences(of: "</svg", in: page.lowercased()) == 1)
    #expect(!page.contains("<img") && !page.contains("<b>"))
    #expect(!page.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{0}" })
    // Attributes hold numbers and fixed words: no quote, angle bracket or ampersand in the text
    // of an attribute comes from an event.
    #expect(!svg.contains("=\"&") && !svg.contains("<img"))
  }

  @Test func theDiagramReferencesNothingOutsideItself() throws {
    let replay = Replay(Keypad.self, from: .init(), events: Self.run)
    let lowercased = try replay.inspectorPage(exploration: Self.digits).lowercased()
    for reference in ["http://", "https://", "src=", "href=", "url(", "@import", "xmlns"] {
      #expect(!lowercased.contains(reference), "\(reference)")
    }
    #expect(lowercased.contains("content=\"default-src 'none'; style-src 'unsafe-inline'"))
  }

  // MARK: - The page the browser checks

  /// Writes the page of `run` over `digits` to the file `DECISIONS_INSPECTOR_DIAGRAM_PAGE` names,
  /// for .ci/inspector-browser.sh; without it, only makes the page.
  @Test func thePageTheBrowserChecks() throws {
    let replay = Replay(Keypad.self, from: .init(), events: Self.run)
    let page = try replay.inspectorPage(title: "Keypad", exploration: Self.digits)
    #expect(page.contains("data-states=\"31\""))
    if let path = ProcessInfo.processInfo.environment["DECISIONS_INSPECTOR_DIAGRAM_PAGE"] {
      try page.write(toFile: path, atomically: true, encoding: .utf8)
    }
  }

  // MARK: - Helpers

  /// The tags of the diagram.
  static let diagramTags: Set<String> = [
    "svg", "/svg", "g", "/g", "path", "polygon", "circle", "text", "/text",
  ]

  /// How many times `text` occurs in `page`.
  private func occurrences(of text: String, in page: String) -> Int {
    page.components(separatedBy: text).count - 1
  }

  /// The page's `<svg>` element.
  private func diagram(of page: String) throws -> String {
    let start = try #require(page.range(of: "<svg"))
    let end = try #require(page.range(of: "</svg>"))
    return String(page[start.lowerBound..<end.upperBound])
  }

  /// The page's list of explored states.
  private func explored(of page: String) throws -> String {
    let start = try #require(page.range(of: "<ol start=\"0\">"))
    let end = try #require(page[start.upperBound...].range(of: "</ol>"))
    return String(page[start.lowerBound..<end.upperBound])
  }
}
