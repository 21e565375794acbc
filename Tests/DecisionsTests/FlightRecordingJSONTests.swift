import Decisions
import Foundation
import Testing

/// A flight recording's JSON: what is written, that it reads back, and that any other input gives a
/// typed error, never a trap.
@Suite struct FlightRecordingJSONTests {
  static let feature = String(reflecting: Gauge.self)

  static let recording = FlightRecording<Gauge>(
    trigger: .requested(note: "tapped Report"), capacity: 4, checkpointInterval: 2,
    eventsBefore: 6, initialState: .init(count: 1, note: "a"),
    events: [.add(2), .typed("<script>alert(1)</script>"), .addTwice(3)],
    finalState: .init(count: 9, note: "<script>alert(1)</script>"))

  /// A valid recording's JSON, with `fields` changed (a value of nil removes the field).
  static func json(changing fields: [String: Any?] = [:]) throws -> Data {
    let data = Data(try recording.json().utf8)
    var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    for (key, value) in fields { object[key] = value }
    return try JSONSerialization.data(withJSONObject: object)
  }

  /// Decodes `bytes` as a recording of `Gauge` and returns the error it throws, if any.
  static func error(
    decoding bytes: some Collection<UInt8>, feature: String? = feature, byteLimit: Int = 1 << 20
  ) -> FlightRecordingError? {
    do {
      _ = try FlightRecording<Gauge>(json: bytes, feature: feature, byteLimit: byteLimit)
      return nil
    } catch {
      return error
    }
  }

  // MARK: - Writing and reading

  @Test func aRecordingReadsBackAsItWasWritten() throws {
    let json = try Self.recording.json()
    #expect(try FlightRecording<Gauge>(json: json.utf8) == Self.recording)
    #expect(try FlightRecording<Gauge>(json: Data(json.utf8), feature: nil) == Self.recording)
  }

