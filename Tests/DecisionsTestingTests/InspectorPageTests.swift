import Foundation
import Testing

@testable import DecisionsTesting

/// The inspector page: one self-contained HTML file per run, with a timeline, each step's event,
/// decisions and state diff, and every recorded text escaped.
@Suite struct InspectorPageTests {
  static let events: [Keypad.Event] = [.digit(7), .light(true), .digit(3), .digit(9), .digit(1)]

  // MARK: - What the page shows

  @Test func thePageHasOneTimelineEntryAndOneSectionPerStep() throws {
    let page = try Replay(Keypad.self, from: .init(), events: Self.events).inspectorPage()
    #expect(page.hasPrefix("<!DOCTYPE html>\n"))
    #expect(page.contains("<body data-steps=\"5\">"))
    #expect(occurrences(of: "<li data-step=", in: page) == 5)
    #expect(occurrences(of: "<section class=\"detail\" data-step=", in: page) == 6)
    for number in 1...5 {
      #expect(
        page.contains("<li data-step=\"\(number)\" tabindex=\"-1\"><span class=\"n\">\(number)<"))
      #expect(page.contains("<section class=\"detail\" data-step=\"\(number)\" hidden>"))
    }
    // The initial state is shown first; every step's section is hidden until chosen.
    #expect(page.contains("<section class=\"detail\" data-step=\"0\">\n<h2>Initial state</h2>"))
  }

  @Test func aStepShowsItsEventDecisionsAndStateDiff() throws {
    let page = try Replay(Keypad.self, from: .init(), events: Self.events).inspectorPage()
    let first = try section(1, of: page)
    #expect(first.contains("<pre class=\"event\">.digit(7)</pre>"))
    #expect(first.contains("<p class=\"none\">none</p>"))
    #expect(
      first.contains(
        """
        <pre class="diff"><span class="path">Keypad.State</span>
        <span class="path">  .lastDigits[0]</span>
        <span class="add">+   7</span></pre>
        """))
    let last = try section(5, of: page)
    #expect(last.contains("<ol class=\"decisions\"><li><pre>.unlock</pre></li></ol>"))
    #expect(last.contains("<span class=\"add\">+   true</span>"))
    #expect(
      last.contains(
        "<pre class=\"state\">Keypad.State(lastDigits: [7, 3, 9, 1], isOpen: true, isLit: true)"))
  }

  @Test func aStepThatChangesNothingSaysSo() throws {
    let page = try Replay(Keypad.self, from: .init(), events: [.light(false)]).inspectorPage()
    #expect(page.contains("<li data-step=\"1\" class=\"same\" tabindex=\"-1\">"))
    #expect(page.contains("<p id=\"shown\">1 step</p>"))
    #expect(try section(1, of: page).contains("The state did not change."))
    #expect(try !section(1, of: page).contains("<pre class=\"diff\">"))
  }

  @Test func aFlightRecordingsPageSaysWhatTheRecordingIs() throws {
    let replay = Replay(Keypad.self, from: .init(), events: Self.events)
    let recording = FlightRecording<Keypad>(
      trigger: .invariantBroken("not opened by the factory code"), capacity: 500,
      checkpointInterval: 100, eventsBefore: 1_234, initialState: .init(), events: Self.events,
      finalState: try #require(replay.state(atStep: 5)))
    let page = try recording.inspectorPage()
    #expect(page.contains("<title>DecisionsTestingTests.Keypad · inspector</title>"))
    #expect(page.contains("<dt>Feature</dt><dd>DecisionsTestingTests.Keypad</dd>"))
    #expect(
      page.contains(
        "<dt>Trigger</dt><dd>invariant broken: &quot;not opened by the factory code&quot;</dd>"))
    #expect(page.contains("<dt>Events before</dt><dd>1234, fallen out of the recorder"))
    #expect(page.contains("<dt>Redacted</dt><dd>no</dd>"))
    #expect(page.contains("<dt>Steps</dt><dd>5</dd>"))
    #expect(page.contains("<dt>Final state</dt><dd>matches the replay</dd>"))
    #expect(!page.contains("id=\"final-diff\""))
  }

  @Test func aFinalStateThatDiffersFromTheReplayIsShownWithItsDiff() throws {
    let recording = FlightRecording<Keypad>(
      trigger: .requested(note: "report"), capacity: 10, checkpointInterval: 5, isRedacted: true,
      initialState: .init(), events: [.digit(2)],
      finalState: Keypad.State(lastDigits: [0], isOpen: false, isLit: false))
    let page = try recording.inspectorPage()
    #expect(page.contains("<dt>Redacted</dt><dd>yes</dd>"))
    #expect(page.contains("<dt>Final state</dt><dd>differs from the replay"))
    #expect(page.contains("<details id=\"final-diff\">"))
    #expect(page.contains("<span class=\"path\">  .lastDigits[0]</span>"))
    #expect(
      page.contains("<span class=\"del\">\u{2212}   0</span>\n<span class=\"add\">+   2</span>"))
  }

  @Test func anExplorationsStatesAreListedWithTheVisitedOnesHighlighted() throws {
    let exploration = explore(
      Keypad.self, from: .init(), key: { $0.isLit }, events: { _ in [.light(true), .light(false)] })
    let replay = Replay(Keypad.self, from: .init(), events: [.digit(1), .digit(2)])
    let page = try replay.inspectorPage(exploration: exploration)
    #expect(page.contains("<section id=\"explored\" class=\"drawn\">"))
    #expect(page.contains("Keypad: 2 states, 4 transitions, complete. The run visited 1 of them"))
    #expect(
      page.contains(
        "<li class=\"visited\" data-step=\"0\"><code>Keypad.State(lastDigits: [], isOpen: false, "
          + "isLit: false)</code> <span class=\"visits\">steps 0, 1, 2</span></li>"))
    #expect(
      page.contains(
        "<li><code>Keypad.State(lastDigits: [], isOpen: false, isLit: true)</code></li>"))
  }

  // MARK: - Escaping and self-containment

  @Test func hostileStringsAreEscapedAndNeverBecomeMarkup() throws {
    let hostile = [
      "<script>alert(1)</script>", "</script><img src=x onerror=alert(2)>",
      "\"'&amp;<!--", "\u{1B}[2J\u{0}]]>", "</textarea></pre></section>",
    ]
    let page = try Replay(Chat.self, from: .init(), events: hostile.map(Chat.Event.send))
      .inspectorPage(title: "<b>Chat</b>")
    let recording = FlightRecording<Keypad>(
      feature: "</title><script>alert(3)</script>", trigger: .requested(note: "<i>\"note\"</i>"),
      capacity: 10, checkpointInterval: 5, initialState: .init(), events: [],
      finalState: .init())
    for page in [page, try recording.inspectorPage()] {
      let tail = "<script>\(inspectorScript)</script>\n</body>\n</html>\n"
      #expect(page.hasSuffix(tail))
      let markup = String(page.dropLast(tail.count))
      // Every `<` before the page's own script starts one of the page's own tags.
      let tags = Set(
        markup.split(separator: "<").dropFirst().map { text in
          String(text.prefix { $0.isLetter || $0.isNumber || $0 == "/" || $0 == "!" })
        })
      #expect(tags.isSubset(of: Self.pageTags), "\(tags.subtracting(Self.pageTags))")
      #expect(occurrences(of: "<script", in: page.lowercased()) == 1)
      #expect(occurrences(of: "</script", in: page.lowercased()) == 1)
      #expect(!page.contains("<img") && !page.contains("<i>") && !page.contains("<b>"))
      #expect(!page.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{0}" })
    }
    #expect(page.contains("<title>&lt;b&gt;Chat&lt;/b&gt; · inspector</title>"))
    #expect(
      page.contains(
        "<pre class=\"event\">.send(&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;)</pre>"))
    #expect(page.contains(".send(&quot;\\&quot;\\&#39;&amp;amp;&lt;!--&quot;)"))
    #expect(page.contains("\\u{1B}[2J"))
  }

  @Test func thePageReferencesNothingOutsideItself() throws {
    let page = try Replay(Chat.self, from: .init(), events: [.send("see https://example.com")])
      .inspectorPage()
    let lowercased = page.lowercased()
    // The one address is the event's own text, shown as text.
    #expect(lowercased.contains("<code class=\"event\">.send(&quot;see https://example.com&quot;)"))
    let withoutEvent = lowercased.replacingOccurrences(of: "see https://example.com", with: "")
    for reference in ["http://", "https://", "src=", "href=", "url(", "@import", "//cdn"] {
      #expect(!withoutEvent.contains(reference), "\(reference)")
    }
    #expect(page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'"))
  }

  // MARK: - Limits

  @Test func tooManyStepsIsAnError() throws {
    let replay = Replay(Keypad.self, from: .init(), events: Self.events)
    #expect(throws: InspectorPageError.tooManySteps(count: 5, limit: 4)) {
      try replay.inspectorPage(limits: .init(steps: 4))
    }
    let recording = FlightRecording<Keypad>(
      trigger: .requested(note: ""), capacity: 10, checkpointInterval: 5, initialState: .init(),
      events: Self.events, finalState: .init())
    #expect(throws: InspectorPageError.tooManySteps(count: 5, limit: 1)) {
      try recording.inspectorPage(limits: .init(steps: 1))
    }
    #expect(
      "\(InspectorPageError.tooManySteps(count: 5, limit: 1))"
        == "The run has 5 steps, more than the inspector page's limit of 1.")
    #expect(try replay.inspectorPage(limits: .init(steps: 5)).contains("data-steps=\"5\""))
  }

  @Test func aPageLargerThanItsByteLimitIsAnError() throws {
    let long = String(repeating: "x", count: 10_000)
    let replay = Replay(Chat.self, from: .init(), events: Array(repeating: .send(long), count: 50))
    #expect(throws: InspectorPageError.tooLarge(limit: 100_000)) {
      try replay.inspectorPage(limits: .init(bytes: 100_000))
    }
    #expect(
      "\(InspectorPageError.tooLarge(limit: 100_000))"
        == "The inspector page would be larger than its limit of 100000 bytes: its states are too "
        + "large to show whole.")
    let page = try replay.prefix(1).inspectorPage(limits: .init(bytes: 100_000))
    #expect(page.utf8.count <= 100_000)
  }

  // MARK: - Helpers

  /// The tags the page writes.
  static let pageTags: Set<String> = [
    "!DOCTYPE", "html", "/html", "head", "/head", "meta", "title", "/title", "style", "/style",
    "body", "header", "/header", "h1", "/h1", "h2", "/h2", "h3", "/h3", "dl", "/dl", "div", "/div",
    "dt", "/dt", "dd", "/dd", "details", "/details", "summary", "/summary", "span", "/span", "pre",
    "/pre", "main", "/main", "nav", "/nav", "input", "p", "/p", "button", "/button", "ol", "/ol",
    "li", "/li", "code", "/code", "section", "/section", "output", "/output",
  ]

  /// How many times `text` occurs in `page`.
  private func occurrences(of text: String, in page: String) -> Int {
    page.components(separatedBy: text).count - 1
  }

  /// The section of step `number`.
  private func section(_ number: Int, of page: String) throws -> String {
    let start = try #require(page.range(of: "<section class=\"detail\" data-step=\"\(number)\""))
    let end = try #require(page[start.upperBound...].range(of: "</section>"))
    return String(page[start.lowerBound..<end.upperBound])
  }
}
