/// The facts that matched one query.
///
/// Results carry the text they were searched for, so that the core can tell a late answer for an
/// older query from the answer it waits for.
public struct SearchResults: Equatable, Sendable, Codable {
  /// The text searched for.
  public var query: String
  /// The texts of the matching facts, in the source's order.
  public var matches: [String]

  /// Creates results for a query.
  public init(query: String, matches: [String]) {
    self.query = query
    self.matches = matches
  }
}
