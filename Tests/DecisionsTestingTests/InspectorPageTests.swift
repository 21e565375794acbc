import Foundation
import Testing

@testable import DecisionsTesting

/// The inspector page: one self-contained HTML file per run, with a timeline, each step's event,
/// decisions and state diff, and every recorded text escaped.
@Suite struct InspectorPageTests {
  static let events: [Keypad.Event] = [.digit(7), .light(true), .digit(3), .digit(9), .digit(1)]

  // MARK: - What the page shows

  @Test func thePageHoldsEveryStepOnceInItsData() throws {
    let page = try Replay(Keypad.self, from: .init(), events: Self.events).inspectorPage()
    #expect(page.hasPrefix("<!DOCTYPE html>\n"))
    #expect(page.contains("<body data-steps=\"5\">"))
    #expect(page.contains("<p id=\"shown\">5 steps</p>"))
    // The timeline and the sections are drawn by the script, from the data: none is in the HTML.
    #expect(page.contains("<div id=\"scroller\"><ol id=\"steps\"></ol></div>"))
    #expect(!page.contains("<li data-step="))
    #expect(!page.contains("<section class=\"detail\""))
    let data = try PageData(page)
    #expect(data.count == 5)
    #expect(data.initialState == "Keypad.State(lastDigits: [], isOpen: false, isLit: false)")
    #expect(
      (1...5).map { data.step($0).line }
        == [".digit(7)", ".light(true)", ".digit(3)", ".digit(9)", ".digit(1)"])
  }

  @Test func aStepShowsItsEventDecisionsAndStateDiff() throws {
    let page = try Replay(Keypad.self, from: .init(), events: Self.events).inspectorPage()
    let data = try PageData(page)
    let first = data.step(1)
    #expect(first.event == ".digit(7)")
    #expect(first.decisions == [])
    #expect(first.diff == "Keypad.State\n  .lastDigits[0]\n+   7")
    let last = data.step(5)
    #expect(last.decisions == [".unlock"])
    #expect(last.diff?.contains("\n+   true") == true)
    #expect(last.state == "Keypad.State(lastDigits: [7, 3, 9, 1], isOpen: true, isLit: true)")
  }

  @Test func aStepThatChangesNothingSaysSo() throws {
    let page = try Replay(Keypad.self, from: .init(), events: [.light(false)]).inspectorPage()
    #expect(page.contains("<p id=\"shown\">1 step</p>"))
    let data = try PageData(page)
    #expect(data.step(1).diff == nil)
    #expect(data.step(1).state == data.initialState)
  }

  @Test func eachDistinctTextIsStoredOnce() throws {
    // 1,000 steps that go back and forth between two states: two states, two events, two diffs.
    let events = (0..<1_000).map { Keypad.Event.light($0.isMultiple(of: 2)) }
    let page = try Replay(Keypad.self, from: .init(), events: events).inspectorPage()
    let data = try PageData(page)
    #expect(data.count == 1_000)
    #expect(data.texts.count == 6)
    #expect(Set(data.texts).count == data.texts.count)
    #expect(data.step(999).event == ".light(true)" && data.step(1_000).event == ".light(false)")
    #expect(data.step(999).diff == "Keypad.State\n  .isLit\n\u{2212}   false\n+   true")
    // The steps take a few bytes each: far from the 820 a step took as HTML sections.
    #expect(page.utf8.count < 40_000)
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
    let visited: String =
      "<li class=\"visited\" data-step=\"0\"><code>Keypad.State(lastDigits: [], isOpen: false, "
      + "isLit: false)</code> <span class=\"visits\">steps 0, 1, 2</span></li>"
    #expect(page.contains(visited))
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
    // In the data, `<`, `>` and `&` are JSON escapes: the data is one text, with no markup and
    // no entity in it, whatever the events hold.
    let data = try PageData(page)
    #expect(!data.json.contains { "<>&".contains($0) })
    #expect(page.contains(".send(\\\"\\u003cscript\\u003ealert(1)\\u003c/script\\u003e\\\")"))
    #expect(data.step(1).event == ".send(\"<script>alert(1)</script>\")")
    #expect(data.step(3).event == #".send("\"\'&amp;<!--")"#)
    #expect(data.step(4).event.hasPrefix(#".send("\u{1B}[2J\0]]>")"#))
    #expect(data.step(5).state.contains("</textarea></pre></section>"))
  }

  @Test func aTextThatLooksLikeTheEndOfTheDataStaysInIt() throws {
    let hostile = "</div><script>alert(1)</script>\u{2028}\u{2029}\"]}"
    let page = try Replay(Chat.self, from: .init(), events: [.send(hostile)]).inspectorPage()
    #expect(occurrences(of: "<script", in: page) == 1)
    let data = try PageData(page)
    #expect(data.step(1).event.contains("</div><script>alert(1)</script>"))
    #expect(data.step(1).state.contains("\u{2028}\u{2029}\\\"]}"))
  }

  @Test func thePageReferencesNothingOutsideItself() throws {
    let page = try Replay(Chat.self, from: .init(), events: [.send("see https://example.com")])
      .inspectorPage()
    let lowercased = page.lowercased()
    // The one address is the event's own text, shown as text.
    #expect(lowercased.contains(#".send(\"see https://example.com\")"#))
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
    // NB: a typed constant: a chain of `+` inside `#expect` takes the type checker long.
    let tooLarge: String =
      "The inspector page would be larger than its limit of 100000 bytes: its states are too "
      + "large to show whole."
    #expect("\(InspectorPageError.tooLarge(limit: 100_000))" == tooLarge)
    let page = try replay.prefix(1).inspectorPage(limits: .init(bytes: 100_000))
    #expect(page.utf8.count <= 100_000)
  }

  @Test func aPageWithTooManyStepsForItsBytesSaysSo() throws {
    // 100,000 steps of a number: the states are tiny, the steps are many.
    let replay = Replay(Sum.self, from: 0, events: Array(repeating: 1, count: 100_000))
    #expect {
      try replay.inspectorPage(limits: .init(bytes: 1_000_000))
    } throws: { error in
      guard
        case .tooManyStepsForSize(100_000, let bytesPerStep, 1_000_000)? =
          error as? InspectorPageError
      else { return false }
      return (5...100).contains(bytesPerStep)
    }
    let tooMany: String =
      "The inspector page would be larger than its limit of 1000000 bytes: the run has too "
      + "many steps for it (100000, at about 40 bytes each, although its states are small); "
      + "show fewer steps, such as a prefix of the replay, or raise the limit."
    #expect(
      "\(InspectorPageError.tooManyStepsForSize(count: 100_000, bytesPerStep: 40, limit: 1_000_000))"
        == tooMany)
  }

  @Test func aHundredThousandStepsOfATinyStateFitTheDefaultLimit() throws {
    // Every state is a new one: nothing is shared but the event.
    let replay = Replay(Sum.self, from: 0, events: Array(repeating: 1, count: 100_000))
    let page = try replay.inspectorPage()
    #expect(page.utf8.count <= InspectorPage.Limits().bytes)
    let data = try PageData(page)
    #expect(data.count == 100_000)
    #expect(data.step(100_000).state == "100000")
    #expect(data.step(100_000).diff == "Int\n\u{2212}   99999\n+   100000")
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

}

