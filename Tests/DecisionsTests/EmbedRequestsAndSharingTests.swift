import Testing

@testable import Decisions
@testable import DecisionsTesting

/// A book of a shelf: the element the shelf's screens share.
private struct Book: Identifiable, Equatable, Sendable {
  let id: Int
  var title: String
  var notes: [String] = []
}

/// A screen that shows and edits one book, loads its cover, and asks its parent to delete it or
/// to close it.
private enum BookDetail: Feature {
  struct State: Equatable, Sendable {
    var book: Book
    var cover: String?
  }

  enum Event: Equatable, Sendable {
    case rename(String)
    case addNote(String)
    case loadCover
    case coverLoaded(String)
    case deleteTapped
    case finish
    case renumber(Int)
  }

  enum Request: Equatable, Sendable {
    case delete
    case done
  }

  enum Decision: Equatable, Sendable {
    case fetchCover(Int)
    case track(String)
    case parent(Request)
  }

  struct Deps: Sendable {
    var fetchCover: @Sendable (Int) async throws -> String
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .rename(let title):
      state.book.title = title
      return []
    case .addNote(let note):
      state.book.notes.append(note)
      return []
    case .loadCover:
      return [.fetchCover(state.book.id)]
    case .coverLoaded(let cover):
      state.cover = cover
      return []
    case .deleteTapped:
      return [.parent(.delete)]
    case .finish:
      return [.track("before"), .parent(.done), .track("after")]
    case .renumber(let id):
      state.book = Book(id: id, title: state.book.title, notes: state.book.notes)
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .fetchCover(let id):
      effects.run(id: "cover") { send in await send(.coverLoaded(try await deps.fetchCover(id))) }
    case .track:
      break
    case .parent:
      break  // the parent's embedding answers it
    }
  }
}

/// A child that is always there, with work of its own under the same id as its parent's.
private enum Tally: Feature {
  struct State: Equatable, Sendable {
    var count = 0
  }

  enum Event: Equatable, Sendable {
    case increment
    case wait
    case waited
  }

  enum Decision: Equatable, Sendable {
    case wait
  }

  struct Deps: Sendable {
    var wait: @Sendable () async throws -> Int
  }

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .increment:
      state.count += 1
      return []
    case .wait:
      return [.wait]
    case .waited:
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .wait:
      effects.run(id: "wait") { send in
        _ = try await deps.wait()
        await send(.waited)
      }
    }
  }
}

private enum Shelf: Feature {
  enum Screen: Equatable, Sendable {
    case detail(BookDetail.State)
  }

  struct State: Equatable, Sendable {
    var books: IdentifiedArray<Book> = []
    var path = ScreenStack<Screen>()
    @Presented var sheet: BookDetail.State?
    var tally = Tally.State()
    var log: [String] = []
  }

  enum Event: Equatable, Sendable {
    case detail(id: ScreenStack<Screen>.ID, BookDetail.Event)
    case detailAsked(id: ScreenStack<Screen>.ID, BookDetail.Request)
    case sheet(BookDetail.Event)
    case sheetAsked(BookDetail.Request)
    case tally(Tally.Event)
    case rename(id: Int, String, share: Bool)
    case remove(id: Int)
    case wait
    case cancelWait
    case waited
  }

  enum Decision: Equatable, Sendable {
    case detail(id: ScreenStack<Screen>.ID, BookDetail.Decision)
    case sheet(BookDetail.Decision)
    case tally(Tally.Decision)
    case logged(String)
    case wait
    case cancelWait
  }

  struct Deps: Sendable {
    var detail: BookDetail.Deps
    var tally: Tally.Deps
    var wait: @Sendable () async throws -> Int
  }

  static let details = embed(
    BookDetail.self, stack: \.path, case: Screen.detail, sharing: .element(\.book, in: \.books),
    event: Event.detail, decision: Decision.detail,
    request: { id, decision in
      if case .parent(let request) = decision { .detailAsked(id: id, request) } else { nil }
    })
  static let sheet = embed(
    BookDetail.self, presented: \.$sheet, sharing: .element(\.book, in: \.books, whenGone: .stay),
    event: Event.sheet, decision: Decision.sheet,
    request: { if case .parent(let request) = $0 { .sheetAsked(request) } else { nil } })
  static let tally = embed(
    Tally.self, state: \.tally, event: Event.tally, decision: Decision.tally)
  static let childWork = [details.work, sheet.work, tally.work]

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .detail(let id, let event):
      return details.makeDecisions(event: event, id: id, in: &state)
    case .detailAsked(let id, .delete):
      guard let book = details.state(id: id, in: state)?.book else { return [] }
      state.books.remove(id: book.id)  // the screen goes by its declared ending
      return []
    case .detailAsked(let id, .done):
      state.path.pop(from: id)
      state.log.append("done")
      return [.logged("done")]
    case .sheet(let event):
      return sheet.makeDecisions(event: event, in: &state)
    case .sheetAsked(.delete):
      guard let book = sheet.state(in: state)?.book else { return [] }
      state.books.remove(id: book.id)
      return []
    case .sheetAsked(.done):
      state.sheet = nil
      return []
    case .tally(let event):
      return tally.makeDecisions(event: event, in: &state)
    case .rename(let id, let title, let share):
      state.books[id: id]?.title = title
      if share { details.share(in: &state) }
      return []
    case .remove(let id):
      state.books.remove(id: id)
      return []
    case .wait:
      return [.wait]
    case .cancelWait:
      return [.cancelWait]
    case .waited:
      return []
    }
  }

  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .detail(let id, let decision):
      details.execute(decision, id: id, deps: deps.detail, effects: effects)
    case .sheet(let decision):
      sheet.execute(decision, deps: deps.detail, effects: effects)
    case .tally(let decision):
      tally.execute(decision, deps: deps.tally, effects: effects)
    case .logged:
      break
    case .wait:
      effects.run(id: "wait") { send in
        _ = try await deps.wait()
        await send(.waited)
      }
    case .cancelWait:
      effects.cancel(id: "wait")
    }
  }
}

