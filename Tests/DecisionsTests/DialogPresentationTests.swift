import Decisions
import Testing

/// An inbox whose "Delete all" asks twice: its first dialog's answer
/// puts a second dialog on show.
private enum Purge: Feature {
  enum Action: Equatable, Sendable {
    case deleteAll
    case reallyDeleteAll
  }
  struct State: Equatable, Sendable {
    var messages = [1, 2, 3]
    var dialog: Dialog<Action>?
  }
  enum Event: Equatable, Sendable {
    case deleteAllTapped
    case dialog(DialogResponse<Action>)
  }
  typealias Decision = Never

  static let first = Dialog<Action>(
    title: "Delete all?",
    buttons: [.init("Delete all", role: .destructive, action: .deleteAll), .init("Cancel")])
  static let second = Dialog<Action>(
    title: "Really?", buttons: [.init("Yes", role: .destructive, action: .reallyDeleteAll)])

  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .deleteAllTapped:
      state.dialog = first
    case .dialog(let response):
      switch state.dialog.respond(to: response) {
      case .deleteAll: state.dialog = second
      case .reallyDeleteAll: state.messages = []
      case nil: break
      }
    }
    return []
  }
}

@MainActor
@Suite struct DialogPresentationTests {
  /// The answers a showing of `dialog` sent, as SwiftUI's callbacks arrive.
  private final class Answers {
    var sent: [DialogResponse<Purge.Action>] = []
  }

  private func showing(
    _ dialog: Dialog<Purge.Action>?
  ) -> (DialogPresentation<Purge.Action>, Answers) {
    let answers = Answers()
    return (DialogPresentation(dialog, send: { answers.sent.append($0) }), answers)
  }

  // SwiftUI runs the button's action, then writes false to isPresented: one answer.
  @Test func aTapThenTheDismissalSendOneAnswer() {
    let (presentation, answers) = showing(Purge.first)
    #expect(presentation.isShown(as: .alert))
    presentation.tap(Purge.first.buttons[0])
    presentation.dismiss(.alert)
    #expect(answers.sent == [.chose(.deleteAll)])
    #expect(!presentation.isShown(as: .alert))
  }

  @Test func aButtonWithoutAnActionSendsDismissedOnce() {
    let (presentation, answers) = showing(Purge.first)
    presentation.tap(Purge.first.buttons[1])
    presentation.dismiss(.alert)
    #expect(answers.sent == [.dismissed])
  }

  // The system's own dismissal: the "OK" it adds to an alert without buttons, a tap outside a
  // confirmation dialog.
  @Test func aDismissalAloneSendsDismissed() {
    let (presentation, answers) = showing(Purge.second)
    presentation.dismiss(.alert)
    #expect(answers.sent == [.dismissed])
  }

  @Test func aDismissalOfTheOtherKindOrOfNoDialogSendsNothing() {
    let (presentation, answers) = showing(Purge.first)
    #expect(!presentation.isShown(as: .confirmationDialog))
    presentation.dismiss(.confirmationDialog)
    #expect(answers.sent.isEmpty)
    let (none, nothing) = showing(nil)
    #expect(!none.isShown(as: .alert))
    none.dismiss(.alert)
    #expect(nothing.sent.isEmpty)
  }

  // The whole story on a store: the first dialog's answer shows a second one, and SwiftUI's
  // dismissal of the first, which follows, must leave the second on show.
  @Test func anAnswerThatShowsASecondDialogIsNotUndoneByTheDismissal() {
    let store = MainStore<Purge>(state: .init(), deps: ())
    store.send(.deleteAllTapped)
    let presentation = DialogPresentation(store.state.dialog) { store.send(.dialog($0)) }
    presentation.tap(Purge.first.buttons[0])
    presentation.dismiss(.alert)
    #expect(store.state.dialog == Purge.second)
    let next = DialogPresentation(store.state.dialog) { store.send(.dialog($0)) }
    next.tap(Purge.second.buttons[0])
    next.dismiss(.alert)
    #expect(store.state.dialog == nil)
    #expect(store.state.messages == [])
  }
}
