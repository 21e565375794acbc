/// An alert or a confirmation dialog, as a value in a feature's state: a title, a message, and
/// buttons that each answer with an action of the feature's.
///
/// The core shows a dialog by setting it in the state, and hears the answer as an event that
/// carries a ``DialogResponse``. Nothing about it lives in the view, so a core test checks it by
/// equality like any state, and a stale answer, from a dialog that is no longer shown, is dropped
/// by `Optional.respond(to:)`:
///
/// ```swift
/// enum Inbox: Feature {
///   enum DeleteAction: Equatable, Sendable {
///     case confirm(id: Int)
///   }
///   struct State: Equatable, Sendable {
///     var messages: [Int] = [1, 2, 3]
///     var dialog: Dialog<DeleteAction>?
///   }
///   enum Event: Equatable, Sendable {
///     case deleteTapped(id: Int)
///     case dialog(DialogResponse<DeleteAction>)
///   }
///   // …
///   static func makeDecisions(event: Event, state: inout State) -> [Decision] {
///     switch event {
///     case .deleteTapped(let id):
///       state.dialog = Dialog(
///         title: "Delete this message?",
///         buttons: [
///           .init("Delete", role: .destructive, action: .confirm(id: id)),
///           .init("Cancel", role: .cancel),
///         ])
///       return []
///     case .dialog(let response):
///       guard case .confirm(let id) = state.dialog.respond(to: response) else { return [] }
///       state.messages.removeAll { $0 == id }
///       return []
///     }
///   }
/// }
/// ```
///
/// A view shows `state.dialog` as an alert (or, for ``Kind-swift.enum/confirmationDialog``, as a
/// confirmation dialog), and sends `.dialog(.chose(action))` for a button with an action and
/// `.dialog(.dismissed)` for one without, or when the system dismisses it.
///
/// `Action` is the feature's own type, usually an enum. `Dialog` asks nothing of it, so that a
/// main-actor feature's action type works as it is; it is `Equatable`, `Hashable`, `Sendable` and
/// `Codable` when `Action` is.
public struct Dialog<Action> {
  /// How the dialog is shown.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// An alert: a title, a message, and up to a few buttons, in the middle of the screen.
    case alert
    /// A confirmation dialog: a list of choices tied to what the user just did.
    case confirmationDialog
  }

  /// A button of a dialog.
  public struct Button {
    /// What a button does, as a platform's button roles say it.
    public enum Role: String, Sendable, Hashable, Codable {
      /// The button cancels: it is shown apart, and answers what dismissing the dialog answers.
      case cancel
      /// The button does something that cannot be undone, such as deleting data.
      case destructive
    }

    /// The button's title.
    public var title: String
    /// The button's role, if it has one.
    public var role: Role?
    /// The action that tapping the button answers, or nil for a button that only dismisses the
    /// dialog.
    public var action: Action?

    /// A button titled `title`, with a role, that answers `action` (nil: only dismisses).
    /// - Parameters:
    ///   - title: The button's title.
    ///   - role: The button's role, if it has one.
    ///   - action: The action that tapping the button answers; nil for a button that only
    ///     dismisses the dialog.
    public init(_ title: String, role: Role? = nil, action: Action? = nil) {
      self.title = title
      self.role = role
      self.action = action
    }
  }

  /// How the dialog is shown: an alert unless said otherwise.
  public var kind: Kind
  /// The dialog's title.
  public var title: String
  /// The text under the title, if any.
  public var message: String?
  /// The buttons, in order: none for a dialog shown with one "OK" button that dismisses it.
  public var buttons: [Button]

  /// A dialog with a title, a message and buttons.
  /// - Parameters:
  ///   - kind: How the dialog is shown: ``Kind-swift.enum/alert`` unless said otherwise.
  ///   - title: The dialog's title.
  ///   - message: The text under the title, if any.
  ///   - buttons: The buttons, in order; none for a dialog with one "OK" button.
  public init(
    _ kind: Kind = .alert, title: String, message: String? = nil, buttons: [Button] = []
  ) {
    self.kind = kind
    self.title = title
    self.message = message
    self.buttons = buttons
  }
}

