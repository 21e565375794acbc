// The tests of Docs/Navigation.md, compiled and run.

import Decisions
import DecisionsTesting
import Foundation
import Testing

@Suite struct InboxDialogTests {
  @Test func deletingAsksFirst() {
    var test = CoreTest<Inbox>(state: .init())
    test.send(.deleteTapped(id: 2)) {
      $0.dialog = Dialog(
        title: "Delete message 2?",
        message: "You cannot undo this.",
        buttons: [
          .init("Delete", role: .destructive, action: .delete(id: 2)),
          .init("Cancel", role: .cancel),
        ])
    }
    test.send(.dialog(.chose(.delete(id: 2))), decisions: [.delete(id: 2)]) {
      $0.dialog = nil
      $0.messages = [1, 3]
    }
  }

  @Test func cancellingDeletesNothing() {
    var test = CoreTest<Inbox>(state: .init())
    test.send(.deleteTapped(id: 2)) {
      $0.dialog = Dialog(
        title: "Delete message 2?",
        message: "You cannot undo this.",
        buttons: [
          .init("Delete", role: .destructive, action: .delete(id: 2)),
          .init("Cancel", role: .cancel),
        ])
    }
    test.send(.dialog(.dismissed)) {
      $0.dialog = nil
    }
  }

  // SwiftUI can answer twice (the button's action, then the dismissal of the binding), or answer
  // a dialog that another one replaced: the stale answers change nothing.
  @Test func aStaleAnswerChangesNothing() {
    var test = CoreTest<Inbox>(state: .init())
    test.send(.dialog(.chose(.delete(id: 2))))  // no dialog is shown
    test.send(.archiveAllTapped) {
      $0.dialog = Dialog(
        .confirmationDialog, title: "Archive all messages?",
        buttons: [.init("Archive all", action: .archiveAll), .init("Cancel", role: .cancel)])
    }
    test.send(.dialog(.chose(.delete(id: 2))))  // not a button of this dialog
    test.send(.dialog(.chose(.archiveAll))) {
      $0.dialog = nil
      $0.archived = [1, 2, 3]
      $0.messages = []
    }
    test.send(.dialog(.dismissed))  // the binding's dismissal, after the button's answer
  }

  @Test func aWrongDialogFailsTheTest() {
    var test = CoreTest<Inbox>(state: .init())
    withKnownIssue {
      test.send(.deleteTapped(id: 2)) {
        $0.dialog = Dialog(title: "Delete message 2?")
      }
    } matching: {
      $0.description.contains("the state differs")
    }
  }

  @Test func aDialogSurvivesEncoding() throws {
    let dialog = Dialog<Inbox.DialogAction>(
      .confirmationDialog, title: "Archive all messages?", message: "All of them.",
      buttons: [.init("Archive all", action: .archiveAll), .init("Cancel", role: .cancel)])
    let data = try JSONEncoder().encode(dialog)
    #expect(try JSONDecoder().decode(Dialog<Inbox.DialogAction>.self, from: data) == dialog)
    let response = DialogResponse<Inbox.DialogAction>.chose(.delete(id: 4))
    #expect(
      try JSONDecoder().decode(
        DialogResponse<Inbox.DialogAction>.self, from: JSONEncoder().encode(response)) == response)
  }

  @Test func theDeleteRunsThroughTheStore() async throws {
    let delete = ControlledDependency<Int, Void>()
    let test = StoreTest<Inbox>(state: .init(), deps: .init(delete: { try await delete($0) }))
    await test.send(.deleteTapped(id: 1)) {
      $0.dialog = Dialog(
        title: "Delete message 1?",
        message: "You cannot undo this.",
        buttons: [
          .init("Delete", role: .destructive, action: .delete(id: 1)),
          .init("Cancel", role: .cancel),
        ])
    }
    await test.send(.dialog(.chose(.delete(id: 1))), decisions: [.delete(id: 1)]) {
      $0.dialog = nil
      $0.messages = [2, 3]
    }
    let call = try await delete.nextCall()
    #expect(call.arguments == 1)
    call.answer(())
    await test.finish()
  }
}

@MainActor
@Suite struct SearchFieldBindingTests {
  @Test func whatTheUserTypesIsTheCoresAtOnce() {
    let store = MainStore<SearchField>(state: .init(), deps: .init())
    let query = store.binding(\.query, send: SearchField.Event.queryChanged)
    query.wrappedValue = "a query longer than twenty characters"
    #expect(store.state.query == "a query longer than ")
    #expect(query.wrappedValue == "a query longer than ")
  }
}

@Suite struct NoteListStackTests {
  typealias ID = ScreenStack<NoteDetail.State>.ID

  @Test func openingANotePushesItsScreenWhichLoads() {
    var test = CoreTest<NoteList>(state: .init())
    test.send(.open("Ideas"), decisions: [.detail(id: ID(0), .loadHistory("Ideas"))]) {
      $0.path.push(NoteDetail.State(note: "Ideas"))
    }
    test.send(.detail(id: ID(0), .historyLoaded(["v1"]))) {
      $0.path[id: ID(0)]?.history = ["v1"]
    }
    test.send(.pathChanged([])) {
      $0.path.popToRoot()
    }
    // The screen is gone: its late events find nothing.
    test.send(.detail(id: ID(0), .historyLoaded(["v2"])))
  }

