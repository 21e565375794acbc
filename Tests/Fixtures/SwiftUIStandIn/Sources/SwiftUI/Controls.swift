// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (Not API: each declaration names the page of Apple's that it stands in for, in a plain comment.)

// Buttons, text fields, and their roles.

// developer.apple.com/documentation/swiftui/button
// Deviation: the page declares `@MainActor @preconcurrency struct Button<Label>`; conforming to
// View in the declaration infers the same isolation.
public struct Button<Label>: View where Label: View {
  public typealias Body = Never
}

extension Button where Label == Text {
  // developer.apple.com/documentation/swiftui/button/init(_:action:)-1asy
  @preconcurrency
  public nonisolated init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {
  }

  // developer.apple.com/documentation/swiftui/button/init(_:action:)-lpm7
  @preconcurrency
  public nonisolated init<S>(_ title: S, action: @escaping @MainActor () -> Void)
  where S: StringProtocol {}

  // developer.apple.com/documentation/swiftui/button/init(_:role:action:), the overload that
  // takes a string. Deviation: its own page was not found; the signature is the one the page of
  // init(_:action:)-lpm7 gives, with the role of init(role:action:label:).
  @preconcurrency
  public nonisolated init<S>(
    _ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void
  ) where S: StringProtocol {}
}

// developer.apple.com/documentation/swiftui/buttonrole
public struct ButtonRole: Equatable, Sendable {
  private init() {}

  // developer.apple.com/documentation/swiftui/buttonrole/cancel
  public static let cancel = ButtonRole()

  // developer.apple.com/documentation/swiftui/buttonrole/destructive
  public static let destructive = ButtonRole()
}

// developer.apple.com/documentation/swiftui/textfield
public nonisolated struct TextField<Label>: View where Label: View {
  public typealias Body = Never
}

extension TextField where Label == Text {
  // developer.apple.com/documentation/swiftui/textfield/init(_:text:)
  public nonisolated init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
}

// developer.apple.com/documentation/swiftui/progressview
public nonisolated struct ProgressView<Label, CurrentValueLabel>: View
where Label: View, CurrentValueLabel: View {
  public typealias Body = Never
}

extension ProgressView where CurrentValueLabel == EmptyView {
  // developer.apple.com/documentation/swiftui/progressview/init()
  public nonisolated init() where Label == EmptyView {}
}