/// A page's data, decoded as its script reads it.
struct PageData: Decodable {
  /// One step, as the page shows it.
  struct Step: Equatable {
    var event: String
    var line: String
    var decisions: [String]
    var diff: String?
    var state: String
  }

  var texts: [String]
  var events: [Int]
  var decisions: [[Int]]
  var initial: Int
  var steps: [Int]
  /// The data as the page holds it.
  var json = ""

  private enum CodingKeys: String, CodingKey {
    case texts, events, decisions, initial, steps
  }

  /// The data of `page`: the text of its `<div id="data" hidden>`.
  init(_ page: String) throws {
    let start = try #require(page.range(of: "<div id=\"data\" hidden>"))
    let end = try #require(page[start.upperBound...].firstIndex(of: "<"))
    #expect(page[end...].hasPrefix("</div>\n"))
    let json = String(page[start.upperBound..<end])
    self = try JSONDecoder().decode(PageData.self, from: Data(json.utf8))
    self.json = json
  }

  var count: Int { steps.count / 4 }
  var initialState: String { texts[initial] }

  /// Step `number`, counting from 1.
  func step(_ number: Int) -> Step {
    let at = (number - 1) * 4
    return Step(
      event: texts[events[steps[at] * 2]], line: texts[events[steps[at] * 2 + 1]],
      decisions: decisions[steps[at + 1]].map { texts[$0] },
      diff: steps[at + 2] < 0 ? nil : texts[steps[at + 2]], state: texts[steps[at + 3]])
  }
}