private let dune = Book(id: 1, title: "Dune")
private let emma = Book(id: 2, title: "Emma")

/// A shelf of two books with the first one's detail screen pushed.
private func shelfShowingDune() -> (Shelf.State, ScreenStack<Shelf.Screen>.ID) {
  var state = Shelf.State(books: [dune, emma])
  let id = state.path.push(.detail(BookDetail.State(book: dune)))
  return (state, id)
}

@Suite struct ChildRequestTests {
  @Test func aRequestIsAnsweredByTheParentInTheSameStepInItsPlace() {
    var (state, id) = shelfShowingDune()
    let decisions = Shelf.makeDecisions(event: .detail(id: id, .finish), state: &state)
    #expect(
      decisions == [
        .detail(id: id, .track("before")), .logged("done"), .detail(id: id, .track("after")),
      ])
    #expect(state.path.isEmpty)
    #expect(state.log == ["done"])
  }

  @Test func aRequestIsOneOfTheChildsDecisionsInItsOwnTests() {
    var state = BookDetail.State(book: dune)
    #expect(BookDetail.makeDecisions(event: .deleteTapped, state: &state) == [.parent(.delete)])
  }

  @Test func aPresentedChildsRequestReachesTheParent() {
    var state = Shelf.State(books: [dune, emma])
    state.sheet = BookDetail.State(book: emma)
    let decisions = Shelf.makeDecisions(event: .sheet(.finish), state: &state)
    #expect(decisions == [.sheet(.track("before")), .sheet(.track("after"))])
    #expect(state.sheet == nil)
  }

  @Test func aStoreTestSeesTheAnswerInTheChildsStep() async {
    let (state, id) = shelfShowingDune()
    let test = StoreTest<Shelf>(
      state: state,
      deps: .init(
        detail: .init(fetchCover: unimplemented("fetchCover")),
        tally: .init(wait: unimplemented("tally.wait")), wait: unimplemented("wait")))
    await test.send(.detail(id: id, .deleteTapped)) {
      $0.books.remove(id: dune.id)
      $0.path.pop(from: id)
    }
    await test.finish()
  }
}

@Suite struct SharedElementTests {
  @Test func aChildsEditReachesTheParentsElementInTheSameStep() {
    var (state, id) = shelfShowingDune()
    _ = Shelf.makeDecisions(event: .detail(id: id, .rename("Dune Messiah")), state: &state)
    #expect(state.books[id: dune.id]?.title == "Dune Messiah")
    #expect(state.path[id: id, case: Shelf.Screen.detail]?.book.title == "Dune Messiah")
    #expect(state.books[id: emma.id] == emma)
  }

  @Test func theParentsEditReachesTheScreenWhenItShares() {
    var (state, id) = shelfShowingDune()
    _ = Shelf.makeDecisions(
      event: .rename(id: dune.id, "Children of Dune", share: true), state: &state)
    #expect(state.path[id: id, case: Shelf.Screen.detail]?.book.title == "Children of Dune")
  }

  @Test func aChildNeverWritesBackAnOlderCopy() {
    var (state, id) = shelfShowingDune()
    _ = Shelf.makeDecisions(event: .rename(id: dune.id, "Heretics", share: false), state: &state)
    #expect(state.path[id: id, case: Shelf.Screen.detail]?.book.title == "Dune")  // not yet
    _ = Shelf.makeDecisions(event: .detail(id: id, .addNote("sand")), state: &state)
    #expect(state.books[id: dune.id] == Book(id: 1, title: "Heretics", notes: ["sand"]))
    #expect(state.path[id: id, case: Shelf.Screen.detail]?.book == state.books[id: dune.id])
  }