  @Test func aScreenAsksToBeDismissed() {
    var test = CoreTest<NoteList>(state: .init())
    test.send(.open("Ideas"), decisions: [.detail(id: ID(0), .loadHistory("Ideas"))]) {
      $0.path.push(NoteDetail.State(note: "Ideas"))
    }
    test.send(.detail(id: ID(0), .deleteTapped)) {
      $0.notes = ["Groceries"]
      $0.path.pop()
    }
  }

  // Popping a screen ends its work; the same note opened again is a new screen with work of its
  // own, and the old load's answer never reaches it.
  @Test func aPoppedScreensLoadEndsWithIt() async throws {
    let history = ControlledDependency<String, [String]>()
    let test = StoreTest<NoteList>(
      state: .init(), deps: .init(detail: .init(history: { try await history($0) })))
    await test.send(.open("Ideas"), decisions: [.detail(id: ID(0), .loadHistory("Ideas"))]) {
      $0.path.push(NoteDetail.State(note: "Ideas"))
    }
    let first = try await history.nextCall()
    await test.send(.backToList) {
      $0.path.popToRoot()
    }
    await test.send(.open("Ideas"), decisions: [.detail(id: ID(1), .loadHistory("Ideas"))]) {
      $0.path.push(NoteDetail.State(note: "Ideas"))
    }
    first.answer(["stale"])  // cancelled already: goes nowhere
    let second = try await history.nextCall()
    second.answer(["fresh"])
    await test.receive(.detail(id: ID(1), .historyLoaded(["fresh"]))) {
      $0.path[id: ID(1)]?.history = ["fresh"]
    }
    await test.finish()
    #expect(!first.isWaiting)
  }
}

// A deep link replaces the whole stack, so its screen has the old screen's id (#0). The old
// screen's load, answered after, must not reach it.
@Suite struct NoteListDeepLinkTests {
  @Test func aReplacedScreensLoadNeverReachesTheScreenWithItsId() async throws {
    let history = ControlledDependency<String, [String]>()
    let test = StoreTest<NoteList>(
      state: .init(), deps: .init(detail: .init(history: { try await history($0) })))
    let id = ScreenStack<NoteDetail.State>.ID(0)
    await test.send(.open("Ideas"), decisions: [.detail(id: id, .loadHistory("Ideas"))]) {
      $0.path.push(NoteDetail.State(note: "Ideas"))
    }
    let old = try await history.nextCall()
    await test.send(.deepLink("Groceries")) {
      $0.path = [NoteDetail.State(note: "Groceries")]
    }
    old.answer(["an idea"])  // its work was cancelled with its screen: nothing arrives
    await test.send(
      .detail(id: id, .appeared), decisions: [.detail(id: id, .loadHistory("Groceries"))])
    let new = try await history.nextCall()
    new.answer(["milk"])
    await test.receive(.detail(id: id, .historyLoaded(["milk"]))) {
      $0.path[id: id]?.history = ["milk"]
    }
    await test.finish()
  }
}

// The same promise under a race: the old screen's answer comes from another task while the deep
// link is sent. Whichever comes first, the old answer is never processed after the deep link.
@Suite(.timeLimit(.minutes(3))) struct NoteListStackRaceTests {
  @Test(arguments: StoreKind.allCases)
  func anOldScreensAnswerNeverReachesTheNewOneWithItsId(on kind: StoreKind) async throws {
    for round in 0..<200 {
      let history = ControlledDependency<String, [String]>()
      let test = await StoreTest<NoteList>(
        state: .init(), deps: .init(detail: .init(history: { try await history($0) })),
        exhaustivity: .off, endChecks: [], on: kind)
      await test.send(.open("old"))
      let old = try await history.nextCall()
      async let answered: Void = old.answer(["old"])
      await test.send(.deepLink("new"))
      await answered
      await test.send(.detail(id: ScreenStack<NoteDetail.State>.ID(0), .appeared))
      try await history.nextCall().answer(["new"])
      await test.settle()
      let events = test.processedEvents
      let link = try #require(events.firstIndex(of: .deepLink("new")))
      let late = events[link...].filter {
        if case .detail(_, .historyLoaded(["old"])) = $0 { true } else { false }
      }
      #expect(late.isEmpty, "round \(round): \(events)")
      #expect(await test.state.path.first?.screen.history == ["new"])
      await test.finish()
    }
  }
}

@Suite struct AccountDestinationTests {
  @Test func aRenameIsCheckedThenSaved() {
    var test = CoreTest<Account>(state: .init())
    test.send(.renameTapped) {
      $0.destination = .rename(Rename.State(name: "ada"))
    }
    test.send(
      .rename(.nameChanged("ada2")),
      decisions: [.rename(.check("ada2"))]
    ) {
      $0.destination = .rename(Rename.State(name: "ada2"))
    }
    test.send(.rename(.checked(name: "ada2", isAvailable: true))) {
      $0.destination = .rename(Rename.State(name: "ada2", isAvailable: true))
    }
    test.send(.rename(.saveTapped)) {
      $0.name = "ada2"
      $0.destination = nil
    }
  }

