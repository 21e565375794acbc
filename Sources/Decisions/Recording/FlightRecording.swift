/// The last events a store with a ``FlightRecorder`` processed, with the state before the first of
/// them: a bug report that replays, through the core, to the store's state.
///
/// Get one from ``Store/flightRecording(note:)`` or ``MainStore/flightRecording(note:)``, or from
/// the recorder's ``FlightRecorder/save`` closure; write it as JSON with ``json()``, and read it back
/// with ``init(json:feature:byteLimit:)``. `DecisionsTesting`'s `Replay` replays it through today's
/// core.
///
/// Its JSON format is versioned (``formatVersion``) and described in Docs/Recording.md.
public struct FlightRecording<F: Feature>: Sendable {
  /// The version of the JSON format this library writes and reads.
  public static var formatVersion: Int { 1 }
  /// The value of the format's `format` field, which says the file is a flight recording.
  public static var formatName: String { flightRecordingFormatName }

  /// The feature's name, as the recorder gave it (``FlightRecorder/feature``).
  public let feature: String
  /// Why the recording was made.
  public let trigger: Trigger
  /// The recorder's ``FlightRecorder/capacity``.
  public let capacity: Int
  /// The recorder's ``FlightRecorder/checkpointInterval``.
  public let checkpointInterval: Int
  /// How many events the store processed before the recording's first: they fell out of the ring.
  public let eventsBefore: Int
  /// Whether the recorder's ``FlightRecorder/Redaction`` changed events, states and errors: the
  /// recorded states then need not be what a replay of the recorded events gives.
  public let isRedacted: Bool
  /// The store's state before the recording's first event.
  public let initialState: F.State
  /// The events the store processed, oldest first, up to the moment the recording was made.
  public let events: [F.Event]
  /// The store's state when the recording was made: what a replay of the events ends in, unless the
  /// feature has changed since, or the recording was redacted.
  public let finalState: F.State

  /// Creates a recording: for tools and tests; a store makes its own.
  /// - Parameters:
  ///   - feature: The feature's name; the type's full name unless given.
  ///   - trigger: Why the recording was made.
  ///   - capacity: The recorder's capacity; at least 1.
  ///   - checkpointInterval: The recorder's checkpoint interval; at least 1.
  ///   - eventsBefore: How many events came before the first one recorded.
  ///   - isRedacted: Whether the events and states were redacted.
  ///   - initialState: The state before the first event.
  ///   - events: The events, oldest first.
  ///   - finalState: The state after the last event.
  public init(
    feature: String = String(reflecting: F.self),
    trigger: Trigger,
    capacity: Int,
    checkpointInterval: Int,
    eventsBefore: Int = 0,
    isRedacted: Bool = false,
    initialState: F.State,
    events: [F.Event],
    finalState: F.State
  ) {
    self.feature = feature
    self.trigger = trigger
    self.capacity = capacity
    self.checkpointInterval = checkpointInterval
    self.eventsBefore = eventsBefore
    self.isRedacted = isRedacted
    self.initialState = initialState
    self.events = events
    self.finalState = finalState
  }

  /// Why a store made a recording.
  public enum Trigger: Sendable, Hashable {
    /// The app asked for it (``Store/flightRecording(note:)``), with a note of its own.
    case requested(note: String)
    /// Long work failed with an error that no `catch:` handler turned into an event.
    /// - Parameters:
    ///   - work: The work's id, as the recorder's redaction describes it, or nil for unkeyed work.
    ///   - error: The error, as the recorder's redaction describes it.
    case workFailed(work: String?, error: String)
    /// The state after the last event breaks the recorder's invariant, named.
    case invariantBroken(String)
  }
}

extension FlightRecording: Equatable where F.State: Equatable, F.Event: Equatable {}

// MARK: - Codable

extension FlightRecording {
  enum Key: String, CodingKey {
    case format, version, feature, trigger, capacity, checkpointInterval, eventsBefore, redacted
    case initialState, events, finalState
  }
}

extension FlightRecording: Encodable where F.State: Encodable, F.Event: Encodable {
  /// Writes the recording in the format of version ``formatVersion``.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(Self.formatName, forKey: .format)
    try container.encode(Self.formatVersion, forKey: .version)
    try container.encode(feature, forKey: .feature)
    try container.encode(trigger, forKey: .trigger)
    try container.encode(capacity, forKey: .capacity)
    try container.encode(checkpointInterval, forKey: .checkpointInterval)
    try container.encode(eventsBefore, forKey: .eventsBefore)
    try container.encode(isRedacted, forKey: .redacted)
    try container.encode(initialState, forKey: .initialState)
    try container.encode(events, forKey: .events)
    try container.encode(finalState, forKey: .finalState)
  }
}

