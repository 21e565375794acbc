import ExampleSupport

/// Where a deep link leads: one piece of content of one kind.
public enum Route: Hashable, Sendable, CustomStringConvertible {
  /// A story, from `app://stories/ID`.
  case story(ContentID)
  /// A user, from `app://users/ID`.
  case user(ContentID)
  /// A message, from `app://messages/ID`.
  case message(ContentID)

  /// The route as a deep link, `app://stories/12345`.
  public var description: String {
    switch self {
    case .story(let id): "app://stories/\(id)"
    case .user(let id): "app://users/\(id)"
    case .message(let id): "app://messages/\(id)"
    }
  }
}

/// Why a text is not a deep link to content.
///
/// The text an error carries is cut to a readable length (40 characters and an ellipsis), so a
/// huge link makes no huge error.
public enum DeepLinkError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The text is empty, or only white space.
  case empty
  /// The link does not start with `app://`; the associated value is what it starts with instead.
  case wrongScheme(String)
  /// The link names no kind of content, as in `app://`.
  case missingKind
  /// The kind is not one of `stories`, `users`, `messages`.
  case unknownKind(String)
  /// The link names a kind but no id, as in `app://stories`.
  case missingID(kind: String)
  /// The id is not 1 to 18 digits.
  case invalidID(String)
  /// The link goes on after the id, as in `app://stories/1/comments`.
  case extraPathComponents([String])
  /// The link has a query (`?…`) or a fragment (`#…`), which content links never have.
  case unexpectedSuffix(String)

  /// What is wrong, in one sentence.
  public var description: String {
    switch self {
    case .empty: "the link is empty"
    case .wrongScheme(let scheme):
      "expected a link starting with app://, not \(scheme.debugDescription)"
    case .missingKind: "the link names no kind of content (stories, users or messages)"
    case .unknownKind(let kind):
      "unknown kind \(kind.debugDescription) (expected stories, users or messages)"
    case .missingID(let kind): "the link names no \(kind) id"
    case .invalidID(let id): "\(id.debugDescription) is not an id (1 to 18 digits)"
    case .extraPathComponents(let parts):
      "unexpected \(parts.joined(separator: "/").debugDescription) after the id"
    case .unexpectedSuffix(let suffix): "unexpected \(suffix.debugDescription) in a content link"
    }
  }
}

extension Route {
  /// Parses a deep link such as `app://stories/12345` into a route.
  ///
  /// The scheme and the kind are case-insensitive; one trailing slash is allowed. Anything else —
  /// another scheme, an unknown kind, a missing or malformed id, more path after the id, a query or
  /// a fragment — is a ``DeepLinkError`` that says what is wrong. Parsing is pure.
  /// - Parameter link: The link's text.
  /// - Throws: ``DeepLinkError``.
  /// - Returns: The route.
  public static func parse(_ link: String) throws(DeepLinkError) -> Route {
    let text = link.trimmingWhitespace()
    guard !text.isEmpty else { throw .empty }
    guard let separator = text.range(of: "://"),
      text[..<separator.lowerBound].lowercased() == "app"
    else {
      let scheme = text.range(of: "://").map { text[..<$0.upperBound] } ?? text
      throw .wrongScheme(excerpt(scheme))
    }
    var rest = text[separator.upperBound...]
    if let suffix = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) {
      throw .unexpectedSuffix(excerpt(rest[suffix...]))
    }
    if rest.hasSuffix("/") { rest = rest.dropLast() }
    // NB: kind, id and the rest unsplit: a link with a million slashes makes three parts, not a
    // million.
    let parts = rest.split(separator: "/", maxSplits: 2, omittingEmptySubsequences: false)
    guard let kind = parts.first, !kind.isEmpty else { throw .missingKind }
    let make: (ContentID) -> Route
    switch kind.lowercased() {
    case "stories": make = Route.story
    case "users": make = Route.user
    case "messages": make = Route.message
    default: throw .unknownKind(excerpt(kind))
    }
    guard parts.count > 1, !parts[1].isEmpty else { throw .missingID(kind: singular(kind)) }
    guard let id = ContentID(String(parts[1])) else { throw .invalidID(excerpt(parts[1])) }
    guard parts.count == 2 else {
      throw .extraPathComponents(
        excerpt(parts[2]).split(separator: "/", omittingEmptySubsequences: false).map(String.init))
    }
    return make(id)
  }

  /// The singular of a kind, for messages: `stories` → `story`.
  private static func singular(_ kind: Substring) -> String {
    switch kind.lowercased() {
    case "stories": "story"
    case "users": "user"
    default: "message"
    }
  }
}

extension String {
  /// The string without leading and trailing white space and newlines.
  fileprivate func trimmingWhitespace() -> Substring {
    let start = firstIndex { !$0.isWhitespace } ?? endIndex
    let end = lastIndex { !$0.isWhitespace }.map(index(after:)) ?? start
    return self[start..<max(start, end)]
  }
}
