// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation
// (Not API: each declaration names the page of Apple's that it stands in for, in a plain comment.)

// Text, and the localized string keys that a string literal makes.

import Foundation

// developer.apple.com/documentation/swiftui/text
public struct Text: Equatable, Sendable {
  // developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4
  public init<S>(_ content: S) where S: StringProtocol {}

  // developer.apple.com/documentation/swiftui/text/init(_:tablename:bundle:comment:)
  public init(
    _ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil,
    comment: StaticString? = nil
  ) {}

  // developer.apple.com/documentation/swiftui/text/monospaceddigit()
  public nonisolated func monospacedDigit() -> Text { self }
}

extension Text: View {
  public typealias Body = Never
}

// developer.apple.com/documentation/swiftui/localizedstringkey
public struct LocalizedStringKey: Equatable, Sendable, ExpressibleByStringInterpolation {
  // developer.apple.com/documentation/swiftui/localizedstringkey/init(stringliteral:)
  public init(stringLiteral value: String) {}

  // developer.apple.com/documentation/swiftui/localizedstringkey/init(stringinterpolation:)
  public init(stringInterpolation: LocalizedStringKey.StringInterpolation) {}

  // developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation
  public struct StringInterpolation: StringInterpolationProtocol {
    // developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation/
    // init(literalcapacity:interpolationcount:)
    public init(literalCapacity: Int, interpolationCount: Int) {}

    // developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation/
    // appendliteral(_:)
    public mutating func appendLiteral(_ literal: String) {}

    // developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation/
    // appendinterpolation(_:)-378v9
    public mutating func appendInterpolation<T>(_ value: T) where T: _FormatSpecifiable {}
  }
}

// The protocol of the numbers a localized string key interpolates (Int, Double, ...), public in
// SwiftUI's interface with no page of its own. Deviation: its requirements are SwiftUI's own; the
// stand-in declares none, and only the types the recipes interpolate conform.
public protocol _FormatSpecifiable: Equatable {}

extension Int: _FormatSpecifiable {}
extension Double: _FormatSpecifiable {}
