/// A left-to-right, top-to-bottom flow of items, like words in a paragraph: a pure function
/// extracted from a view's layout pass (`layoutSubviews`, or a SwiftUI `Layout`).
///
/// Items go on the current line until the next one would overflow the container; then a new line
/// starts below the tallest item of the line, plus the vertical spacing. Within a line, items are
/// top-aligned. Coordinates start at the container's top-left corner, `(0, 0)`.
public enum FlowLayout {
  /// The gaps between items on a line and between lines.
  public struct Spacing: Hashable, Sendable {
    /// The gap between neighbouring items on a line.
    public var horizontal: Double
    /// The gap between the bottom of a line and the top of the next.
    public var vertical: Double

    /// No gaps at all.
    public static let zero = Spacing(0)

    /// Creates spacing with separate horizontal and vertical gaps.
    public init(horizontal: Double, vertical: Double) {
      self.horizontal = horizontal
      self.vertical = vertical
    }

    /// Creates spacing with the same gap in both directions.
    public init(_ both: Double) {
      self.init(horizontal: both, vertical: both)
    }
  }

  /// The result of a layout: where each item goes, and how much room they take together.
  public struct Arrangement: Hashable, Sendable {
    /// The frame of each item, in the order of the sizes given.
    public var frames: [Rect]
    /// The indices of the items on each line, top to bottom.
    public var lines: [Range<Int>]
    /// The size of the content: the right edge of the widest line by the bottom of the last line;
    /// ``Size/zero`` when there are no items.
    public var contentSize: Size

    /// Creates an arrangement.
    public init(frames: [Rect], lines: [Range<Int>], contentSize: Size) {
      self.frames = frames
      self.lines = lines
      self.contentSize = contentSize
    }
  }

  /// Returns the frames of a flow of items, each line left-aligned.
  ///
  /// An item goes on the current line when it fits: when its right edge, after the horizontal
  /// spacing, is at most `containerWidth`. Otherwise it starts a new line. An item wider than the
  /// container gets a line of its own, at `x = 0`, and keeps its size: it overflows the container
  /// rather than being shrunk or clipped, which is the view's business. Each item keeps its size,
  /// and items are top-aligned on their line, whose height is that of its tallest item.
  ///
  /// Each item's frame depends only on the items before it, so a shell could also place items one
  /// at a time as they arrive. For lines that fill the width, see
  /// ``justified(_:containerWidth:spacing:)``.
  ///
  /// - Parameters:
  ///   - sizes: The size of each item, in order; each width and height finite and `>= 0`.
  ///   - containerWidth: The width available, `>= 0`; `.infinity` puts every item on one line,
  ///     which is what a SwiftUI `Layout` can pass when the proposed width is unspecified (`nil`).
  ///   - spacing: The gaps between items and between lines, finite and `>= 0`.
  /// - Returns: One frame per item, the lines, and the content size. No items, no frames, no lines,
  ///   and a content size of ``Size/zero``.
  /// - Precondition: every input is `>= 0`, and every input but `containerWidth` is finite;
  ///   `containerWidth` is not NaN.
  /// - Complexity: O(*n*), where *n* is the number of items.
  public static func leftAligned(
    _ sizes: [Size], containerWidth: Double, spacing: Spacing = .zero
  ) -> Arrangement {
    checkInputs(sizes, containerWidth: containerWidth, spacing: spacing)

    var frames: [Rect] = []
    frames.reserveCapacity(sizes.count)
    var lines: [Range<Int>] = []
    var lineStart = 0  // the index of the first item on the current line
    var lineTop = 0.0
    var lineHeight = 0.0
    var lineEnd = 0.0  // the right edge of the current line's last item
    var contentWidth = 0.0

    for (index, size) in sizes.enumerated() {
      if index > lineStart {
        let x = lineEnd + spacing.horizontal
        if x + size.width <= containerWidth {
          frames.append(Rect(origin: Point(x: x, y: lineTop), size: size))
          lineEnd = x + size.width
          lineHeight = max(lineHeight, size.height)
          contentWidth = max(contentWidth, lineEnd)
          continue
        }
        lines.append(lineStart..<index)
        lineStart = index
        lineTop += lineHeight + spacing.vertical
      }
      // The first item of a line goes at x = 0, even when it is wider than the container.
      frames.append(Rect(origin: Point(x: 0, y: lineTop), size: size))
      lineEnd = size.width
      lineHeight = size.height
      contentWidth = max(contentWidth, lineEnd)
    }
    guard !sizes.isEmpty else { return Arrangement(frames: [], lines: [], contentSize: .zero) }
    lines.append(lineStart..<sizes.count)
    return Arrangement(
      frames: frames, lines: lines,
      contentSize: Size(width: contentWidth, height: lineTop + lineHeight)
    )
  }

