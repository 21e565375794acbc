import DecisionsTesting
import Testing

@testable import ReadingList

@Suite struct ReadingListCoreTests {
  static let deleteDune = Dialog<BookDetail.Action>(
    title: "Delete “Dune Messiah”?",
    buttons: [
      .init("Delete", role: .destructive, action: .confirmDelete), .init("Cancel", role: .cancel),
    ])

  @Test func theDetailEditsTheListsBookAndDeletingItClosesTheScreen() {
    var test = CoreTest<ReadingList>(state: .loaded(.dune, .emma))
    test.send(.bookTapped(1)) { $0.path.push(.detail(.init(book: .dune))) }
    test.send(
      .detail(id: ScreenID(0), .titleChanged("Dune Messiah")),
      decisions: [.file(.waitToSave(.seconds(1)))]
    ) {
      $0.path[id: ScreenID(0), case: ReadingList.Screen.detail]?.book.title = "Dune Messiah"
      $0.books.value[id: 1]?.title = "Dune Messiah"  // in the list, in the same step
      $0.books.hasUnsavedChanges = true
      $0.books.isWaitingToSave = true
    }
    test.send(
      .detail(id: ScreenID(0), .noteAdded("Spice")), decisions: [.file(.waitToSave(.seconds(1)))]
    ) {
      $0.path[id: ScreenID(0), case: ReadingList.Screen.detail]?.book.notes = ["Spice"]
      $0.books.value[id: 1]?.notes = ["Spice"]
    }
    test.send(.detail(id: ScreenID(0), .notesTapped)) { $0.path.push(.notes(1)) }
    test.send(.pathChanged([ScreenID(0)])) { $0.path.pop() }
    test.send(.detail(id: ScreenID(0), .deleteTapped)) {
      $0.path[id: ScreenID(0), case: ReadingList.Screen.detail]?.dialog = Self.deleteDune
    }
    test.send(.detail(id: ScreenID(0), .dialog(.dismissed))) {
      $0.path[id: ScreenID(0), case: ReadingList.Screen.detail]?.dialog = nil
    }
    test.send(.detail(id: ScreenID(0), .dialog(.chose(.confirmDelete))))  // stale: no dialog
    test.send(.detail(id: ScreenID(0), .deleteTapped)) {
      $0.path[id: ScreenID(0), case: ReadingList.Screen.detail]?.dialog = Self.deleteDune
    }
    test.send(
      .detail(id: ScreenID(0), .dialog(.chose(.confirmDelete))),
      decisions: [.file(.waitToSave(.seconds(1)))]
    ) {
      $0.books.value.remove(id: 1)
      $0.path.popToRoot()
    }
    test.send(.detail(id: ScreenID(0), .titleChanged("Gone")))  // a closed screen: dropped
  }

  @Test func theReadingTimerAddsAMinuteToTheListsBook() {
    var test = CoreTest<ReadingList>(state: .loaded(.dune))
    test.send(.bookTapped(1)) { $0.path.push(.detail(.init(book: .dune))) }
    test.send(
      .detail(id: ScreenID(0), .readingToggled),
      decisions: [.detail(id: ScreenID(0), .startTimer(every: .seconds(60)))]
    ) {
      $0.path[id: ScreenID(0), case: ReadingList.Screen.detail]?.isReading = true
    }
    test.send(
      .detail(id: ScreenID(0), .minutePassed), decisions: [.file(.waitToSave(.seconds(1)))]
    ) {
      $0.path[id: ScreenID(0), case: ReadingList.Screen.detail]?.book.minutesRead = 1
      $0.books.value[id: 1]?.minutesRead = 1
      $0.books.hasUnsavedChanges = true
      $0.books.isWaitingToSave = true
    }
    test.send(
      .detail(id: ScreenID(0), .readingToggled),
      decisions: [.detail(id: ScreenID(0), .stopTimer)]
    ) {
      $0.path[id: ScreenID(0), case: ReadingList.Screen.detail]?.isReading = false
    }
  }

  @Test func theAddSheetAddsABookWithATitle() {
    var test = CoreTest<ReadingList>(state: .loaded(.dune))
    test.send(.addTapped) { $0.addSheet = AddBook.State() }
    test.send(.addConfirmed)  // no title: nothing is added
    test.send(.addSheet(.titleChanged("Emma"))) { $0.addSheet?.title = "Emma" }
    test.send(.addSheet(.authorChanged("Jane Austen"))) { $0.addSheet?.author = "Jane Austen" }
    test.send(.addConfirmed, decisions: [.file(.waitToSave(.seconds(1)))]) {
      $0.addSheet = nil
      $0.books.value.append(.emma)
      $0.books.hasUnsavedChanges = true
      $0.books.isWaitingToSave = true
    }
    test.send(.addSheet(.titleChanged("Late")))  // no sheet: dropped
    test.send(.addTapped) { $0.addSheet = AddBook.State() }
    test.send(.addCancelled) { $0.addSheet = nil }
  }

  @Test func anOlderQuerysResultsNeverShow() {
    var test = CoreTest<ReadingList>(state: .loaded(.dune, .emma))
    test.send(.queryChanged("d"), decisions: [.search("d", after: .milliseconds(300))]) {
      $0.query = "d"
    }
    test.send(.queryChanged("du"), decisions: [.search("du", after: .milliseconds(300))]) {
      $0.query = "du"
    }
    test.send(.found(query: "d", ids: [1, 2]))  // the older query's: dropped
    test.send(.found(query: "du", ids: [1])) { $0.matches = [1] }
    #expect(test.state.shownBooks == [.dune])
    test.send(.queryChanged(""), decisions: [.cancelSearch]) {
      $0.query = ""
      $0.matches = nil
    }
    #expect(test.state.shownBooks == [.dune, .emma])
  }

  @Test func editsAreRefusedUntilTheFileHasLoaded() {
    var test = CoreTest<ReadingList>(state: .init())
    test.start(decisions: [.file(.load)])
    test.send(.addTapped) { $0.addSheet = AddBook.State() }
    test.send(.addSheet(.titleChanged("Emma"))) { $0.addSheet?.title = "Emma" }
    test.send(.addConfirmed) { $0.addSheet = nil }  // the book is undone: the file is loading
  }
}
