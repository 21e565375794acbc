import Decisions

/// One open screen of the app: a remote-content container for a story, a user or a message.
///
/// It embeds the three containers, one case each of its content, and forwards the lifecycle events (`appear`,
/// `retry`, `disappear`) to whichever kind it holds, so its parent never needs to know the kind.
public enum ContentScreen: Feature {
  /// An open screen: its id in the navigation stack and its container.
  public struct State: Equatable, Sendable, Identifiable {
    /// The screen's id, unique within its coordinator.
    public let id: Int
    /// The container and its content.
    public var content: Content

    /// A container of one kind.
    public enum Content: Equatable, Sendable {
      /// A story screen.
      case story(RemoteContent<StoryKind>.State)
      /// A user screen.
      case user(RemoteContent<UserKind>.State)
      /// A message screen.
      case message(RemoteContent<MessageKind>.State)
    }

    /// Creates the screen for a route, not yet appeared.
    public init(id: Int, route: Route) {
      self.id = id
      switch route {
      case .story(let contentID): content = .story(.init(id: contentID))
      case .user(let contentID): content = .user(.init(id: contentID))
      case .message(let contentID): content = .message(.init(id: contentID))
      }
    }

    /// The route the screen shows.
    public var route: Route {
      switch content {
      case .story(let state): .story(state.id)
      case .user(let state): .user(state.id)
      case .message(let state): .message(state.id)
      }
    }

    /// What the screen shows now.
    public var screen: ScreenDescription {
      switch content {
      case .story(let state): state.screen
      case .user(let state): state.screen
      case .message(let state): state.screen
      }
    }
  }

  /// Something that happened to the screen.
  public enum Event: Equatable, Sendable {
    /// The screen appeared: forwarded to its container.
    case appear
    /// The user asked to try again: forwarded to its container.
    case retry
    /// The screen went away: forwarded to its container.
    case disappear
    /// An event of a story container.
    case story(RemoteContent<StoryKind>.Event)
    /// An event of a user container.
    case user(RemoteContent<UserKind>.Event)
    /// An event of a message container.
    case message(RemoteContent<MessageKind>.Event)
  }

  /// A decision of the screen's container.
  public enum Decision: Equatable, Sendable {
    /// A story container's decision.
    case story(RemoteContent<StoryKind>.Decision)
    /// A user container's decision.
    case user(RemoteContent<UserKind>.Decision)
    /// A message container's decision.
    case message(RemoteContent<MessageKind>.Decision)
  }

  /// How each kind of content is fetched.
  public struct Deps: Sendable {
    /// Fetches stories.
    public var stories: RemoteContent<StoryKind>.Deps
    /// Fetches users.
    public var users: RemoteContent<UserKind>.Deps
    /// Fetches messages.
    public var messages: RemoteContent<MessageKind>.Deps

    /// Creates deps from one fetch closure per kind.
    public init(
      story: @escaping @Sendable (ContentID) async throws -> Story,
      user: @escaping @Sendable (ContentID) async throws -> User,
      message: @escaping @Sendable (ContentID) async throws -> Message
    ) {
      stories = .init(fetch: story)
      users = .init(fetch: user)
      messages = .init(fetch: message)
    }
  }

  /// Routes an event to the screen's container.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch (event, state.content) {
    case (.appear, _), (.retry, _), (.disappear, _):
      let lifecycle: Lifecycle = event == .appear ? .appear : event == .retry ? .retry : .disappear
      switch state.content {
      case .story: return makeDecisions(event: .story(.init(lifecycle)), state: &state)
      case .user: return makeDecisions(event: .user(.init(lifecycle)), state: &state)
      case .message: return makeDecisions(event: .message(.init(lifecycle)), state: &state)
      }
    case (.story(let event), _):
      return story.makeDecisions(event: event, in: &state)  // dropped unless it holds a story
    case (.user(let event), _):
      return user.makeDecisions(event: event, in: &state)
    case (.message(let event), _):
      return message.makeDecisions(event: event, in: &state)
    }
  }

  /// Performs a container's decision with the deps of its kind, in the container's work scope.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .story(let decision):
      story.execute(decision, deps: deps.stories, effects: effects)
    case .user(let decision):
      user.execute(decision, deps: deps.users, effects: effects)
    case .message(let decision):
      message.execute(decision, deps: deps.messages, effects: effects)
    }
  }

  /// The story container, when the screen holds one.
  public static let story = embed(
    RemoteContent<StoryKind>.self, state: \.content, case: State.Content.story,
    event: Event.story, decision: Decision.story)
  /// The user container, when the screen holds one.
  public static let user = embed(
    RemoteContent<UserKind>.self, state: \.content, case: State.Content.user,
    event: Event.user, decision: Decision.user)
  /// The message container, when the screen holds one.
  public static let message = embed(
    RemoteContent<MessageKind>.self, state: \.content, case: State.Content.message,
    event: Event.message, decision: Decision.message)
  /// Each container's work lives while the screen holds it.
  public static let childWork = [story.work, user.work, message.work]
}
