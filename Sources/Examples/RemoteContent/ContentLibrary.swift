import ExampleSupport
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A library of stories, users and messages that refer to each other by user id.
///
/// The bundled one (``bundled()``) backs the demo; ``export(to:)`` writes it out in the layout the
/// HTTP source reads, so a plain static file server can serve it.
public struct ContentLibrary: Equatable, Sendable, Codable {
  /// A story as stored: its users by id.
  public struct StoryRecord: Equatable, Sendable, Codable {
    /// The story's id.
    public var id: ContentID
    /// The title.
    public var title: String
    /// The story.
    public var message: String
    /// The sender's user id.
    public var senderID: ContentID
    /// The recipient's user id.
    public var recipientID: ContentID
    /// When it was sent.
    public var date: Date
  }

  /// A message as stored: its users by id.
  public struct MessageRecord: Equatable, Sendable, Codable {
    /// The message's id.
    public var id: ContentID
    /// The text.
    public var text: String
    /// The writer's user id.
    public var fromID: ContentID
    /// The addressee's user id.
    public var toID: ContentID
    /// When it was sent.
    public var date: Date
  }

  /// The users.
  public var users: [User]
  /// The stories.
  public var stories: [StoryRecord]
  /// The messages.
  public var messages: [MessageRecord]

  /// The library bundled with the package.
  /// - Throws: When the resource is missing or malformed.
  /// - Returns: The bundled library.
  public static func bundled() throws -> ContentLibrary {
    guard let url = Bundle.module.url(forResource: "content", withExtension: "json") else {
      throw LoadFailure.malformed("the bundled content.json is missing")
    }
    return try decoder.decode(ContentLibrary.self, from: Data(contentsOf: url))
  }

  // MARK: - Lookups

  /// The user with an id.
  /// - Throws: ``LoadFailure/notFound`` when there is none.
  public func user(_ id: ContentID) throws(LoadFailure) -> User {
    guard let user = users.first(where: { $0.id == id }) else { throw .notFound }
    return user
  }

  /// The story with an id, with its users resolved.
  /// - Throws: ``LoadFailure/notFound`` when there is none; ``LoadFailure/malformed(_:)`` when it
  ///   refers to a user that does not exist.
  public func story(_ id: ContentID) throws(LoadFailure) -> Story {
    guard let record = stories.first(where: { $0.id == id }) else { throw .notFound }
    return Story(
      id: record.id, title: record.title, message: record.message,
      sender: try resolve(record.senderID, in: "story \(id)"),
      recipient: try resolve(record.recipientID, in: "story \(id)"), date: record.date)
  }

  /// The message with an id, with its users resolved.
  /// - Throws: ``LoadFailure/notFound`` when there is none; ``LoadFailure/malformed(_:)`` when it
  ///   refers to a user that does not exist.
  public func message(_ id: ContentID) throws(LoadFailure) -> Message {
    guard let record = messages.first(where: { $0.id == id }) else { throw .notFound }
    return Message(
      id: record.id, text: record.text, from: try resolve(record.fromID, in: "message \(id)"),
      to: try resolve(record.toID, in: "message \(id)"), date: record.date)
  }

  /// Problems that make the library inconsistent: duplicate ids and references to missing users.
  public var problems: [String] {
    var problems: [String] = []
    for (kind, ids) in [
      ("user", users.map(\.id)), ("story", stories.map(\.id)), ("message", messages.map(\.id)),
    ] {
      for (id, count) in Dictionary(grouping: ids, by: { $0 }).mapValues(\.count) where count > 1 {
        problems.append("\(kind) \(id) appears \(count) times")
      }
    }
    let known = Set(users.map(\.id))
    for story in stories {
      for id in [story.senderID, story.recipientID] where !known.contains(id) {
        problems.append("story \(story.id) refers to missing user \(id)")
      }
    }
    for message in messages {
      for id in [message.fromID, message.toID] where !known.contains(id) {
        problems.append("message \(message.id) refers to missing user \(id)")
      }
    }
    return problems.sorted()
  }

