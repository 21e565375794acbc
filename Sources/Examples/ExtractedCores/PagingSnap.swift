/// Where a paging scroll view comes to rest when the user lifts their finger: a pure function
/// extracted from `scrollViewWillEndDragging(_:withVelocity:targetContentOffset:)`.
///
/// The content is split into `pageCount` pages of equal width, `contentWidth / pageCount`; page `i`
/// starts at `contentWidth × i / pageCount`. Offsets are horizontal content offsets, in points: the
/// viewport shows `offset ..< offset + visibleWidth` of the content.
public enum PagingSnap {
  /// The point of the viewport whose page the scroll view snaps to.
  public enum Anchor: Hashable, Sendable, CaseIterable {
    /// The viewport's left edge, `offset`.
    case leftEdge
    /// The viewport's center, `offset + visibleWidth / 2`.
    case center
    /// The viewport's right edge, `offset + visibleWidth`.
    case rightEdge
  }

  /// Returns the offset a paging scroll view should stop at, given where it would stop on its own.
  ///
  /// The rules, in order:
  /// 1. **No pages:** zero pages means the start, `0`.
  /// 2. **The end is reached:** a target whose viewport already reaches the end of the content,
  ///    `target + visibleWidth >= contentWidth`, is returned unchanged. This includes a right edge
  ///    exactly at the end of the content, and a target pulled past the end (the scroll view's own
  ///    bounce brings that back). When the content is no wider than the viewport, every target at or
  ///    right of `contentWidth - visibleWidth` (which is `<= 0`) reaches the end, `0` included.
  /// 3. **Otherwise** find the page under the anchor point at the target offset and stop where that
  ///    page starts, but never past the last scrollable offset,
  ///    `max(0, contentWidth - visibleWidth)`.
  ///
  /// A point left of the content (a target pulled before the start) is under the first page, so
  /// such a target snaps to `0`; a point right of the content is under the last page.
  ///
  /// A point exactly on the boundary between two pages is under the page that starts there, except
  /// for ``Anchor/rightEdge``: the viewport ends at its right edge, so the page it belongs to is the
  /// one that ends there, the last page the viewport shows. With that rule, a result always snaps to
  /// itself when pages are at least as wide as the viewport: a resting scroll view never moves.
  ///
  /// - Parameters:
  ///   - target: Where the scroll view would stop on its own; any finite value, including offsets
  ///     before the start or past the end from overscroll.
  ///   - pageCount: The number of pages, `>= 0`.
  ///   - contentWidth: The width of all pages together, finite and `>= 0`.
  ///   - visibleWidth: The width of the viewport, finite and `>= 0`.
  ///   - anchor: The point of the viewport whose page is snapped to.
  /// - Returns: The offset to stop at: `target` itself when the end is reached (rule 2), otherwise a
  ///   page start within `0 ... max(0, contentWidth - visibleWidth)`.
  /// - Precondition: `target` is finite; `pageCount >= 0`; `contentWidth` and `visibleWidth` are
  ///   finite and `>= 0`. These come from the view's geometry, so anything else is a bug in the
  ///   caller, and the function stops rather than guess.
  /// - Complexity: O(log `pageCount`).
  public static func offset(
    forTarget target: Double,
    pageCount: Int,
    contentWidth: Double,
    visibleWidth: Double,
    anchor: Anchor
  ) -> Double {
    precondition(target.isFinite, "PagingSnap: the target offset must be finite, got \(target)")
    precondition(pageCount >= 0, "PagingSnap: the page count must be >= 0, got \(pageCount)")
    precondition(
      contentWidth.isFinite && contentWidth >= 0,
      "PagingSnap: the content width must be finite and >= 0, got \(contentWidth)"
    )
    precondition(
      visibleWidth.isFinite && visibleWidth >= 0,
      "PagingSnap: the visible width must be finite and >= 0, got \(visibleWidth)"
    )

    guard pageCount > 0 else { return 0 }
    guard target + visibleWidth < contentWidth else { return target }

    let point: Double
    switch anchor {
    case .leftEdge: point = target
    case .center: point = target + visibleWidth / 2
    case .rightEdge: point = target + visibleWidth
    }
    let page = pageIndex(
      under: point, pageCount: pageCount, contentWidth: contentWidth,
      boundaryBelongsToTheLeft: anchor == .rightEdge
    )
    let lastScrollableOffset = max(0, contentWidth - visibleWidth)
    return min(
      pageStart(page, pageCount: pageCount, contentWidth: contentWidth), lastScrollableOffset)
  }

  /// Returns where page `index` starts: `contentWidth × index / pageCount`.
  ///
  /// One formula for every page start, so a snapped offset compares equal to the boundary it came
  /// from, and the last page ends exactly at `contentWidth`.
  private static func pageStart(_ index: Int, pageCount: Int, contentWidth: Double) -> Double {
    contentWidth * Double(index) / Double(pageCount)
  }

  /// Returns the index of the page under `point`, clamped to `0 ..< pageCount`.
  ///
  /// Counts the interior boundaries (the starts of pages `1 ..< pageCount`) at or left of the point,
  /// or strictly left of it when `boundaryBelongsToTheLeft`, by binary search; comparing against
  /// ``pageStart(_:pageCount:contentWidth:)`` instead of dividing keeps boundaries exact.
  ///
  /// - Complexity: O(log `pageCount`).
  private static func pageIndex(
    under point: Double, pageCount: Int, contentWidth: Double, boundaryBelongsToTheLeft: Bool
  ) -> Int {
    var low = 1  // the first boundary not yet known to be passed
    var high = pageCount  // one past the last boundary that may be passed
    while low < high {
      let middle = low + (high - low) / 2
      let boundary = pageStart(middle, pageCount: pageCount, contentWidth: contentWidth)
      let passed = boundaryBelongsToTheLeft ? boundary < point : boundary <= point
      if passed { low = middle + 1 } else { high = middle }
    }
    return low - 1
  }
}
