/// A width and a height, in points.
///
/// The cores in this module use their own small value types instead of `CGSize` and friends, so
/// they build and test on every platform, with no UI framework linked.
public struct Size: Hashable, Sendable {
  /// The horizontal extent.
  public var width: Double
  /// The vertical extent.
  public var height: Double

  /// A size with no width and no height.
  public static let zero = Size(width: 0, height: 0)

  /// Creates a size.
  public init(width: Double, height: Double) {
    self.width = width
    self.height = height
  }
}

/// A position, in points, with `y` growing downwards.
public struct Point: Hashable, Sendable {
  /// The horizontal coordinate.
  public var x: Double
  /// The vertical coordinate.
  public var y: Double

  /// The origin.
  public static let zero = Point(x: 0, y: 0)

  /// Creates a point.
  public init(x: Double, y: Double) {
    self.x = x
    self.y = y
  }
}

/// A rectangle: an origin (its top-left corner) and a size.
public struct Rect: Hashable, Sendable {
  /// The top-left corner.
  public var origin: Point
  /// The width and height.
  public var size: Size

  /// Creates a rectangle from its top-left corner and its size.
  public init(origin: Point, size: Size) {
    self.origin = origin
    self.size = size
  }

  /// Creates a rectangle from its top-left corner's coordinates and its size.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
  }

  /// The left edge.
  public var minX: Double { origin.x }
  /// The top edge.
  public var minY: Double { origin.y }
  /// The right edge: `minX + width`.
  public var maxX: Double { origin.x + size.width }
  /// The bottom edge: `minY + height`.
  public var maxY: Double { origin.y + size.height }
}

extension Size: CustomStringConvertible {
  /// A compact form, `width×height`, so test failures stay readable.
  public var description: String { "\(width)×\(height)" }
}

extension Point: CustomStringConvertible {
  /// A compact form, `(x, y)`, so test failures stay readable.
  public var description: String { "(\(x), \(y))" }
}

extension Rect: CustomStringConvertible {
  /// A compact form, `(x, y, width×height)`, so test failures stay readable.
  public var description: String { "(\(minX), \(minY), \(size))" }
}