  @Test func anEventForADestinationThatIsNotShownIsDropped() {
    var test = CoreTest<Account>(state: .init())
    test.send(.aboutTapped) {
      $0.destination = .about
    }
    test.send(.rename(.nameChanged("x")))
  }

  // One destination at a time: presenting another ends the first one's work, and its answer
  // never reaches the next one, even a new rename form in its place.
  @Test func replacingTheDestinationEndsItsWork() async throws {
    let isAvailable = ControlledDependency<String, Bool>()
    let test = StoreTest<Account>(
      state: .init(),
      deps: .init(rename: .init(isAvailable: { try await isAvailable($0) })))
    await test.send(.renameTapped) {
      $0.destination = .rename(Rename.State(name: "ada"))
    }
    await test.send(
      .rename(.nameChanged("bea")),
      decisions: [.rename(.check("bea"))]
    ) {
      $0.destination = .rename(Rename.State(name: "bea"))
    }
    let check = try await isAvailable.nextCall()
    await test.send(.renameTapped) {  // a new form, in place of the old one
      $0.destination = .rename(Rename.State(name: "ada"))
    }
    check.answer(false)  // the old form's check: cancelled, goes nowhere
    await test.send(
      .rename(.nameChanged("bea")),
      decisions: [.rename(.check("bea"))]
    ) {
      $0.destination = .rename(Rename.State(name: "bea"))
    }
    let newCheck = try await isAvailable.nextCall()
    newCheck.answer(true)
    await test.receive(.rename(.checked(name: "bea", isAvailable: true))) {
      $0.destination = .rename(Rename.State(name: "bea", isAvailable: true))
    }
    await test.send(.dismissed) {
      $0.destination = nil
    }
    await test.finish()
  }
}

// The destination's promise under a race: the old form's check answers from another task while a
// new form replaces it. The answer is never processed after the replacement.
@Suite(.timeLimit(.minutes(3))) struct AccountDestinationRaceTests {
  @Test(arguments: StoreKind.allCases)
  func anOldDestinationsAnswerNeverReachesTheNewOne(on kind: StoreKind) async throws {
    for round in 0..<200 {
      let isAvailable = ControlledDependency<String, Bool>()
      let test = await StoreTest<Account>(
        state: .init(),
        deps: .init(rename: .init(isAvailable: { try await isAvailable($0) })),
        exhaustivity: .off, endChecks: [], on: kind)
      await test.send(.renameTapped)
      await test.send(.rename(.nameChanged("ada")))
      let check = try await isAvailable.nextCall()
      async let answered: Void = check.answer(true)
      await test.send(.renameTapped)
      await answered
      await test.settle()
      let events = test.processedEvents
      let replaced = try #require(events.lastIndex(of: .renameTapped))
      let late = events[replaced...].filter {
        if case .rename(.checked) = $0 { true } else { false }
      }
      #expect(late.isEmpty, "round \(round): \(events)")
      #expect(await test.state.destination == .rename(Rename.State(name: "ada")))
      await test.finish()
    }
  }
}

@Suite struct DialogActionTests {
  // A dialog kept in a case of a destination enum: the parent asks the dialog which action an
  // answer chose, and dismisses it itself.
  @Test func aDialogTellsWhichActionAnAnswerChose() {
    let dialog = Dialog<Inbox.DialogAction>(
      title: "Archive all messages?",
      buttons: [.init("Archive all", action: .archiveAll), .init("Cancel", role: .cancel)])
    #expect(dialog.action(for: .chose(.archiveAll)) == .archiveAll)
    #expect(dialog.action(for: .chose(.delete(id: 1))) == nil)  // none of its buttons
    #expect(dialog.action(for: .dismissed) == nil)
  }
}

// A screen's model follows its screen, not its id: after a deep link puts a new #0 on the stack,
// the old #0's model is gone, and what it sends never reaches the new screen.
@MainActor
@Suite struct NoteListScreenModelTests {
  typealias ID = ScreenStack<NoteDetail.State>.ID

  @Test func aReplacedScreensModelDoesNotDriveTheNewScreenWithItsId() throws {
    let history = ControlledDependency<String, [String]>()
    let store = MainStore<NoteList>(
      state: .init(), deps: .init(detail: .init(history: { try await history($0) })))
    store.send(.open("Ideas"))
    let old = try #require(
      store.child(NoteList.details, id: ID(0)))
    #expect(
      old === store.child(NoteList.details, id: ID(0)))
    store.send(.deepLink("Groceries"))
    #expect(old.isGone)
    old.send(.historyLoaded(["an idea"]))  // dropped
    #expect(store.state.path[id: ID(0)] == NoteDetail.State(note: "Groceries"))
    let new = try #require(
      store.child(NoteList.details, id: ID(0)))
    #expect(new !== old)
    #expect(new.state.note == "Groceries")
    new.send(.historyLoaded(["milk"]))
    #expect(store.state.path[id: ID(0)]?.history == ["milk"])
    store.stop()
  }
}
