import Decisions
import ExampleSupport

/// The app's navigation: a stack of open content screens, driven by deep links and "back".
///
/// It embeds each screen as a child in a list identified by screen id, with one
/// `embed` declaration (``screens``); screens know nothing of each other. The rules:
/// - Opening a link pushes a screen for its route and makes it appear (which starts its fetch).
/// - Opening a link to the screen already on top does nothing: no duplicate.
/// - Back pops the top screen; the store then cancels all of its work (see ``childWork``).
/// - A malformed link opens nothing; the state says what was wrong with it.
public enum Coordinator: Feature {
  /// The navigation stack.
  public struct State: Equatable, Sendable {
    /// The open screens, bottom first; the last one is on top.
    public var stack: IdentifiedArray<ContentScreen.State> = []
    /// The id the next screen gets.
    public var nextScreenID = 1
    /// Why the last link opened nothing, if it was malformed; cleared by the next link or back.
    ///
    /// It starts with the link, cut to a readable length.
    public var linkError: String?

    /// Creates an empty stack.
    public init() {}

    /// The screen on top, if any.
    public var top: ContentScreen.State? { stack.last }
  }

  /// Something that happened to the app's navigation.
  public enum Event: Equatable, Sendable {
    /// A deep link arrived, as text: parsing it is part of the core.
    case open(String)
    /// The user went back.
    case back
    /// An event of the screen with this id.
    case screen(id: Int, ContentScreen.Event)
  }

  /// What the coordinator's executor must do.
  public enum Decision: Equatable, Sendable {
    /// A decision of the screen with this id.
    case screen(id: Int, ContentScreen.Decision)
  }

  /// Decides what one navigation event does.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .open(let link):
      let route: Route
      do {
        route = try Route.parse(link)
      } catch {
        state.linkError = "\(excerpt(link)): \(error)"
        return []
      }
      state.linkError = nil
      if state.top?.route == route { return [] }
      let id = state.nextScreenID
      state.nextScreenID += 1
      state.stack.append(ContentScreen.State(id: id, route: route))
      return screens.makeDecisions(event: .appear, id: id, in: &state)

    case .back:
      // NB: back on an empty stack must not show the last link error again.
      state.linkError = nil
      if let top = state.stack.last { state.stack.remove(id: top.id) }
      return []

    case .screen(let id, let event):
      return screens.makeDecisions(event: event, id: id, in: &state)
    }
  }

  /// How screens fetch their content.
  public typealias Deps = ContentScreen.Deps

  /// Performs one decision: a screen's in that screen's own work scope.
  public static func execute(
    _ decision: Decision, deps: ContentScreen.Deps, effects: Effects<Event>
  ) {
    switch decision {
    case .screen(let id, let decision):
      screens.execute(decision, id: id, deps: deps, effects: effects)
    }
  }

  /// The open screens: each screen's work runs in a scope of its own.
  public static let screens = embed(
    ContentScreen.self, list: \.stack, event: Event.screen, decision: Decision.screen)
  /// Each screen's work lives while the screen is on the stack: the store cancels it when back
  /// pops the screen.
  public static let childWork = [screens.work]
}
