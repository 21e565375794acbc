// NB: Foundation for its JSON coders: on Linux, FoundationEssentials, the part of the toolchain's
// Foundation that has them. A plain import, as JSONFile's, which shows `URL` in its API.
#if canImport(FoundationEssentials)
  import FoundationEssentials
#elseif canImport(Foundation)
  import Foundation
#endif

#if canImport(FoundationEssentials) || canImport(Foundation)
  extension FlightRecording where F.State: Encodable, F.Event: Encodable {
    /// The recording as JSON text, in the format of version ``formatVersion``, with its keys
    /// sorted: write it to a file, or attach it to a bug report.
    ///
    /// ```swift
    /// guard let recording = await store.flightRecording(note: "the user tapped Report") else { return }
    /// let json = try recording.json()
    /// ```
    /// - Throws: ``FlightRecordingError/encodingFailed(_:)`` when an event or state cannot be
    ///   encoded (a `Double.nan`, say).
    public func json() throws(FlightRecordingError) -> String {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      do {
        return String(decoding: try encoder.encode(self), as: UTF8.self)
      } catch {
        throw .encodingFailed(FlightRecordingError.shortened("\(error)"))
      }
    }
  }

  extension FlightRecording where F.State: Decodable, F.Event: Decodable {
    /// The largest JSON file ``init(json:feature:byteLimit:)`` reads unless told otherwise: 64 MiB.
    public static var defaultByteLimit: Int { 64 << 20 }

    /// Reads a recording from JSON written by ``json()``, checking that it is a flight recording,
    /// of a version this library reads, of the expected feature, and whole.
    ///
    /// ```swift
    /// let recording = try FlightRecording<Keypad>(json: Data(contentsOf: file))
    /// ```
    ///
    /// Any input gives a recording or a ``FlightRecordingError``, never a trap: a truncated file, a
    /// file of another version or feature, a hostile one. Memory is bounded by the file's size,
    /// which must not exceed `byteLimit`.
    /// - Parameters:
    ///   - json: The file's bytes: `Data`, `[UInt8]`, or a string's `utf8`.
    ///   - feature: The feature name the recording must have; by default the type's full name, as
    ///     a recorder writes it unless told otherwise. Nil accepts any.
    ///   - byteLimit: The most bytes to read.
    /// - Throws: ``FlightRecordingError``.
    public init(
      json: some Collection<UInt8>,
      feature: String? = String(reflecting: F.self),
      byteLimit: Int = defaultByteLimit
    ) throws(FlightRecordingError) {
      let size = json.count
      guard size <= byteLimit else { throw .tooLarge(bytes: size, limit: byteLimit) }
      let decoder = JSONDecoder()
      if let feature { decoder.userInfo[.flightRecordingFeature] = feature }
      do {
        self = try decoder.decode(Self.self, from: Data(json))
      } catch let error as FlightRecordingError {
        throw error
      } catch let error as DecodingError {
        throw FlightRecordingError(error)
      } catch {
        throw .malformedJSON(FlightRecordingError.shortened("\(error)"))
      }
    }
  }

  extension FlightRecordingError {
    /// The error for a decoder's error: malformed JSON when the text itself is wrong, contents
    /// that do not fit the feature otherwise.
    fileprivate init(_ error: DecodingError) {
      switch error {
      case .dataCorrupted(let context) where context.codingPath.isEmpty:
        self = .malformedJSON(Self.shortened(Self.describe(context)))
      case .dataCorrupted(let context), .typeMismatch(_, let context),
        .valueNotFound(_, let context):
        self = .invalidContents(
          path: Self.path(context.codingPath), Self.shortened(Self.describe(context)))
      case .keyNotFound(let key, let context):
        self = .invalidContents(
          path: Self.path(context.codingPath + [key]), "the key is missing")
      @unknown default:
        self = .malformedJSON(Self.shortened("\(error)"))
      }
    }

    private static func describe(_ context: DecodingError.Context) -> String {
      if let underlying = context.underlyingError {
        return "\(context.debugDescription) (\(underlying))"
      }
      return context.debugDescription
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
      codingPathText(codingPath, dotted: true)
    }
  }
#endif

/// Why a flight recording could not be read or written.
public enum FlightRecordingError: Error, Equatable, Sendable {
  /// The file is larger than the limit it was read with.
  case tooLarge(bytes: Int, limit: Int)
  /// The file is not JSON, or is cut short: the parser's message.
  case malformedJSON(String)
  /// The file is JSON, but not a flight recording: it has no `format` field that says so, or no
  /// `version`.
  case notAFlightRecording
  /// The file is a flight recording of a version this library does not read.
  case unsupportedVersion(found: Int, supported: Int)
  /// The file is a flight recording of another feature.
  case wrongFeature(expected: String, found: String)
  /// A value in the file does not fit the feature's events or states, or a field is missing: where
  /// (`.events[12]`), and what is wrong.
  case invalidContents(path: String, String)
  /// A field that must hold a whole number (`version`, `capacity`, `checkpointInterval`,
  /// `eventsBefore`) holds something else: a fraction, text, or a number too large for an `Int`
  /// (`1e400`, 10^29).
  case invalidNumber(field: String)
  /// The file's numbers do not fit together: more events than its recorder keeps, a capacity
  /// below 1.
  case inconsistent(String)
  /// An event or state could not be encoded: the encoder's message.
  case encodingFailed(String)

  /// A message from the parser or the file, cut to a length that a log line can hold.
  static func shortened(_ message: String) -> String {
    message.count <= 300 ? message : message.prefix(300) + "…"
  }
}

extension FlightRecordingError: CustomStringConvertible {
  /// What went wrong, in a sentence.
  public var description: String {
    switch self {
    case .tooLarge(let bytes, let limit):
      "The flight recording is \(bytes) bytes, more than the limit of \(limit) bytes."
    case .malformedJSON(let message):
      "The flight recording is not valid JSON, or is cut short: \(Self.clause(message))."
    case .notAFlightRecording:
      "The file is not a flight recording: it has no \"format\": "
        + "\"\(flightRecordingFormatName)\" and \"version\" fields."
    case .unsupportedVersion(let found, let supported):
      "The flight recording has format version \(found); this library reads version \(supported)."
    case .wrongFeature(let expected, let found):
      "The flight recording is of feature \(found.prefix(100).debugDescription), not "
        + "\(expected.debugDescription)."
    case .invalidContents(let path, let message):
      "The flight recording's \(path.isEmpty ? "contents do" : "value at \(path) does") not fit "
        + "the feature: \(Self.clause(message)). The feature may have changed since the "
        + "recording was made."
    case .invalidNumber(let field):
      "The flight recording's \"\(field.prefix(40))\" is not a valid number: it must be a whole "
        + "number from \(Int.min) to \(Int.max)."
    case .inconsistent(let message):
      "The flight recording does not fit together: \(Self.clause(message))."
    case .encodingFailed(let message):
      "The flight recording could not be encoded: \(Self.clause(message))."
    }
  }

  /// A message from elsewhere as a clause of a sentence: without the period (or spaces) it may
  /// end with, so that the sentence ends with one period, not two.
  static func clause(_ message: String) -> Substring {
    var clause = message[...]
    while let last = clause.last, last == "." || last.isWhitespace { clause.removeLast() }
    return clause
  }
}
