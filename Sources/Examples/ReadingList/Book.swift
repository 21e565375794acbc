import Decisions

/// A book of the reading list, as the list's file keeps it.
public struct Book: Identifiable, Codable, Equatable, Sendable {
  public var id: Int
  public var title: String
  public var author: String
  public var notes: [String] = []
  public var minutesRead = 0
}

/// The rows' cover loader: each row's load runs in the row's scope, and ends when the row leaves
/// the list.
public enum CoverLoader: Feature {
  public typealias State = Book

  public enum Event: Equatable, Sendable {
    case loaded(String)
  }

  public enum Decision: Equatable, Sendable {
    case load(Book.ID)
  }

  public struct Deps: Sendable {
    public var loadCover: @Sendable (Book.ID) async throws -> String
  }

  // NB: the list decides the load and keeps the cover itself: a row's event forwarded through
  // `embed(list: \.books.value)` counts as a change of the persisted books, and would save them.
  public static func makeDecisions(event: Event, state: inout Book) -> [Decision] { [] }

  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .load(let id):
      effects.run(id: "cover") { send in await send(.loaded(try await deps.loadCover(id))) }
    }
  }
}
