import Decisions

/// The reading list: books kept in a file, a stack of screens over them, an add sheet, a
/// debounced search and a cover per row.
public enum ReadingList: Feature {
  /// The books, as the file keeps them.
  public typealias Books = IdentifiedArray<Book>

  /// The screens of the stack.
  public enum Screen: Equatable, Sendable {
    /// A book's detail.
    case detail(BookDetail.State)
    /// A book's notes, read from the list.
    case notes(Book.ID)
  }

  /// The list and what is on show over it.
  public struct State: Equatable, Sendable {
    /// The books and their file.
    public var books = Persisted<Books>.State([])
    /// The screens pushed over the list.
    public var path = ScreenStack<Screen>()
    /// The add sheet.
    @Presented public var addSheet: AddBook.State?
    /// The search field.
    public var query = ""
    /// The books the search found; `nil` while there is no query.
    public var matches: Set<Book.ID>?
    /// The covers loaded, by book.
    public var covers: [Book.ID: String] = [:]

    /// An empty list whose file is yet to load.
    public init() {}

    /// The books the list shows: all of them, or the search's.
    public var shownBooks: [Book] { books.value.filter { matches?.contains($0.id) ?? true } }
  }

  /// What the user did, and what the work found.
  public enum Event: Equatable, Sendable {
    /// The file's events.
    case file(Persisted<Books>.Event)
    /// The user opened a book.
    case bookTapped(Book.ID)
    /// A detail screen's event.
    case detail(id: ScreenStack<Screen>.ID, BookDetail.Event)
    /// A detail screen's request.
    case detailAsked(id: ScreenStack<Screen>.ID, BookDetail.Request)
    /// The platform's stack popped screens.
    case pathChanged([ScreenStack<Screen>.ID])
    /// The user opened the add sheet.
    case addTapped
    /// The add sheet's fields changed.
    case addSheet(AddBook.Event)
    /// The user tapped "Add".
    case addConfirmed
    /// The user tapped "Cancel".
    case addCancelled
    /// The search field changed.
    case queryChanged(String)
    /// The search for a query found these books.
    case found(query: String, ids: [Book.ID])
    /// A row came on screen.
    case rowAppeared(Book.ID)
    /// A row's cover loaded.
    case cover(id: Book.ID, CoverLoader.Event)
  }

  /// The list's work.
  public enum Decision: Equatable, Sendable {
    /// The file's work.
    case file(Persisted<Books>.Decision)
    /// A detail screen's work.
    case detail(id: ScreenStack<Screen>.ID, BookDetail.Decision)
    /// Search once the query has not changed for the quiet period.
    case search(String, after: Duration)
    /// Drop the pending search.
    case cancelSearch
    /// A row's cover load.
    case cover(id: Book.ID, CoverLoader.Decision)
  }

  /// What the list's work needs.
  public struct Deps: Sendable {
    /// The file's.
    public var file: Persisted<Books>.Deps
    /// The clock of the search and the reading timer.
    public var clock: any Clock<Duration>
    /// The ids of the books that match a query.
    public var search: @Sendable (String) async throws -> [Book.ID]
    /// Loads the URL of a book's cover.
    public var loadCover: @Sendable (Book.ID) async throws -> String
  }

  /// The books' file.
  public static let file = embed(
    Persisted<Books>.self, state: \.books, event: Event.file, decision: Decision.file)
  /// The detail screens, which show and edit the list's book.
  public static let details = embed(
    BookDetail.self, stack: \.path, case: Screen.detail,
    sharing: .element(\.book, in: \.books.value), event: Event.detail, decision: Decision.detail,
    request: { if case .request(let request) = $1 { .detailAsked(id: $0, request) } else { nil } })
  /// The add sheet.
  public static let addSheet = embed(AddBook.self, presented: \.$addSheet, event: Event.addSheet)
  /// The rows' cover loads.
  public static let covers = embed(
    CoverLoader.self, list: \.books.value, event: Event.cover, decision: Decision.cover)
  /// The children's work ends with them.
  public static let childWork = [file.work, details.work, covers.work]

  static let quietPeriod = Duration.milliseconds(300)

  /// Loads the file.
  public static func makeStartDecisions(state: inout State) -> [Decision] {
    file.start(in: &state)
  }

  /// The list's rules; every change of the books is saved.
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

  /// Performs the list's work.
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