/// The answer to a ``Dialog``: the action of the button tapped, or its dismissal.
///
/// A feature's event for its dialog carries one: `case dialog(DialogResponse<DeleteAction>)`.
public enum DialogResponse<Action> {
  /// The user tapped a button with this action.
  case chose(Action)
  /// The dialog went away without an action: a button without one, a cancel, or the system.
  case dismissed
}

extension Dialog where Action: Equatable {
  /// The action that `response` chose, if it is an answer to this dialog; nil for a dismissal or
  /// an action none of its buttons has.
  ///
  /// For a dialog kept somewhere other than an optional of its own, such as a case of a
  /// destination enum: the parent takes the action, then dismisses the dialog itself.
  /// ```swift
  /// case .destination(.dialog(let response)):
  ///   guard case .confirmDeleteAll(let dialog) = state.destination else { return [] }
  ///   state.destination = nil
  ///   if dialog.action(for: response) == .deleteAll { state.contacts = [] }
  /// ```
  /// - Parameter response: The answer, from the feature's event.
  /// - Returns: The action the user chose, or nil.
  public func action(for response: DialogResponse<Action>) -> Action? {
    guard case .chose(let action) = response, buttons.contains(where: { $0.action == action })
    else { return nil }
    return action
  }
}

extension Optional {
  /// Takes an answer to the dialog shown here: dismisses it, and returns the action chosen, if any.
  ///
  /// Any answer to the dialog shown dismisses it, as tapping any of its buttons does on screen. An
  /// answer that cannot be to this dialog changes nothing and returns nil:
  /// - no dialog is shown: the answer is from one that was dismissed or replaced, late;
  /// - the action is none of this dialog's buttons': it was meant for another dialog.
  ///
  /// ```swift
  /// case .dialog(let response):
  ///   guard case .confirm(let id) = state.dialog.respond(to: response) else { return [] }
  /// ```
  /// - Parameter response: The answer, from the feature's event.
  /// - Returns: The action the user chose, or nil when they chose none or the answer is stale.
  public mutating func respond<Action: Equatable>(to response: DialogResponse<Action>) -> Action?
  where Wrapped == Dialog<Action> {
    guard let dialog = self else { return nil }
    if case .chose = response, dialog.action(for: response) == nil { return nil }
    self = nil
    return dialog.action(for: response)
  }
}

extension Dialog: Equatable where Action: Equatable {}
extension Dialog: Hashable where Action: Hashable {}
extension Dialog: Sendable where Action: Sendable {}
extension Dialog: Encodable where Action: Encodable {}
extension Dialog: Decodable where Action: Decodable {}
extension Dialog.Button: Equatable where Action: Equatable {}
extension Dialog.Button: Hashable where Action: Hashable {}
extension Dialog.Button: Sendable where Action: Sendable {}
extension Dialog.Button: Encodable where Action: Encodable {}
extension Dialog.Button: Decodable where Action: Decodable {}
extension DialogResponse: Equatable where Action: Equatable {}
extension DialogResponse: Hashable where Action: Hashable {}
extension DialogResponse: Sendable where Action: Sendable {}
extension DialogResponse: Encodable where Action: Encodable {}
extension DialogResponse: Decodable where Action: Decodable {}

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

extension Dialog: CustomReflectable {
  /// Reflects as the arguments of ``init(_:title:message:buttons:)``, the kind unlabelled: a
  /// printed story that holds a dialog compiles.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        (label: nil, value: kind), (label: "title", value: title),
        (label: "message", value: message as Any), (label: "buttons", value: buttons),
      ] as [Mirror.Child], displayStyle: .struct)
  }
}

extension Dialog.Button: CustomReflectable {
  /// Reflects as the arguments of ``init(_:role:action:)``, the title unlabelled: a printed
  /// story that holds a dialog compiles.
  public var customMirror: Mirror {
    Mirror(
      self,
      children: [
        (label: nil, value: title), (label: "role", value: role as Any),
        (label: "action", value: action as Any),
      ] as [Mirror.Child], displayStyle: .struct)
  }
}