  /// Returns the frames of a justified flow: each line but the last fills the container's width.
  ///
  /// Items are split into lines exactly as ``leftAligned(_:containerWidth:spacing:)`` splits them,
  /// at the same heights. Then the width each line leaves free is shared out equally as extra
  /// spacing between its items, so its last item ends at the container's right edge (up to
  /// floating-point rounding). Two kinds of line stay left-aligned:
  /// - **The last line**, like the last line of a justified paragraph: stretching a short last line
  ///   across the whole width spreads its items far apart.
  /// - **A line of one item**, which has no gap to widen (an item wider than the container is always
  ///   alone on its line).
  ///
  /// Unlike the left-aligned flow, a line can only be placed once its last item is known, so this
  /// variant needs all the sizes up front.
  ///
  /// - Parameters:
  ///   - sizes: The size of each item, in order; each width and height finite and `>= 0`.
  ///   - containerWidth: The width available, `>= 0`; with `.infinity` every item is on one line,
  ///     the last, which stays left-aligned.
  ///   - spacing: The minimum gaps between items and the gaps between lines, finite and `>= 0`.
  /// - Returns: One frame per item, the same lines as the left-aligned flow, and the content size:
  ///   at least the container's width when a line was justified, and the left-aligned height.
  /// - Precondition: the same as ``leftAligned(_:containerWidth:spacing:)``'s.
  /// - Complexity: O(*n*), where *n* is the number of items.
  public static func justified(
    _ sizes: [Size], containerWidth: Double, spacing: Spacing = .zero
  ) -> Arrangement {
    var arrangement = leftAligned(sizes, containerWidth: containerWidth, spacing: spacing)
    for line in arrangement.lines.dropLast() where line.count > 1 {
      let used = arrangement.frames[line.upperBound - 1].maxX
      let extra = (containerWidth - used) / Double(line.count - 1)
      for (gaps, index) in line.enumerated() {
        arrangement.frames[index].origin.x += extra * Double(gaps)
      }
      arrangement.contentSize.width = max(arrangement.contentSize.width, containerWidth)
    }
    return arrangement
  }

  /// Stops with a clear message when an input is out of range.
  private static func checkInputs(_ sizes: [Size], containerWidth: Double, spacing: Spacing) {
    precondition(
      containerWidth >= 0,  // false for NaN
      "FlowLayout: the container width must be >= 0, got \(containerWidth)"
    )
    precondition(
      isFiniteAndNotNegative(spacing.horizontal) && isFiniteAndNotNegative(spacing.vertical),
      "FlowLayout: the spacing must be finite and >= 0, got \(spacing)"
    )
    for (index, size) in sizes.enumerated() {
      precondition(
        isFiniteAndNotNegative(size.width) && isFiniteAndNotNegative(size.height),
        "FlowLayout: every size must be finite and >= 0, got \(size) for item \(index)"
      )
    }
  }

  private static func isFiniteAndNotNegative(_ value: Double) -> Bool {
    value.isFinite && value >= 0
  }
}
