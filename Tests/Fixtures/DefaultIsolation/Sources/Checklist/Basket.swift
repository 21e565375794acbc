import Decisions

/// A basket that holds at most three items, written with no annotation.
///
/// Its state, events and decisions are main-actor isolated by the module's default, with their
/// synthesized `Hashable` and `Codable`. Its tests explore it, record it, shrink a recording and
/// keep it in a file, with no annotation either.
///
/// It has a planted bug for them to find: a fourth item goes in.
public enum Basket: Feature {
  /// The most items the basket should hold.
  public static let capacity = 3

  /// The basket's state.
  public struct State: Hashable, Codable, Sendable {
    /// The items, in the order they were put in.
    public var items: [Item] = []

    /// A basket holding `items`.
    public init(items: [Item] = []) {
      self.items = items
    }
  }

  /// What happens to the basket.
  public enum Event: Hashable, Codable, Sendable {
    /// An item with this title is put in.
    case add(String)
    /// The last item is taken out.
    case removeLast
    /// Every item is taken out.
    case empty
  }

  /// What the basket decides to do.
  public enum Decision: Hashable, Codable, Sendable {
    /// Tells the user something.
    case announce(String)
  }

  /// What the basket needs: a way to announce.
  public struct Deps: Sendable {
    /// Announces something to the user.
    public var announce: @Sendable (String) -> Void

    /// Deps for the basket.
    public init(announce: @escaping @Sendable (String) -> Void) {
      self.announce = announce
    }
  }

  /// Puts items in and takes them out.
  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .add(let title):
      // The bug: `<=` where `<` was meant lets a fourth item in.
      guard state.items.count <= capacity else { return [.announce("the basket is full")] }
      state.items.append(Item(id: state.items.count + 1, title: title))
      return []
    case .removeLast:
      guard !state.items.isEmpty else { return [] }
      state.items.removeLast()
      return []
    case .empty:
      state.items = []
      return [.announce("emptied")]
    }
  }

  /// Announces.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .announce(let text):
      deps.announce(text)
    }
  }

  /// The rule the bug breaks, written once for the app's flight recorder and the tests' shrinker.
  public static let holdsAtMostThree = FlightRecorder<Basket>.Invariant("at most three items") {
    $0.items.count <= 3
  }
}
