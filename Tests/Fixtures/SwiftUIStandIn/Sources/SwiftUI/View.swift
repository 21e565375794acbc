// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (Not API: each declaration names the page of Apple's that it stands in for, in a plain comment.)

// The view protocol, its builder, and the views the builder makes.

// developer.apple.com/documentation/swiftui/view
@MainActor @preconcurrency
public protocol View {
  // developer.apple.com/documentation/swiftui/view/body-swift.associatedtype
  associatedtype Body: View

  // developer.apple.com/documentation/swiftui/view/body-8kl5o
  @ContentBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

// Deviation: SwiftUI gives its primitive views (`Body == Never`) a body of its own; see README.swift.
extension View where Body == Never {
  public var body: Never { fatalError() }
}

// developer.apple.com/documentation/swiftui/view ("Conforming Types": Never)
extension Never: View {
  public typealias Body = Never
}

// developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder
public struct ViewBuilder {
  // developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
  public static func buildBlock<Content>(_ content: Content) -> Content { content }

  // developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-2bj1g
  public static func buildBlock<each Content>(
    _ content: repeat each Content
  ) -> TupleView<(repeat each Content)> where repeat each Content: View {
    TupleView((repeat each content))
  }

  // developer.apple.com/documentation/swiftui/viewbuilder/buildif(_:)
  public static func buildIf<Content>(_ content: Content?) -> Content? { content }

  // developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
  public static func buildEither<TrueContent, FalseContent>(
    first: TrueContent
  ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError() }

  // developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)
  public static func buildEither<TrueContent, FalseContent>(
    second: FalseContent
  ) -> _ConditionalContent<TrueContent, FalseContent> { fatalError() }
}

// developer.apple.com/documentation/swiftui/contentbuilder
public typealias ContentBuilder = ViewBuilder

// developer.apple.com/documentation/swiftui/emptyview
// Deviation: declared `nonisolated`, as the pages declare SwiftUI's other built-in views, so that
// the stand-in's nonisolated modifiers can return one.
public nonisolated struct EmptyView: View {
  public typealias Body = Never
  // developer.apple.com/documentation/swiftui/emptyview/init()
  public init() {}
}

// developer.apple.com/documentation/swiftui/tupleview
public nonisolated struct TupleView<T>: View {
  public typealias Body = Never
  // developer.apple.com/documentation/swiftui/tupleview/init(_:)
  public init(_ value: T) {}
}

// What `buildEither` makes; public in SwiftUI's interface, with no page of its own.
public nonisolated struct _ConditionalContent<TrueContent, FalseContent> {}

extension _ConditionalContent: View where TrueContent: View, FalseContent: View {
  public typealias Body = Never
}

// developer.apple.com/documentation/swift/optional ("Conforms To": View, in SwiftUI)
extension Optional: View where Wrapped: View {
  public typealias Body = Never
}
