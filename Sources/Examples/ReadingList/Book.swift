import Decisions

/// A book of the reading list, as the list's file keeps it.
public struct Book: Identifiable, Codable, Equatable, Sendable {
  /// The book's id in the list.
  public var id: Int
  /// The title.
  public var title: String
  /// The author.
  public var author: String
  /// The reader's notes, oldest first.
  public var notes: [String] = []
  /// How many minutes the reading timer counted.
  public var minutesRead = 0
}

/// The rows' cover loader: each row's load runs in the row's scope, and ends when the row leaves
/// the list.
public enum CoverLoader: Feature {
  /// A row is a book of the list.
  public typealias State = Book

  /// What the load found.
  public enum Event: Equatable, Sendable {
    /// The cover's URL.
    case loaded(String)
  }

  /// The row's work.
  public enum Decision: Equatable, Sendable {
    /// Load the cover of the book with this id.
    case load(Book.ID)
  }

  /// What the load needs.
  public struct Deps: Sendable {
    /// Loads the URL of a book's cover.
    public var loadCover: @Sendable (Book.ID) async throws -> String
  }

  // NB: the list decides the load and keeps the cover itself: a row's event forwarded through
  // `embed(list: \.books.value)` counts as a change of the persisted books, and would save them.
  /// Decides nothing: the list decides the loads.
  public static func makeDecisions(event: Event, state: inout Book) -> [Decision] { [] }

  /// Loads the cover.
  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load(let id):
      effects.run(id: "cover") { send in await send(.loaded(try await deps.loadCover(id))) }
    }
  }
}
