// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (Not API: each declaration names the page of Apple's that it stands in for, in a plain comment.)

// The modifiers the adapters and the recipes use. Each returns `EmptyView()`, a stub.

// developer.apple.com/documentation/swiftui/visibility
// Deviation: its case `hidden`, and its conformances but Sendable, are left out: unused.
public enum Visibility: Sendable {
  // developer.apple.com/documentation/swiftui/visibility/automatic
  case automatic
  // developer.apple.com/documentation/swiftui/visibility/visible
  case visible
}

extension View {
  // MARK: - Alerts and confirmation dialogs

  // developer.apple.com/documentation/swiftui/view/
  // alert(_:ispresented:presenting:actions:message:)-8584l
  public nonisolated func alert<S, A, M, T>(
    _ title: S, isPresented: Binding<Bool>, presenting data: T?,
    @ContentBuilder actions: (T) -> A, @ContentBuilder message: (T) -> M
  ) -> some View where S: StringProtocol, A: View, M: View { EmptyView() }

  // developer.apple.com/documentation/swiftui/view/
  // confirmationdialog(_:ispresented:titlevisibility:presenting:actions:message:), the overload
  // that takes a string. Deviation: its own page was not found; the signature is the one of the
  // overload with a localized key (…-8y541) with alert's string title (…-8584l above).
  public nonisolated func confirmationDialog<S, A, M, T>(
    _ title: S, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
    presenting data: T?, @ContentBuilder actions: (T) -> A, @ContentBuilder message: (T) -> M
  ) -> some View where S: StringProtocol, A: View, M: View { EmptyView() }

  // MARK: - Sheets, covers, and navigation

  // developer.apple.com/documentation/swiftui/view/sheet(item:ondismiss:content:)
  public nonisolated func sheet<Item, Content>(
    item: Binding<Item?>, onDismiss: (() -> Void)? = nil,
    @ContentBuilder content: @escaping (Item) -> Content
  ) -> some View where Item: Identifiable, Content: View { EmptyView() }

  // developer.apple.com/documentation/swiftui/view/fullscreencover(item:ondismiss:content:)
  // (iOS, tvOS, watchOS and visionOS: the page lists no macOS)
  @available(macOS, unavailable)
  public nonisolated func fullScreenCover<Item, Content>(
    item: Binding<Item?>, onDismiss: (() -> Void)? = nil,
    @ContentBuilder content: @escaping (Item) -> Content
  ) -> some View where Item: Identifiable, Content: View { EmptyView() }

  // developer.apple.com/documentation/swiftui/view/navigationdestination(for:destination:)
  public nonisolated func navigationDestination<D, C>(
    for data: D.Type, @ContentBuilder destination: @escaping (D) -> C
  ) -> some View where D: Hashable, C: View { EmptyView() }

  // MARK: - Lifecycle and interaction

  // developer.apple.com/documentation/swiftui/view/onappear(perform:)
  public nonisolated func onAppear(perform action: (() -> Void)? = nil) -> some View {
    EmptyView()
  }

  // developer.apple.com/documentation/swiftui/view/ondisappear(perform:)
  public nonisolated func onDisappear(perform action: (() -> Void)? = nil) -> some View {
    EmptyView()
  }

  // developer.apple.com/documentation/swiftui/view/disabled(_:)
  public nonisolated func disabled(_ disabled: Bool) -> some View { EmptyView() }
}
