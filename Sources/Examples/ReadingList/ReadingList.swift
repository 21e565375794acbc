import Decisions
import Foundation

/// The reading list: books kept in a file, a stack of screens over them, an add sheet, a
/// debounced search and a cover per row.
public enum ReadingList: Feature {
  public typealias Books = IdentifiedArray<Book>

  public enum Screen: Equatable, Sendable {
    case detail(BookDetail.State)
    case notes(Book.ID)
  }

  public struct State: Equatable, Sendable {
    public var books = Persisted<Books>.State([])
    public var path = ScreenStack<Screen>()
    @Presented public var addSheet: AddBook.State?
    public var query = ""
    /// The books the search found; `nil` while there is no query.
    public var matches: Set<Book.ID>?
    public var covers: [Book.ID: String] = [:]

    public init() {}

    /// The books the list shows: all of them, or the search's.
    public var shownBooks: [Book] { books.value.filter { matches?.contains($0.id) ?? true } }
  }

  public enum Event: Equatable, Sendable {
    case file(Persisted<Books>.Event)
    case bookTapped(Book.ID)
    case detail(id: ScreenStack<Screen>.ID, BookDetail.Event)
    case detailAsked(id: ScreenStack<Screen>.ID, BookDetail.Request)
    case pathChanged([ScreenStack<Screen>.ID])
    case addTapped
    case addSheet(AddBook.Event)
    case addConfirmed
    case addCancelled
    case queryChanged(String)
    case found(query: String, ids: [Book.ID])
    case rowAppeared(Book.ID)
    case cover(id: Book.ID, CoverLoader.Event)
  }

  public enum Decision: Equatable, Sendable {
    case file(Persisted<Books>.Decision)
    case detail(id: ScreenStack<Screen>.ID, BookDetail.Decision)
    case search(String, after: Duration)
    case cancelSearch
    case cover(id: Book.ID, CoverLoader.Decision)
  }

  public struct Deps: Sendable {
    public var file: Persisted<Books>.Deps
    public var clock: any Clock<Duration>
    public var search: @Sendable (String) async throws -> [Book.ID]
    public var loadCover: @Sendable (Book.ID) async throws -> String
  }

  public static let file = embed(
    Persisted<Books>.self, state: \.books, event: Event.file, decision: Decision.file)
  public static let details = embed(
    BookDetail.self, stack: \.path, case: Screen.detail,
    sharing: .element(\.book, in: \.books.value), event: Event.detail, decision: Decision.detail,
    request: { if case .request(let request) = $1 { .detailAsked(id: $0, request) } else { nil } })
  public static let addSheet = embed(AddBook.self, presented: \.$addSheet, event: Event.addSheet)
  public static let covers = embed(
    CoverLoader.self, list: \.books.value, event: Event.cover, decision: Decision.cover)
  public static let childWork = [file.work, details.work, covers.work]

  static let quietPeriod = Duration.milliseconds(300)

  public static func makeStartDecisions(state: inout State) -> [Decision] {
    file.start(in: &state)
  }

  public static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    file.savingChanges(in: &state) { state in
      switch event {
      case .file(let event):
        return file.makeDecisions(event: event, in: &state)

      case .bookTapped(let id):
        guard let book = state.books.value[id: id] else { return [] }
        state.path.push(.detail(.init(book: book)))
        return []

      case .detail(let id, let event):
        return details.makeDecisions(event: event, id: id, in: &state)

      case .detailAsked(let id, let request):
        guard let book = details.state(id: id, in: state)?.book else { return [] }
        switch request {
        case .delete:
          state.books.value.remove(id: book.id)
          state.covers[book.id] = nil
        case .openNotes:
          state.path.push(.notes(book.id))
        }
        return []

      case .pathChanged(let ids):
        state.path.keep(ids)
        return []

      case .addTapped:
        state.addSheet = AddBook.State()
        return []

      case .addSheet(let event):
        return addSheet.makeDecisions(event: event, in: &state)

      case .addConfirmed:
        guard let form = addSheet.state(in: state), !form.title.isEmpty else { return [] }
        let id = (state.books.value.ids.max() ?? 0) + 1
        state.books.value.append(Book(id: id, title: form.title, author: form.author))
        state.addSheet = nil
        return []

      case .addCancelled:
        state.addSheet = nil
        return []

      case .queryChanged(let query):
        state.query = query
        guard !query.isEmpty else {
          state.matches = nil
          return [.cancelSearch]
        }
        return [.search(query, after: quietPeriod)]

      case .found(let query, let ids):
        guard query == state.query else { return [] }  // an older query's results
        state.matches = Set(ids)
        return []

      case .rowAppeared(let id):
        guard covers.state(id: id, in: state) != nil, state.covers[id] == nil else { return [] }
        return [.cover(id: id, .load(id))]

      case .cover(let id, .loaded(let url)):
        state.covers[id] = url
        return []
      }
    }
  }

  public static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .file(let decision):
      file.execute(decision, deps: deps.file, effects: effects)
    case .detail(let id, let decision):
      details.execute(decision, id: id, deps: .init(clock: deps.clock), effects: effects)
    case .search(let query, let quietPeriod):
      effects.run(id: "search") { send in
        try await deps.clock.sleep(for: quietPeriod)
        await send(.found(query: query, ids: try await deps.search(query)))
      }
    case .cancelSearch:
      effects.cancel(id: "search")
    case .cover(let id, let decision):
      covers.execute(decision, id: id, deps: .init(loadCover: deps.loadCover), effects: effects)
    }
  }
}

extension ReadingList.Deps {
  /// The app's deps: the list's file, the real clock, and the app's search and covers.
  public init(
    file: JSONFile<ReadingList.Books>, clock: any Clock<Duration> = ContinuousClock(),
    search: @escaping @Sendable (String) async throws -> [Book.ID],
    loadCover: @escaping @Sendable (Book.ID) async throws -> String
  ) {
    self.init(file: .file(file, clock: clock), clock: clock, search: search, loadCover: loadCover)
  }
}
