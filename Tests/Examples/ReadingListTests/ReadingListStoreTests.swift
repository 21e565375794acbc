import DecisionsTesting
import Foundation
import TestSupport
import Testing

@testable import ReadingList

@Suite(.timeLimit(.minutes(3))) struct ReadingListStoreTests {
  @Test func theListIsLoadedAtStartAndSavedAMomentAfterAChange() async throws {
    let folder = try TemporaryFolder("ReadingListTests")
    let file = JSONFile<ReadingList.Books>(url: folder.url.appending(path: "books.json"))
    try file.save([.dune])
    let clock = TestClock()
    let test = StoreTest<ReadingList>(
      state: .init(),
      deps: .init(
        file: file, clock: clock, search: unimplemented("search"),
        loadCover: unimplemented("loadCover")))
    await test.expectStart(decisions: [.file(.load)])
    await test.receive(.file(.loaded([.dune]))) {
      $0.books.status = .loaded
      $0.books.value = [.dune]
    }
    await test.send(.addTapped) { $0.addSheet = AddBook.State(title: "", author: "") }
    await test.send(.addSheet(.titleChanged("Emma"))) { $0.addSheet?.title = "Emma" }
    await test.send(.addSheet(.authorChanged("Jane Austen"))) {
      $0.addSheet?.author = "Jane Austen"
    }
    await test.send(.addConfirmed, decisions: [.file(.waitToSave(.seconds(1)))]) {
      $0.addSheet = nil
      $0.books.value.append(.emma)
      $0.books.hasUnsavedChanges = true
      $0.books.isWaitingToSave = true
    }
    await clock.advance(by: .milliseconds(999))
    #expect(try file.load() == [.dune])  // 1 ms before the end of the quiet period
    await clock.advance(by: .milliseconds(1))
    await test.receive(.file(.quietPeriodEnded), decisions: [.file(.write([.dune, .emma]))]) {
      $0.books.hasUnsavedChanges = false
      $0.books.isWaitingToSave = false
      $0.books.isWriting = true
    }
    await test.receive(.file(.saved)) { $0.books.isWriting = false }
    #expect(try file.load() == [.dune, .emma])
    await test.finish()
  }

  @Test func aFileThatDoesNotLoadIsNeverWrittenOverAndCanBeRetriedOrStartedOver() async throws {
    let folder = try TemporaryFolder("ReadingListTests")
    let file = JSONFile<ReadingList.Books>(url: folder.url.appending(path: "books.json"))
    let bytes = Data("not json".utf8)
    try bytes.write(to: file.url)
    let corrupt = JSONFileError.corrupt(path: file.url.path, reason: "it is not valid JSON")
    let clock = TestClock()
    let test = StoreTest<ReadingList>(
      state: .init(),
      deps: .init(
        file: file, clock: clock, search: unimplemented("search"),
        loadCover: unimplemented("loadCover")))
    await test.expectStart(decisions: [.file(.load)])
    await test.receive(.file(.loadFailed(corrupt))) { $0.books.status = .failed(corrupt) }
    await test.send(.addTapped) { $0.addSheet = AddBook.State() }
    await test.send(.addSheet(.titleChanged("Emma"))) { $0.addSheet?.title = "Emma" }
    await test.send(.addConfirmed) { $0.addSheet = nil }  // refused: the file did not load
    await test.send(.file(.saveNowRequested))
    await clock.advance(by: .seconds(10))
    #expect(try Data(contentsOf: file.url) == bytes)

    await test.send(.file(.retryTapped), decisions: [.file(.load)]) { $0.books.status = .loading }
    await test.receive(.file(.loadFailed(corrupt))) { $0.books.status = .failed(corrupt) }
    await test.send(.file(.startOverTapped), decisions: [.file(.moveAside)]) {
      $0.books.status = .movingAside
    }
    let backup = folder.url.appending(path: "books.json.backup")
    await test.receive(.file(.movedAside(to: backup))) {
      $0.books.status = .loaded
      $0.books.backup = backup
    }
    #expect(try Data(contentsOf: backup) == bytes)
    #expect(try folder.names() == ["books.json.backup"])
    await test.send(.addTapped) { $0.addSheet = AddBook.State() }
    await test.send(.addSheet(.titleChanged("Emma"))) { $0.addSheet?.title = "Emma" }
    await test.send(.addConfirmed, decisions: [.file(.waitToSave(.seconds(1)))]) {
      $0.addSheet = nil
      $0.books.value = [Book(id: 1, title: "Emma", author: "")]
      $0.books.hasUnsavedChanges = true
      $0.books.isWaitingToSave = true
    }
    await test.send(
      .file(.saveNowRequested),
      decisions: [
        .file(.cancelWait), .file(.write([Book(id: 1, title: "Emma", author: "")])),
      ]
    ) {
      $0.books.hasUnsavedChanges = false
      $0.books.isWaitingToSave = false
      $0.books.isWriting = true
    }
    await test.receive(.file(.saved)) { $0.books.isWriting = false }
    #expect(try file.load() == [Book(id: 1, title: "Emma", author: "")])
    await test.finish()
  }

  @Test func theSearchWaitsForAQuietPeriodAndAnOlderQueryNeverShows() async throws {
    let clock = TestClock()
    let searches = ControlledDependency<String, [Book.ID]>()
    var deps = ReadingList.Deps.unused(clock: clock)
    deps.search = { try await searches($0) }
    let test = StoreTest<ReadingList>(state: .loaded(.dune, .emma), deps: deps, start: .skipped)
    await test.send(.queryChanged("e"), decisions: [.search("e", after: .milliseconds(300))]) {
      $0.query = "e"
    }
    await clock.advance(by: .milliseconds(200))
    await test.send(.queryChanged("em"), decisions: [.search("em", after: .milliseconds(300))]) {
      $0.query = "em"
    }
    await clock.advance(by: .milliseconds(299))
    #expect(searches.callCount == 0)  // 1 ms before the quiet period ends
    await clock.advance(by: .milliseconds(1))
    let older = try await searches.nextCall()
    #expect(older.arguments == "em")
    await test.send(.queryChanged("emm"), decisions: [.search("emm", after: .milliseconds(300))]) {
      $0.query = "emm"
    }
    #expect(!older.isWaiting)  // the newer query cancelled it
    older.answer([1, 2])  // too late: nothing arrives
    await clock.advance(by: .milliseconds(300))
    let newer = try await searches.nextCall()
    #expect(newer.arguments == "emm")
    newer.answer([2])
    await test.receive(.found(query: "emm", ids: [2])) { $0.matches = [2] }
    #expect(await test.state.shownBooks == [.emma])
    await test.send(.queryChanged(""), decisions: [.cancelSearch]) {
      $0.query = ""
      $0.matches = nil
    }
    await test.finish()
  }

  @Test func aRowsCoverLoadEndsWhenTheRowIsRemoved() async throws {
    let clock = TestClock()
    let covers = ControlledDependency<Book.ID, String>()
    let saves = Calls<ReadingList.Books>()
    var deps = ReadingList.Deps.saving(to: saves, clock: clock)
    deps.loadCover = { try await covers($0) }
    let test = StoreTest<ReadingList>(state: .loaded(.dune, .emma), deps: deps, start: .skipped)
    await test.send(.rowAppeared(1), decisions: [.cover(id: 1, .load(1))])
    await test.send(.rowAppeared(2), decisions: [.cover(id: 2, .load(2))])
    let first = try await covers.nextCall()
    let second = try await covers.nextCall()
    let (dune, emma) = first.arguments == 1 ? (first, second) : (second, first)
    emma.answer("emma.jpg")
    await test.receive(.cover(id: 2, .loaded("emma.jpg"))) { $0.covers[2] = "emma.jpg" }
    await test.send(.rowAppeared(2))  // loaded already

    await test.send(.bookTapped(1)) { $0.path.push(.detail(.init(book: .dune))) }
    await test.send(.detail(id: ScreenID(0), .deleteTapped)) {
      $0.path[id: ScreenID(0), case: ReadingList.Screen.detail]?.dialog = Dialog(
        title: "Delete “Dune”?",
        buttons: [
          .init("Delete", role: .destructive, action: .confirmDelete),
          .init("Cancel", role: .cancel),
        ])
    }
    await test.send(
      .detail(id: ScreenID(0), .dialog(.chose(.confirmDelete))),
      decisions: [.file(.waitToSave(.seconds(1)))]
    ) {
      $0.books.value.remove(id: 1)
      $0.books.hasUnsavedChanges = true
      $0.books.isWaitingToSave = true
      $0.path.popToRoot()
    }
    #expect(!dune.isWaiting)  // the row's load ended with the row
    await clock.advance(by: .seconds(1))
    await test.receive(.file(.quietPeriodEnded), decisions: [.file(.write([.emma]))]) {
      $0.books.hasUnsavedChanges = false
      $0.books.isWaitingToSave = false
      $0.books.isWriting = true
    }
    await test.receive(.file(.saved)) { $0.books.isWriting = false }
    #expect(saves.all == [[.emma]])
    await test.finish()
  }

  @Test func theReadingTimerCountsMinutesAndStopsWhenTheScreenGoes() async throws {
    let clock = TestClock()
    let saves = Calls<ReadingList.Books>()
    let test = StoreTest<ReadingList>(
      state: .loaded(.dune), deps: .saving(to: saves, clock: clock), start: .skipped)
    await test.send(.bookTapped(1)) { $0.path.push(.detail(.init(book: .dune))) }
    await test.send(
      .detail(id: ScreenID(0), .readingToggled),
      decisions: [.detail(id: ScreenID(0), .startTimer(every: .seconds(60)))]
    ) {
      $0.path[id: ScreenID(0), case: ReadingList.Screen.detail]?.isReading = true
    }
    await clock.advance(by: .seconds(59))
    await test.expectNoNewEvents()
    await clock.advance(by: .seconds(1))
    await test.receive(
      .detail(id: ScreenID(0), .minutePassed), decisions: [.file(.waitToSave(.seconds(1)))]
    ) {
      $0.path[id: ScreenID(0), case: ReadingList.Screen.detail]?.book.minutesRead = 1
      $0.books.value[id: 1]?.minutesRead = 1
      $0.books.hasUnsavedChanges = true
      $0.books.isWaitingToSave = true
    }
    await clock.advance(by: .seconds(1))
    var read = Book.dune
    read.minutesRead = 1
    await test.receive(.file(.quietPeriodEnded), decisions: [.file(.write([read]))]) {
      $0.books.hasUnsavedChanges = false
      $0.books.isWaitingToSave = false
      $0.books.isWriting = true
    }
    await test.receive(.file(.saved)) { $0.books.isWriting = false }
    await test.send(.pathChanged([])) { $0.path.popToRoot() }  // the back button
    #expect(clock.sleeperCount == 0)  // the timer ended with its screen
    await clock.advance(by: .seconds(120))
    #expect(saves.all == [[read]])
    await test.finish()
  }

  @MainActor
  @Test func theAddSheetsFieldsAreBoundToTheState() async throws {
    let clock = TestClock()
    let saves = Calls<ReadingList.Books>()
    let test = StoreTest<ReadingList>(
      state: .loaded(.dune), deps: .saving(to: saves, clock: clock), start: .skipped,
      on: .mainStore)
    await test.send(.addTapped) { $0.addSheet = AddBook.State() }
    let form = try #require(test.mainStore.child(ReadingList.addSheet))
    let title = form.binding(\.title, send: AddBook.Event.titleChanged)
    title.wrappedValue = "Emma"
    form.binding(\.author, send: AddBook.Event.authorChanged).wrappedValue = "Jane Austen"
    #expect(title.wrappedValue == "Emma")
    test.expectProcessed([
      .addSheet(.titleChanged("Emma")), .addSheet(.authorChanged("Jane Austen")),
    ])
    await test.expectState(
      {
        var state = ReadingList.State.loaded(.dune)
        state.addSheet = AddBook.State(title: "Emma", author: "Jane Austen")
        return state
      }())
    await test.send(.addConfirmed, decisions: [.file(.waitToSave(.seconds(1)))]) {
      $0.addSheet = nil
      $0.books.value.append(.emma)
      $0.books.hasUnsavedChanges = true
      $0.books.isWaitingToSave = true
    }
    #expect(form.isGone)
    await clock.advance(by: .seconds(1))
    await test.receive(.file(.quietPeriodEnded), decisions: [.file(.write([.dune, .emma]))]) {
      $0.books.hasUnsavedChanges = false
      $0.books.isWaitingToSave = false
      $0.books.isWriting = true
    }
    await test.receive(.file(.saved)) { $0.books.isWriting = false }
    #expect(saves.all == [[.dune, .emma]])
    await test.finish()
  }
}
