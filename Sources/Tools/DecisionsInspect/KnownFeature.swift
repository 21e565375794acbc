import DecisionsTesting
import FactFeature
import Foundation
import SearchFeature
import SyncUps

/// A feature whose recordings the command can replay: its name, as a recorder writes it, and how
/// to make the page of one of its recordings.
struct KnownFeature: Sendable {
  /// The feature's name in a recording's `feature` field.
  var name: String
  /// Reads a recording of the feature and makes its page: the page's HTML and its step count.
  var page: @Sendable (Data, _ byteLimit: Int) throws -> (html: String, steps: Int)

  /// The features this command knows, by the name a recorder writes by default.
  static let all: [KnownFeature] = [
    .of(SearchFeature.self), .of(FactFeature.self), .of(SyncUpsApp.self),
  ]

  /// The entry of a feature whose states and events decode.
  static func of<F: Feature & SendableMetatype>(_ feature: F.Type) -> KnownFeature
  where F.State: Decodable, F.Event: Decodable {
    let name = String(reflecting: F.self)
    return KnownFeature(name: name) { data, byteLimit in
      let recording = try FlightRecording<F>(json: data, feature: name, byteLimit: byteLimit)
      return (try recording.inspectorPage(), recording.events.count)
    }
  }
}

/// The fields of a recording that say what it is, read before its states and events.
struct RecordingHeader: Decodable {
  /// The format's name: `decisions.flight-recording` for a flight recording.
  var format: String?
  /// The format's version.
  var version: Int?
  /// The feature's name.
  var feature: String?

  /// Whether the format and version are those this library reads.
  var isReadable: Bool {
    format == FlightRecording<SearchFeature>.formatName
      && version == FlightRecording<SearchFeature>.formatVersion
  }
}
