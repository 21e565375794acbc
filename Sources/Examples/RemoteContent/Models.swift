import Foundation

/// A person who sends and receives stories and messages.
public struct User: Equatable, Hashable, Sendable, Codable {
  /// The user's id.
  public var id: ContentID
  /// The user's name.
  public var name: String
  /// The user's handle, such as `@ada`.
  public var handle: String
  /// What the user says about themselves.
  public var bio: String

  /// Creates a user.
  public init(id: ContentID, name: String, handle: String, bio: String) {
    self.id = id
    self.name = name
    self.handle = handle
    self.bio = bio
  }
}

/// A story one user sent another.
public struct Story: Equatable, Hashable, Sendable, Codable {
  /// The story's id.
  public var id: ContentID
  /// The story's title.
  public var title: String
  /// The story itself.
  public var message: String
  /// Who sent it.
  public var sender: User
  /// Who it was sent to.
  public var recipient: User
  /// When it was sent.
  public var date: Date

  /// Creates a story.
  public init(
    id: ContentID, title: String, message: String, sender: User, recipient: User, date: Date
  ) {
    self.id = id
    self.title = title
    self.message = message
    self.sender = sender
    self.recipient = recipient
    self.date = date
  }
}

/// A direct message between two users.
public struct Message: Equatable, Hashable, Sendable, Codable {
  /// The message's id.
  public var id: ContentID
  /// The text of the message.
  public var text: String
  /// Who wrote it.
  public var from: User
  /// Who it was written to.
  public var to: User
  /// When it was sent.
  public var date: Date

  /// Creates a message.
  public init(id: ContentID, text: String, from: User, to: User, date: Date) {
    self.id = id
    self.text = text
    self.from = from
    self.to = to
    self.date = date
  }
}
