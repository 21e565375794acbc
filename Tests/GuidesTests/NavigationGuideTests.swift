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
