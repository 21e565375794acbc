/// One showing of a ``Dialog`` by a UI framework: it turns the framework's callbacks, a button
/// tapped and the dialog dismissed, into the answers to send, and sends only the first.
///
/// SwiftUI runs a button's action, then writes `false` to the dialog's `isPresented` binding: two
/// callbacks for one tap. A `.dismissed` sent for the second would dismiss whatever the first
/// answer put on show, such as a second dialog. DecisionsSwiftUI's `dialog(_:send:)` makes one per
/// view update.
@MainActor
package final class DialogPresentation<Action> {
  /// The dialog on show, or nil.
  package let dialog: Dialog<Action>?
  private let send: (DialogResponse<Action>) -> Void
  private var isAnswered = false

  /// A showing of `dialog` whose answers go to `send`.
  package init(_ dialog: Dialog<Action>?, send: @escaping (DialogResponse<Action>) -> Void) {
    self.dialog = dialog
    self.send = send
  }

  /// Whether the dialog shows as `kind` and is not answered yet.
  package func isShown(as kind: Dialog<Action>.Kind) -> Bool {
    !isAnswered && dialog?.kind == kind
  }

  /// A button of the dialog was tapped: sends its action, or `.dismissed` for a button without one.
  package func tap(_ button: Dialog<Action>.Button) {
    answer(button.action.map { .chose($0) } ?? .dismissed)
  }

  /// The framework dismissed the dialog shown as `kind`: sends `.dismissed`, unless a button
  /// answered this showing already.
  package func dismiss(_ kind: Dialog<Action>.Kind) {
    guard dialog?.kind == kind else { return }
    answer(.dismissed)
  }

  private func answer(_ response: DialogResponse<Action>) {
    guard dialog != nil, !isAnswered else { return }
    isAnswered = true
    send(response)
  }
}
