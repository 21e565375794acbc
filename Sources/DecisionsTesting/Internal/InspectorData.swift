// The run's data on an inspector page: one JSON object in a hidden element, which the page's
// script parses and draws from (InspectorPageAssets.swift). It is compact, so that a page of
// 100,000 steps fits its limit: every text (an event, a decision, a state, a diff) is stored once,
// however many steps have it, and a step is four numbers:
//
//   {"texts": [text, ...],                  every distinct text
//    "events": [full, line, ...],           per distinct event: its texts, in full and on one line
//    "decisions": [[text, ...], ...],       every distinct list of decisions; 0 is the empty one
//    "initial": text,                       the initial state
//    "steps": [event, decisions, diff, state, ...]}   per step; diff -1: the state did not change
//
// A text is JSON with `<`, `>` and `&` written as `\u` escapes, so the data holds no character the
// HTML parser reads as markup or as an entity: the element's text is the JSON, as written. Control
// characters other than the newline and the tab are shown as visible `\u{1B}` escapes, as in the
// rest of the page.

/// The data of an inspector page, as it is added step by step.
struct InspectorData {
  /// The distinct texts, as JSON strings separated by commas.
  private var texts = ""
  private var textIDs: [String: Int] = [:]
  /// The distinct events, as pairs of text numbers separated by commas.
  private var events = ""
  private var eventIDs: [Pair: Int] = [:]
  /// The distinct lists of decisions, as JSON arrays separated by commas; the first is empty.
  private var lists = "[]"
  private var listIDs: [[Int]: Int] = [[]: 0]
  /// The steps, four numbers each, separated by commas.
  private var rows = ""
  /// The number of the initial state's text.
  private var initial = -1
  /// How many steps have been added.
  private(set) var stepCount = 0
  /// How many bytes the texts of states and diffs take.
  private(set) var stateBytes = 0

  /// The text around the parts.
  private static let frame = (
    texts: "{\"texts\":[", events: "],\"events\":[", lists: "],\"decisions\":[",
    initial: "],\"initial\":", rows: ",\"steps\":[", end: "]}"
  )

  private struct Pair: Hashable {
    var full: Int
    var line: Int
  }

  /// The data's size in bytes of UTF-8, as `write(to:)` writes it.
  var bytes: Int {
    let frame = Self.frame
    return frame.texts.utf8.count + texts.utf8.count + frame.events.utf8.count
      + events.utf8.count + frame.lists.utf8.count + lists.utf8.count
      + frame.initial.utf8.count + String(initial).utf8.count + frame.rows.utf8.count
      + rows.utf8.count + frame.end.utf8.count
  }

  /// Sets the initial state.
  mutating func setInitialState(_ state: String) {
    initial = text(state, isState: true)
  }

  /// Adds one step.
  mutating func addStep(
    event: String, flatEvent: String, decisions: [String], diff: String?, state: String
  ) {
    let pair = Pair(full: text(event), line: text(flatEvent))
    let eventID: Int
    if let known = eventIDs[pair] {
      eventID = known
    } else {
      eventID = eventIDs.count
      eventIDs[pair] = eventID
      events += (eventID == 0 ? "" : ",") + "\(pair.full),\(pair.line)"
    }
    let list = decisions.map { text($0) }
    let listID: Int
    if let known = listIDs[list] {
      listID = known
    } else {
      listID = listIDs.count
      listIDs[list] = listID
      lists += ",[" + list.map(String.init).joined(separator: ",") + "]"
    }
    let diffID = diff.map { text($0, isState: true) } ?? -1
    let stateID = text(state, isState: true)
    rows += (stepCount == 0 ? "" : ",") + "\(eventID),\(listID),\(diffID),\(stateID)"
    stepCount += 1
  }

  /// Appends the data, as one JSON object, to `page`.
  func write(to page: inout String) {
    let frame = Self.frame
    page += frame.texts
    page += texts
    page += frame.events
    page += events
    page += frame.lists
    page += lists
    page += frame.initial
    page += String(initial)
    page += frame.rows
    page += rows
    page += frame.end
  }

  /// The number of `value` among the texts, which it joins unless it is there already.
  private mutating func text(_ value: String, isState: Bool = false) -> Int {
    if let known = textIDs[value] { return known }
    let number = textIDs.count
    textIDs[value] = number
    let encoded = (number == 0 ? "" : ",") + jsonText(value)
    texts += encoded
    if isState { stateBytes += encoded.utf8.count }
    return number
  }
}

/// `text` as a JSON string that holds no `<`, `>` or `&`, with control characters other than the
/// newline and the tab as visible `\u{1B}` escapes (which the JSON keeps as text).
func jsonText(_ text: String) -> String {
  var result = "\""
  result.reserveCapacity(text.utf8.count + 2)
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": result += "\\\""
    case "\\": result += "\\\\"
    case "\n": result += "\\n"
    case "\t": result += "\\t"
    case "<": result += "\\u003c"
    case ">": result += "\\u003e"
    case "&": result += "\\u0026"
    case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
      result += "\\\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    case "\u{2028}": result += "\\u2028"
    case "\u{2029}": result += "\\u2029"
    default: result.unicodeScalars.append(scalar)
    }
  }
  return result + "\""
}
