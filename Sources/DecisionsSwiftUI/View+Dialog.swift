#if canImport(SwiftUI)
  import Decisions
  import SwiftUI

  extension View {
    /// Shows a ``Dialog`` of the state as an alert or a confirmation dialog, and sends each answer.
    ///
    /// ```swift
    /// List { … }.dialog(store.state.dialog) { store.send(.dialog($0)) }
    /// ```
    /// A button with an action sends `.chose(action)`; a button without one, and a dismissal by
    /// the system, send `.dismissed`. One showing sends one answer: SwiftUI dismisses the dialog
    /// after each button's action, and that dismissal sends nothing, so an answer that puts a new
    /// dialog on show is not undone by it. The core takes the answer with
    /// `state.dialog.respond(to:)`, or `dialog.action(for:)`.
    /// - Parameters:
    ///   - dialog: The dialog on show, or nil.
    ///   - send: Sends an answer, usually as the feature's event: `{ store.send(.dialog($0)) }`.
    /// - Returns: The view, with the dialog attached.
    public func dialog<Action>(
      _ dialog: Dialog<Action>?, send: @escaping (DialogResponse<Action>) -> Void
    ) -> some View {
      let presentation = DialogPresentation(dialog, send: send)
      let title = dialog?.title ?? ""
      return
        self
        .alert(title, isPresented: presentation.binding(.alert), presenting: dialog) {
          DialogButtons(dialog: $0, presentation: presentation)
        } message: {
          if let message = $0.message { Text(message) }
        }
        .confirmationDialog(
          title, isPresented: presentation.binding(.confirmationDialog), titleVisibility: .visible,
          presenting: dialog
        ) {
          DialogButtons(dialog: $0, presentation: presentation)
        } message: {
          if let message = $0.message { Text(message) }
        }
    }
  }

  /// The buttons of a dialog, each answering through the showing.
  private struct DialogButtons<Action>: View {
    let dialog: Dialog<Action>
    let presentation: DialogPresentation<Action>

    var body: some View {
      ForEach(dialog.buttons.indices, id: \.self) { index in
        let button = dialog.buttons[index]
        Button(button.title, role: button.role.map(ButtonRole.init)) {
          presentation.tap(button)
        }
      }
    }
  }

  extension ButtonRole {
    /// SwiftUI's role for a dialog button's role.
    fileprivate init<Action>(_ role: Dialog<Action>.Button.Role) {
      switch role {
      case .cancel: self = .cancel
      case .destructive: self = .destructive
      }
    }
  }

  extension DialogPresentation {
    /// Whether the dialog shows as `kind`; SwiftUI's write of `false` is a dismissal.
    fileprivate func binding(_ kind: Dialog<Action>.Kind) -> Binding<Bool> {
      Binding(
        get: { @MainActor in self.isShown(as: kind) },
        set: { @MainActor in if !$0 { self.dismiss(kind) } })
    }
  }
#endif