extension FlightRecording: Decodable where F.State: Decodable, F.Event: Decodable {
  /// Reads a recording, checking its format, version and, when the decoder's user info asks
  /// (`CodingUserInfoKey.flightRecordingFeature`), its feature before anything else.
  ///
  /// Throws a ``FlightRecordingError`` for a file that is not a flight recording, of another
  /// version or feature, or whose numbers do not fit together; the decoder's own errors otherwise.
  public init(from decoder: any Decoder) throws {
    guard let container = try? decoder.container(keyedBy: Key.self),
      let format = try? container.decodeIfPresent(String.self, forKey: .format),
      format == Self.formatName, container.contains(.version)
    else { throw FlightRecordingError.notAFlightRecording }
    /// A field that must hold a whole number an `Int` can: any other value (`1e400`, `"1"`,
    /// 10^29) is an error that names the field, as a missing one is.
    func number(_ key: Key) throws -> Int {
      guard container.contains(key) else {
        return try container.decode(Int.self, forKey: key)  // the decoder's "key not found"
      }
      do {
        return try container.decode(Int.self, forKey: key)
      } catch {
        throw FlightRecordingError.invalidNumber(field: key.stringValue)
      }
    }
    let version = try number(.version)
    guard version == Self.formatVersion else {
      throw FlightRecordingError.unsupportedVersion(found: version, supported: Self.formatVersion)
    }
    feature = try container.decode(String.self, forKey: .feature)
    if let expected = decoder.userInfo[.flightRecordingFeature] as? String, expected != feature {
      throw FlightRecordingError.wrongFeature(expected: expected, found: feature)
    }
    trigger = try container.decode(Trigger.self, forKey: .trigger)
    capacity = try number(.capacity)
    checkpointInterval = try number(.checkpointInterval)
    eventsBefore = try number(.eventsBefore)
    isRedacted = try container.decode(Bool.self, forKey: .redacted)
    // NB: a hostile file's memory is bounded by its size (see `init(json:feature:byteLimit:)`);
    // these checks keep numbers that no recorder writes from reaching the code that reads them.
    for (name, value, least, most) in [
      ("capacity", capacity, 1, Int.max / 2),
      ("checkpoint interval", checkpointInterval, 1, Int.max / 2),
      ("events before", eventsBefore, 0, Int.max),
    ] where value < least || value > most {
      throw FlightRecordingError.inconsistent(
        "its \(name) is \(value), "
          + (value < least ? "less than \(least)" : "more than \(most), which no recorder keeps"))
    }
    initialState = try container.decode(F.State.self, forKey: .initialState)
    events = try container.decode([F.Event].self, forKey: .events)
    let most = capacity + checkpointInterval - 1
    guard events.count <= most else {
      throw FlightRecordingError.inconsistent(
        "\(events.count) events, more than a recorder of capacity \(capacity) and checkpoint "
          + "interval \(checkpointInterval) keeps (\(most))")
    }
    finalState = try container.decode(F.State.self, forKey: .finalState)
  }
}

extension FlightRecording.Trigger: Codable {
  private enum Key: String, CodingKey {
    case kind, note, work, error, invariant
  }

  /// Writes the trigger as an object whose `kind` is `requested`, `workFailed` or
  /// `invariantBroken`.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    switch self {
    case .requested(let note):
      try container.encode("requested", forKey: .kind)
      try container.encode(note, forKey: .note)
    case .workFailed(let work, let error):
      try container.encode("workFailed", forKey: .kind)
      try container.encodeIfPresent(work, forKey: .work)
      try container.encode(error, forKey: .error)
    case .invariantBroken(let name):
      try container.encode("invariantBroken", forKey: .kind)
      try container.encode(name, forKey: .invariant)
    }
  }

  /// Reads a trigger written by ``encode(to:)``.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Key.self)
    let kind = try container.decode(String.self, forKey: .kind)
    switch kind {
    case "requested":
      self = .requested(note: try container.decode(String.self, forKey: .note))
    case "workFailed":
      self = .workFailed(
        work: try container.decodeIfPresent(String.self, forKey: .work),
        error: try container.decode(String.self, forKey: .error))
    case "invariantBroken":
      self = .invariantBroken(try container.decode(String.self, forKey: .invariant))
    default:
      throw DecodingError.dataCorruptedError(
        forKey: .kind, in: container,
        debugDescription: "unknown trigger kind \(kind.prefix(40).debugDescription)")
    }
  }
}

extension CodingUserInfoKey {
  /// The key of the feature name a ``FlightRecording`` must have to decode: set it in a decoder's
  /// `userInfo` to have a recording of another feature fail with
  /// ``FlightRecordingError/wrongFeature(expected:found:)`` before its states are read.
  public static let flightRecordingFeature = CodingUserInfoKey(
    rawValue: "decisions.flightRecording.feature")!
}

/// The value of a flight recording's `format` field.
let flightRecordingFormatName = "decisions.flight-recording"
