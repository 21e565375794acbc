import Foundation

/// One kind of content the container can show: what it is called and how it is presented.
///
/// Adding a kind takes a type that conforms, a case in ``Route`` and ``ContentScreen``, and a fetch
/// closure in the deps; see Docs/RemoteContent.md. Presentation is a pure function of loaded content:
/// a content screen never sees "loading" or "failed".
public protocol ContentKind: SendableMetatype {
  /// The content, once loaded.
  associatedtype Content: Equatable & Sendable

  /// The kind's name in messages, such as `"story"`.
  static var name: String { get }

  /// Presents loaded content as a platform-neutral screen.
  static func present(_ content: Content) -> ScreenDescription

  /// Presents a failure to load the content with `id` as a platform-neutral error screen.
  ///
  /// The default says which of not found, unreachable and malformed it was, and offers a retry.
  static func present(_ failure: LoadFailure, id: ContentID) -> ScreenDescription
}

extension ContentKind {
  /// The screen's title before its content is known: `Story 12345`.
  public static func placeholderTitle(id: ContentID) -> String {
    "\(name.prefix(1).uppercased())\(name.dropFirst()) \(id)"
  }

  /// Presents a failure: "Could not find story.", "Could not load story: …", or "Could not read
  /// story: the data is malformed (…)", with a retry action.
  public static func present(_ failure: LoadFailure, id: ContentID) -> ScreenDescription {
    let message =
      switch failure {
      case .notFound: "Could not find \(name)."
      case .unreachable(let detail): "Could not load \(name): \(detail)."
      case .malformed(let detail): "Could not read \(name): the data is malformed (\(detail))."
      }
    return ScreenDescription(
      title: placeholderTitle(id: id), rows: [.error(message)], actions: [.retry])
  }
}

/// Why content could not be loaded.
public enum LoadFailure: Error, Equatable, Hashable, Sendable {
  /// There is no content with that id.
  case notFound
  /// The content could not be reached: no server, no answer, a server error.
  case unreachable(String)
  /// The content arrived but could not be read.
  case malformed(String)
}

/// What a screen shows, described without any UI framework: a UI layer maps it to views.
public struct ScreenDescription: Equatable, Hashable, Sendable {
  /// The screen's title.
  public var title: String
  /// The screen's rows, top to bottom.
  public var rows: [Row]
  /// What the screen offers to do.
  public var actions: [Action]

  /// One row of a screen.
  public enum Row: Equatable, Hashable, Sendable {
    /// A label and its value, such as "From" and "Ada Lovelace (@ada)".
    case field(String, String)
    /// A paragraph of text.
    case text(String)
    /// A progress indicator with a caption.
    case progress(String)
    /// An error message.
    case error(String)
  }

  /// Something the user can do on a screen.
  public enum Action: Equatable, Hashable, Sendable {
    /// Try loading again.
    case retry
  }

  /// Creates a screen description.
  public init(title: String, rows: [Row], actions: [Action] = []) {
    self.title = title
    self.rows = rows
    self.actions = actions
  }
}

/// Stories: a title, the story, its sender and recipient, and a date.
public enum StoryKind: ContentKind {
  /// The kind's name in messages.
  public static let name = "story"

  /// Presents a story.
  public static func present(_ story: Story) -> ScreenDescription {
    ScreenDescription(
      title: story.title,
      rows: [
        .field("From", describe(story.sender)),
        .field("To", describe(story.recipient)),
        .field("Date", describe(story.date)),
        .text(story.message),
      ])
  }
}

/// Users: a name, a handle and a bio.
public enum UserKind: ContentKind {
  /// The kind's name in messages.
  public static let name = "user"

  /// Presents a user.
  public static func present(_ user: User) -> ScreenDescription {
    ScreenDescription(
      title: user.name, rows: [.field("Handle", user.handle), .text(user.bio)])
  }
}

/// Messages: the text, who wrote it to whom, and a date.
public enum MessageKind: ContentKind {
  /// The kind's name in messages.
  public static let name = "message"

  /// Presents a message.
  public static func present(_ message: Message) -> ScreenDescription {
    ScreenDescription(
      title: "Message from \(message.from.name)",
      rows: [
        .field("From", describe(message.from)),
        .field("To", describe(message.to)),
        .field("Date", describe(message.date)),
        .text(message.text),
      ])
  }
}

/// A user as one line: `Ada Lovelace (@ada)`.
func describe(_ user: User) -> String {
  "\(user.name) (\(user.handle))"
}

/// A date as one line in UTC, the same everywhere: `2026-05-01 09:30 UTC`.
func describe(_ date: Date) -> String {
  let style = Date.ISO8601FormatStyle(timeZone: .gmt)
    .year().month().day().dateSeparator(.dash)
    .time(includingFractionalSeconds: false).timeSeparator(.colon)
    .dateTimeSeparator(.space)
  return String(date.formatted(style).prefix(16)) + " UTC"
}

extension ScreenDescription {
  /// The screen as plain text for a terminal: the title, then one line per row and action.
  public var plainText: String {
    var lines = [title]
    for row in rows {
      switch row {
      case .field(let label, let value): lines.append("\(label): \(value)")
      case .text(let text): lines.append(text)
      case .progress(let caption): lines.append("… \(caption)")
      case .error(let message): lines.append("! \(message)")
      }
    }
    for action in actions {
      switch action {
      case .retry: lines.append("[retry]")
      }
    }
    return lines.joined(separator: "\n")
  }
}