  @Test func aScreenWhoseElementIsGoneIsPoppedByItsRequest() {
    var (state, id) = shelfShowingDune()
    let above = state.path.push(.detail(BookDetail.State(book: emma)))
    _ = Shelf.makeDecisions(event: .detail(id: id, .deleteTapped), state: &state)
    #expect(state.books.map(\.id) == [emma.id])
    #expect(state.path.ids.isEmpty)  // popped with the screen above it
    #expect(Shelf.details.state(id: above, in: state) == nil)
  }

  @Test func aScreenWhoseElementIsGoneReadsAsGoneAndItsEventIsDropped() {
    var (state, id) = shelfShowingDune()
    _ = Shelf.makeDecisions(event: .remove(id: dune.id), state: &state)
    #expect(state.path.ids == [id])  // the parent did not share: the screen is still there
    #expect(Shelf.details.state(id: id, in: state) == nil)
    let decisions = Shelf.makeDecisions(event: .detail(id: id, .loadCover), state: &state)
    #expect(decisions.isEmpty)
    #expect(state.path.ids.isEmpty)  // popped: the declared ending
    #expect(state.books.map(\.id) == [emma.id])  // not written back
  }

  @Test func aPresentedChildThatStaysKeepsItsLastCopy() {
    var state = Shelf.State(books: [dune, emma])
    state.sheet = BookDetail.State(book: emma)
    _ = Shelf.makeDecisions(event: .sheet(.deleteTapped), state: &state)
    #expect(state.books.map(\.id) == [dune.id])
    #expect(state.sheet == BookDetail.State(book: emma))  // .stay
    #expect(Shelf.sheet.state(in: state) == nil)
    #expect(Shelf.makeDecisions(event: .sheet(.loadCover), state: &state).isEmpty)
    #expect(state.sheet == BookDetail.State(book: emma))
  }

  /// A child that changed its element's id would write it over another element, or add one.
  @Test func aChildThatChangesItsElementsIdStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      var (state, id) = shelfShowingDune()
      _ = Shelf.makeDecisions(event: .detail(id: id, .renumber(2)), state: &state)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("changed the id of the element it shares, 1, to 2"))
  }

  @Test func theWorkOfAScreenWhoseElementIsGoneEnds() async throws {
    let covers = ControlledDependency<Int, String>()
    let (state, id) = shelfShowingDune()
    let test = StoreTest<Shelf>(
      state: state,
      deps: .init(
        detail: .init(fetchCover: { try await covers($0) }),
        tally: .init(wait: unimplemented("tally.wait")), wait: unimplemented("wait")))
    await test.send(.detail(id: id, .loadCover), decisions: [.detail(id: id, .fetchCover(1))])
    let fetch = try await covers.nextCall()
    await test.send(.remove(id: dune.id)) {
      $0.books.remove(id: dune.id)
    }
    #expect(!fetch.isWaiting)  // the screen is on the stack, but its element is gone
    await test.finish()
  }

  @Test func theWorkOfAStayingChildWhoseElementIsGoneEnds() async throws {
    let covers = ControlledDependency<Int, String>()
    var state = Shelf.State(books: [dune, emma])
    state.sheet = BookDetail.State(book: emma)
    let test = StoreTest<Shelf>(
      state: state,
      deps: .init(
        detail: .init(fetchCover: { try await covers($0) }),
        tally: .init(wait: unimplemented("tally.wait")), wait: unimplemented("wait")))
    await test.send(.sheet(.loadCover), decisions: [.sheet(.fetchCover(2))])
    let fetch = try await covers.nextCall()
    await test.send(.remove(id: emma.id)) {
      $0.books.remove(id: emma.id)
    }
    #expect(!fetch.isWaiting)
    await test.finish()
  }
}

@Suite struct AlwaysPresentChildTests {
  @Test func itsEventsRunItsCoreInPlace() {
    var state = Shelf.State()
    #expect(Shelf.makeDecisions(event: .tally(.increment), state: &state).isEmpty)
    #expect(Shelf.makeDecisions(event: .tally(.wait), state: &state) == [.tally(.wait)])
    #expect(state.tally.count == 1)
    #expect(Shelf.tally.state(in: state) == Tally.State(count: 1))
  }

  @Test func itsWorkHasAScopeOfItsOwn() async throws {
    let tallyWaits = ControlledDependency<Void, Int>()
    let shelfWaits = ControlledDependency<Void, Int>()
    let test = StoreTest<Shelf>(
      state: .init(),
      deps: .init(
        detail: .init(fetchCover: unimplemented("fetchCover")),
        tally: .init(wait: { try await tallyWaits() }), wait: { try await shelfWaits() }))
    await test.send(.tally(.wait), decisions: [.tally(.wait)])
    let childWait = try await tallyWaits.nextCall()
    await test.send(.wait, decisions: [.wait])
    let parentWait = try await shelfWaits.nextCall()
    await test.send(.cancelWait, decisions: [.cancelWait])
    #expect(!parentWait.isWaiting)
    #expect(childWait.isWaiting)  // the same id, "wait", in the child's own scope
    childWait.answer(1)
    await test.receive(.tally(.waited))
    await test.finish()
  }
}
