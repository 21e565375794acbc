// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (Not API: each declaration names the page of Apple's that it stands in for, in a plain comment.)

// Stacks, lists, and the views that repeat or space their content.

import Foundation

// developer.apple.com/documentation/swiftui/vstack
public nonisolated struct VStack<Content>: View where Content: View {
  public typealias Body = Never

  // developer.apple.com/documentation/swiftui/vstack/init(alignment:spacing:content:)
  public nonisolated init(
    alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil,
    @ContentBuilder content: () -> Content
  ) {}
}

// developer.apple.com/documentation/swiftui/hstack
public nonisolated struct HStack<Content>: View where Content: View {
  public typealias Body = Never

  // developer.apple.com/documentation/swiftui/hstack/init(alignment:spacing:content:)
  // Deviation: that page was not found; the signature is VStack's with a vertical alignment,
  // as HStackLayout's init(alignment:spacing:) has it.
  public nonisolated init(
    alignment: VerticalAlignment = .center, spacing: CGFloat? = nil,
    @ContentBuilder content: () -> Content
  ) {}
}

// developer.apple.com/documentation/swiftui/horizontalalignment
public struct HorizontalAlignment: Equatable, Sendable {
  private init() {}
  // developer.apple.com/documentation/swiftui/horizontalalignment/center
  public static let center = HorizontalAlignment()
}

// developer.apple.com/documentation/swiftui/verticalalignment
public struct VerticalAlignment: Equatable, Sendable {
  private init() {}
  // developer.apple.com/documentation/swiftui/verticalalignment/center
  public static let center = VerticalAlignment()
}

// developer.apple.com/documentation/swiftui/spacer
public nonisolated struct Spacer: View {
  public typealias Body = Never
  // developer.apple.com/documentation/swiftui/spacer/init(minlength:)
  public nonisolated init(minLength: CGFloat? = nil) {}
}

// developer.apple.com/documentation/swiftui/list
public nonisolated struct List<SelectionValue, Content>: View
where SelectionValue: Hashable, Content: View {
  public typealias Body = Never
}

extension List where SelectionValue == Never {
  // developer.apple.com/documentation/swiftui/list/init(content:)
  public nonisolated init(@ContentBuilder content: () -> Content) {}
}

// developer.apple.com/documentation/swiftui/foreach
public nonisolated struct ForEach<Data, ID, Content>
where Data: RandomAccessCollection, ID: Hashable {}

extension ForEach: View where Content: View {
  public typealias Body = Never
}

extension ForEach where Content: View {
  // developer.apple.com/documentation/swiftui/foreach/init(_:id:content:)
  // Deviation: the view overload's page was not found; the signature is the one
  // List.init(_:id:rowContent:) (developer.apple.com/documentation/swiftui/list/
  // init(_:id:rowcontent:)-4s0aj) hands its rows to.
  public nonisolated init(
    _ data: Data, id: KeyPath<Data.Element, ID>,
    @ContentBuilder content: @escaping (Data.Element) -> Content
  ) {}

  // developer.apple.com/documentation/swiftui/foreach/init(_:content:)
  // Deviation: that page shows MapKit's overload; the view overload's signature is the same with
  // the view builder.
  public nonisolated init(
    _ data: Data, @ContentBuilder content: @escaping (Data.Element) -> Content
  )
  where ID == Data.Element.ID, Data.Element: Identifiable {}
}

// developer.apple.com/documentation/swiftui/navigationstack
public nonisolated struct NavigationStack<Data, Root>: View where Root: View {
  public typealias Body = Never

  // developer.apple.com/documentation/swiftui/navigationstack/init(path:root:)-3bt4q
  public nonisolated init(path: Binding<Data>, @ContentBuilder root: () -> Root)
  where
    Data: MutableCollection, Data: RandomAccessCollection, Data: RangeReplaceableCollection,
    Data.Element: Hashable
  {}
}