  /// The format's fields, as Docs/Recording.md documents them.
  @Test func theFormatHasItsDocumentedFields() throws {
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(try Self.recording.json().utf8))
        as? [String: Any])
    #expect(
      Set(object.keys) == [
        "format", "version", "feature", "trigger", "capacity", "checkpointInterval",
        "eventsBefore", "redacted", "initialState", "events", "finalState",
      ])
    #expect(object["format"] as? String == "decisions.flight-recording")
    #expect(object["version"] as? Int == 1)
    #expect(object["feature"] as? String == Self.feature)
    let trigger = try #require(object["trigger"] as? [String: String])
    #expect(trigger == ["kind": "requested", "note": "tapped Report"])
    #expect((object["events"] as? [Any])?.count == 3)
  }

  /// Each trigger reads back as written.
  @Test(arguments: [
    FlightRecording<Gauge>.Trigger.requested(note: ""),
    .workFailed(work: "payment", error: "refused"),
    .workFailed(work: nil, error: "refused"),
    .invariantBroken("under ten"),
  ])
  func everyTriggerReadsBack(_ trigger: FlightRecording<Gauge>.Trigger) throws {
    let recording = FlightRecording<Gauge>(
      trigger: trigger, capacity: 1, checkpointInterval: 1, initialState: .init(), events: [],
      finalState: .init())
    #expect(try FlightRecording<Gauge>(json: try recording.json().utf8).trigger == trigger)
  }

  /// A value JSON cannot hold gives a typed error when the recording is written.
  @Test func anEventThatCannotBeEncodedGivesATypedError() {
    let recording = FlightRecording<Unencodable>(
      trigger: .requested(note: ""), capacity: 1, checkpointInterval: 1, initialState: .nan,
      events: [], finalState: .nan)
    let error = #expect(throws: FlightRecordingError.self) {
      try recording.json()
    }
    guard case .encodingFailed = error else {
      Issue.record("gave \(String(describing: error))")
      return
    }
    #expect(error?.description.hasPrefix("The flight recording could not be encoded: ") == true)
  }

  // MARK: - Bad input

  @Test func aTruncatedFileIsMalformedJSON() throws {
    let json = try Self.json()
    for length in [0, 1, json.count / 3, json.count / 2, json.count - 1] {
      let error = Self.error(decoding: json.prefix(length))
      guard case .malformedJSON = error else {
        Issue.record("\(length) of \(json.count) bytes gave \(String(describing: error))")
        continue
      }
    }
  }

  @Test func bytesThatAreNotJSONAreMalformed() {
    for bytes: [UInt8] in [Array("hello".utf8), [0xFF, 0xFE, 0x00], Array("{\"format\": }".utf8)] {
      guard case .malformedJSON = Self.error(decoding: bytes) else {
        Issue.record("\(bytes) was not malformed JSON")
        continue
      }
    }
  }

  @Test func otherJSONIsNotAFlightRecording() throws {
    let others = [
      "[]", "42", "\"text\"", "null", "{}", #"{"version": 1}"#,
      #"{"format": "something-else", "version": 1}"#,
      #"{"format": "decisions.flight-recording"}"#,
    ]
    for other in others {
      #expect(Self.error(decoding: other.utf8) == .notAFlightRecording, "\(other)")
    }
    #expect(
      "\(FlightRecordingError.notAFlightRecording)"
        == #"The file is not a flight recording: it has no "format": "decisions.flight-recording" and "version" fields."#
    )
  }

  @Test func anotherVersionIsRefusedBeforeItsContentsAreRead() throws {
    // NB: version 2 may lay out its contents otherwise: the version is checked first.
    let json = try Self.json(changing: ["version": 2, "events": "a new layout"])
    let error = Self.error(decoding: json)
    #expect(error == .unsupportedVersion(found: 2, supported: 1))
    #expect(
      error?.description
        == "The flight recording has format version 2; this library reads version 1.")
  }

  @Test func anotherFeatureIsRefusedBeforeItsStatesAreRead() throws {
    let json = try Self.json(changing: ["feature": "App.Checkout", "initialState": [1, 2]])
    let error = Self.error(decoding: json)
    #expect(error == .wrongFeature(expected: Self.feature, found: "App.Checkout"))
    #expect(
      error?.description.hasPrefix(#"The flight recording is of feature "App.Checkout""#) == true)
    // NB: with no expected feature, any is read, and the states must then fit.
    #expect(
      Self.error(decoding: try Self.json(changing: ["feature": "App.Checkout"]), feature: nil)
        == nil)
  }

  @Test func contentsThatDoNotFitTheFeatureSayWhere() throws {
    let json = try Self.json(changing: ["events": [["add": ["_0": 1]], ["jump": [:]]]])
    let error = Self.error(decoding: json)
    guard case .invalidContents(let path, _) = error else {
      Issue.record("gave \(String(describing: error))")
      return
    }
    #expect(path == ".events[1]")
    #expect(error?.description.contains("The feature may have changed") == true)
    let missing = Self.error(decoding: try Self.json(changing: ["finalState": nil]))
    #expect(missing == .invalidContents(path: ".finalState", "the key is missing"))
    let badTrigger = Self.error(decoding: try Self.json(changing: ["trigger": ["kind": "panic"]]))
    guard case .invalidContents(".trigger.kind", _) = badTrigger else {
      Issue.record("gave \(String(describing: badTrigger))")
      return
    }
  }

  @Test func numbersThatDoNotFitTogetherAreInconsistent() throws {
    for fields: [String: Any] in [
      ["capacity": 0], ["checkpointInterval": -1], ["eventsBefore": -5],
      ["capacity": Int.max], ["capacity": 1, "checkpointInterval": 1],  // 3 events, room for 1
    ] {
      guard case .inconsistent = Self.error(decoding: try Self.json(changing: fields)) else {
        Issue.record("\(fields) was not inconsistent")
        continue
      }
    }
    #expect(
      Self.error(decoding: try Self.json(changing: ["capacity": Int.max]))?.description
        == "The flight recording does not fit together: its capacity is 9223372036854775807, "
        + "more than 4611686018427387903, which no recorder keeps.")
    #expect(
      Self.error(decoding: try Self.json(changing: ["eventsBefore": -5]))?.description
        == "The flight recording does not fit together: its events before is -5, less than 0.")
  }

  /// The recording's JSON with the text `old` replaced by `new`: for numbers no serializer writes.
  static func json(replacing old: String, with new: String) throws -> String {
    let json = try recording.json()
    let changed = json.replacingOccurrences(of: old, with: new)
    #expect(changed != json, "no \(old) in the recording")
    return changed
  }

  @Test func aNumberThatIsNotAWholeIntNamesItsField() throws {
    // NB: Foundation's parser reports a number too large for `Int` at the root, as if the JSON
    // were invalid: each whole-number field says which it is.
    let cases = [
      ("\"version\":1", "\"version\":1e400", "version"),
      ("\"version\":1", "\"version\":\"1\"", "version"),
      ("\"capacity\":4", "\"capacity\":100000000000000000000000000000", "capacity"),
      ("\"capacity\":4", "\"capacity\":1e300", "capacity"),
      ("\"capacity\":4", "\"capacity\":4.5", "capacity"),
      ("\"checkpointInterval\":2", "\"checkpointInterval\":1e29", "checkpointInterval"),
      ("\"eventsBefore\":6", "\"eventsBefore\":-1e29", "eventsBefore"),
    ]
    for (old, new, field) in cases {
      let json = try Self.json(replacing: old, with: new)
      #expect(Self.error(decoding: json.utf8) == .invalidNumber(field: field), "\(new)")
    }
    #expect(
      FlightRecordingError.invalidNumber(field: "version").description
        == "The flight recording's \"version\" is not a valid number: it must be a whole number "
        + "from -9223372036854775808 to 9223372036854775807.")
    // A missing number is a missing key, as any other.
    #expect(
      Self.error(decoding: try Self.json(changing: ["capacity": nil]))
        == .invalidContents(path: ".capacity", "the key is missing"))
  }

  @Test func everyMessageEndsWithOnePeriod() throws {
    let errors: [FlightRecordingError?] = [
      Self.error(decoding: try Self.json(changing: ["events": [["jump": [:]]]])),
      Self.error(decoding: try Self.json(changing: ["trigger": ["kind": "panic"]])),
      Self.error(decoding: try Self.json(changing: ["finalState": "text"])),
      Self.error(decoding: Array("{\"format\": }".utf8)),
      Self.error(decoding: try Self.json().prefix(10)),
      Self.error(decoding: try Self.json(changing: ["capacity": 0])),
      .invalidContents(path: ".events[1]", "The data isn't in the correct format."),
      .malformedJSON("Unexpected end of file."),
      .encodingFailed("Unable to encode Double.nan directly in JSON. "),
      .inconsistent("3 events, more than 1."),
    ]
    for error in errors {
      let message = error?.description ?? "no error"
      #expect(message.hasSuffix(".") && !message.contains(".."), "\(message)")
    }
  }

  @Test func aFileOverTheLimitIsRefusedUnread() throws {
    let json = try Self.json()
    #expect(
      Self.error(decoding: json, byteLimit: json.count - 1)
        == .tooLarge(bytes: json.count, limit: json.count - 1))
    #expect(Self.error(decoding: json, byteLimit: json.count) == nil)
    #expect(FlightRecording<Gauge>.defaultByteLimit == 64 << 20)
  }

  @Test func deeplyNestedInputGivesAnErrorNotACrash() {
    let depth = 100_000
    let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    #expect(Self.error(decoding: nested.utf8) != nil)
    let inState =
      #"{"format": "decisions.flight-recording", "version": 1, "feature": ""#
      + Self.feature + #"", "initialState": "# + nested + "}"
    #expect(Self.error(decoding: inState.utf8) != nil)
  }

  @Test func hostileStringsAreCutShortInMessages() throws {
    let long = String(repeating: "x", count: 100_000)
    let error = Self.error(decoding: try Self.json(changing: ["feature": long]))
    #expect(error == .wrongFeature(expected: Self.feature, found: long))
    #expect((error?.description.count ?? .max) < 300)
    let badKind = Self.error(decoding: try Self.json(changing: ["trigger": ["kind": long]]))
    #expect((badKind?.description.count ?? .max) < 600)
  }
}

/// A feature whose state JSON cannot hold: a `Double.nan`.
enum Unencodable: Feature {
  typealias State = Double
  typealias Event = Double
  static func makeDecisions(event: Double, state: inout Double) -> [Never] { [] }
  static func execute(_ decision: Never, deps: Void, effects: Effects<Double>) {}
}
