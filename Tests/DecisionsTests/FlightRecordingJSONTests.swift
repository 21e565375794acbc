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
      #"{"format": "decisions.flight-recording", "version": "1"}"#,
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
    // NB: Foundation's parser reports a number too large for `Int` as invalid JSON, at the root.
    let huge = Self.error(decoding: try Self.json(changing: ["capacity": 1e300]))
    guard case .malformedJSON = huge else {
      Issue.record("a capacity of 1e300 gave \(String(describing: huge))")
      return
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
