/// The id of a piece of content: 1 to 18 decimal digits, leading zeros kept (`"007"`).
///
/// Parse, don't validate: the only way to get one is ``init(_:)``, which checks the text, so code that
/// holds a `ContentID` never checks it again.
public struct ContentID: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The id's digits.
  public let rawValue: String

  /// The longest id accepted.
  public static let maximumLength = 18

  /// Creates an id from its text, or returns nil unless it is 1 to 18 ASCII digits.
  public init?(_ text: some StringProtocol) {
    guard !text.isEmpty, text.count <= Self.maximumLength,
      text.allSatisfy({ $0.isASCII && $0.isNumber })
    else { return nil }
    rawValue = String(text)
  }

  /// The id's digits.
  public var description: String { rawValue }

  /// Decodes an id from a JSON string, rejecting anything that is not a valid id.
  public init(from decoder: any Decoder) throws {
    let text = try decoder.singleValueContainer().decode(String.self)
    guard let id = ContentID(text) else {
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "not a content id: \(text)"))
    }
    self = id
  }

  /// Encodes the id as a JSON string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }
}