  private func resolve(_ id: ContentID, in owner: String) throws(LoadFailure) -> User {
    do {
      return try user(id)
    } catch {
      throw .malformed("\(owner) refers to missing user \(id)")
    }
  }

  // MARK: - Serving

  /// Writes the library as `stories/ID.json`, `users/ID.json` and `messages/ID.json` under
  /// `directory`, each a self-contained document with its users resolved.
  /// - Throws: When a file cannot be written.
  public func export(to directory: URL) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    func write(_ value: some Encodable, _ folder: String, _ id: ContentID) throws {
      let folderURL = directory.appendingPathComponent(folder)
      try FileManager.default.createDirectory(at: folderURL, withIntermediateDirectories: true)
      try encoder.encode(value).write(to: folderURL.appendingPathComponent("\(id).json"))
    }
    for user in users { try write(user, "users", user.id) }
    for record in stories { try write(try story(record.id), "stories", record.id) }
    for record in messages { try write(try message(record.id), "messages", record.id) }
  }

  /// The decoder for library and content documents: ISO 8601 dates.
  static var decoder: JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return decoder
  }
}

// MARK: - Live deps

extension ContentScreen.Deps {
  /// Deps that serve the library after a small, realistic delay.
  /// - Parameters:
  ///   - library: The content.
  ///   - delay: How long each fetch takes.
  /// - Returns: Deps for a coordinator's store.
  public static func library(_ library: ContentLibrary, delay: Duration = .milliseconds(300))
    -> Self
  {
    @Sendable func wait() async throws { if delay > .zero { try await Task.sleep(for: delay) } }
    return Self(
      story: { id in
        try await wait()
        return try library.story(id)
      },
      user: { id in
        try await wait()
        return try library.user(id)
      },
      message: { id in
        try await wait()
        return try library.message(id)
      })
  }

  /// Deps that fetch from an HTTP server laid out as `/stories/ID.json`, `/users/ID.json` and
  /// `/messages/ID.json` under `base`.
  ///
  /// A 404 is ``LoadFailure/notFound``; no connection, no complete answer within `timeout`, a body
  /// larger than `maxBytes` and any other status are ``LoadFailure/unreachable(_:)``; a body that
  /// does not decode is ``LoadFailure/malformed(_:)``.
  /// - Parameters:
  ///   - base: The server's address.
  ///   - timeout: How long each whole fetch may take: connecting, the answer, and decoding it.
  ///   - maxBytes: The largest document accepted (8 MiB by default).
  /// - Returns: Deps for a coordinator's store.
  public static func server(
    _ base: URL, timeout: Duration = .seconds(5), maxBytes: Int = 8 << 20
  ) -> Self {
    Self(
      story: { try await fetch(StoryKind.self, "stories", $0, base, timeout, maxBytes) },
      user: { try await fetch(UserKind.self, "users", $0, base, timeout, maxBytes) },
      message: { try await fetch(MessageKind.self, "messages", $0, base, timeout, maxBytes) })
  }

  /// Fetches `folder/id.json` under `base` and decodes it, mapping every failure to a ``LoadFailure``.
  private static func fetch<Kind: ContentKind>(
    _ kind: Kind.Type, _ folder: String, _ id: ContentID, _ base: URL, _ timeout: Duration,
    _ maxBytes: Int
  ) async throws(LoadFailure) -> Kind.Content where Kind.Content: Decodable & Sendable {
    let url = base.appendingPathComponent(folder).appendingPathComponent("\(id).json")
    do {
      return try await httpGet(url, timeout: timeout, maxBytes: maxBytes) { data in
        do {
          return try ContentLibrary.decoder.decode(Kind.Content.self, from: data)
        } catch {
          throw LoadFailure.malformed("\(folder)/\(id).json is not a valid \(Kind.name)")
        }
      }
    } catch let failure as LoadFailure {
      throw failure
    } catch HTTPFailure.status(404) {
      throw .notFound
    } catch let failure as HTTPFailure {
      throw .unreachable(failure.description)
    } catch {
      throw .unreachable(String(describing: error))
    }
  }
}
