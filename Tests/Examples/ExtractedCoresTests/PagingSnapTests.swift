import ExtractedCores
import Testing

/// One snap, with the rule it pins down.
struct SnapCase: Sendable, CustomTestStringConvertible {
  var rule: String
  var target: Double
  var pageCount: Int
  var contentWidth: Double
  var visibleWidth: Double
  var anchor: PagingSnap.Anchor
  var expected: Double

  var testDescription: String {
    "\(rule): \(anchor) at \(target), \(pageCount) pages in \(contentWidth), viewport \(visibleWidth)"
  }

  var result: Double {
    PagingSnap.offset(
      forTarget: target, pageCount: pageCount, contentWidth: contentWidth,
      visibleWidth: visibleWidth, anchor: anchor)
  }

  /// Five pages of 320 seen through a viewport of 320: the classic full-screen pager.
  ///
  /// The last scrollable offset is 1280.
  static func phone(
    _ anchor: PagingSnap.Anchor, _ target: Double, _ expected: Double, _ rule: String
  ) -> SnapCase {
    SnapCase(
      rule: rule, target: target, pageCount: 5, contentWidth: 1600, visibleWidth: 320,
      anchor: anchor, expected: expected)
  }

  /// Four pages of 300 seen through a viewport of 500: pages narrower than the viewport, so the
  /// last scrollable offset, 700, is not a page start.
  static func carousel(
    _ anchor: PagingSnap.Anchor, _ target: Double, _ expected: Double, _ rule: String
  ) -> SnapCase {
    SnapCase(
      rule: rule, target: target, pageCount: 4, contentWidth: 1200, visibleWidth: 500,
      anchor: anchor, expected: expected)
  }
}

@Suite struct PagingSnapTests {
  // MARK: - The spec, rule by rule

  @Test(
    "Stops where the page under the chosen point starts",
    arguments: [
      SnapCase.phone(.leftEdge, 0, 0, "at rest on the first page"),
      .phone(.leftEdge, 100, 0, "left edge over page 0"),
      .phone(.leftEdge, 319, 0, "left edge just before page 1"),
      .phone(.leftEdge, 500, 320, "left edge over page 1"),
      .phone(.leftEdge, 1279, 960, "left edge over page 3, right edge 1 short of the end"),
      .phone(.center, 100, 0, "center at 260, over page 0"),
      .phone(.center, 159, 0, "center at 319, over page 0"),
      .phone(.center, 500, 640, "center at 660, over page 2"),
      .phone(.center, 1200, 1280, "center at 1360, over page 4"),
      .phone(.rightEdge, 1, 320, "right edge at 321, over page 1"),
      .phone(.rightEdge, 500, 640, "right edge at 820, over page 2"),
      .phone(.rightEdge, 1279, 1280, "right edge at 1599, over page 4"),
      .carousel(.leftEdge, 650, 600, "left edge over page 2"),
      .carousel(.center, 100, 300, "center at 350, over page 1"),
    ]
  )
  func snapsToThePageUnderTheAnchor(_ snap: SnapCase) {
    #expect(snap.result == snap.expected)
  }

  @Test(
    "Never stops past the last scrollable offset",
    arguments: [
      SnapCase.carousel(.rightEdge, 650, 700, "right edge at 1150, over page 3 (starts at 900)"),
      .carousel(.center, 650, 700, "center at 900, on page 3"),
      .carousel(.rightEdge, 450, 700, "right edge at 950, over page 3"),
      .carousel(.center, 699, 700, "center at 949, over page 3"),
      .carousel(.leftEdge, 699, 600, "left edge over page 2: no clamp needed"),
    ]
  )
  func neverPastTheLastScrollableOffset(_ snap: SnapCase) {
    #expect(snap.result == snap.expected)
  }

  @Test(
    "A target whose viewport reaches the end of the content is left alone",
    arguments: [
      SnapCase.phone(.leftEdge, 1280, 1280, "right edge exactly at the end"),
      .phone(.center, 1280, 1280, "right edge exactly at the end"),
      .phone(.rightEdge, 1280, 1280, "right edge exactly at the end"),
      .phone(.leftEdge, 1290, 1290, "pulled 10 past the end"),
      .phone(.center, 5000, 5000, "flung far past the end"),
      .carousel(.leftEdge, 700, 700, "the last scrollable offset is not a page start"),
      .carousel(.rightEdge, 700.5, 700.5, "half a point past the end"),
    ]
  )
  func leavesATargetAtTheEndAlone(_ snap: SnapCase) {
    #expect(snap.result == snap.expected)
  }

  @Test(
    "Zero pages means the start",
    arguments: [
      SnapCase(
        rule: "empty", target: 0, pageCount: 0, contentWidth: 0, visibleWidth: 320,
        anchor: .center, expected: 0),
      SnapCase(
        rule: "before the start", target: -50, pageCount: 0, contentWidth: 0, visibleWidth: 320,
        anchor: .leftEdge, expected: 0),
      SnapCase(
        rule: "past the end", target: 5000, pageCount: 0, contentWidth: 0, visibleWidth: 320,
        anchor: .rightEdge, expected: 0),
      SnapCase(
        rule: "zero pages win over a content width", target: 500, pageCount: 0,
        contentWidth: 1600, visibleWidth: 320, anchor: .leftEdge, expected: 0),
    ]
  )
  func zeroPagesMeansTheStart(_ snap: SnapCase) {
    #expect(snap.result == snap.expected)
  }

  // MARK: - Edge cases the spec leaves open

  @Test(
    "A point on a boundary is under the page that starts there, except the right edge",
    arguments: [
      SnapCase.phone(.leftEdge, 320, 320, "left edge on the start of page 1"),
      .phone(.center, 160, 320, "center on the start of page 1"),
      .phone(.rightEdge, 0, 0, "right edge on the end of page 0: the page at rest stays"),
      .phone(.rightEdge, 320, 320, "right edge on the end of page 1: the page at rest stays"),
      .carousel(.rightEdge, 100, 300, "right edge at 600, the end of page 1"),
      .carousel(.center, 350, 600, "center at 600, the start of page 2"),
      SnapCase(
        rule: "a page width that is not a whole number", target: 1000.0 / 3, pageCount: 3,
        contentWidth: 1000, visibleWidth: 250, anchor: .leftEdge, expected: 1000.0 / 3),
      SnapCase(
        rule: "a page width that is not a whole number", target: 700, pageCount: 3,
        contentWidth: 1000, visibleWidth: 250, anchor: .leftEdge, expected: 2000.0 / 3),
    ]
  )
  func boundaries(_ snap: SnapCase) {
    #expect(snap.result == snap.expected)
  }

  @Test(
    "A target pulled before the start snaps to the first page",
    arguments: [
      SnapCase.phone(.leftEdge, -80, 0, "left edge before the content"),
      .phone(.center, -80, 0, "center at 80"),
      .phone(.rightEdge, -80, 0, "right edge at 240"),
      .phone(.leftEdge, -5000, 0, "flung far before the start"),
      .phone(.rightEdge, -5000, 0, "right edge far before the content"),
      .phone(.rightEdge, -320, 0, "right edge exactly at the start of the content"),
    ]
  )
  func overscrollBeforeTheStart(_ snap: SnapCase) {
    #expect(snap.result == snap.expected)
  }

  /// Two pages of 100 in a viewport of 320: there is nothing to scroll, and the viewport reaches the
  /// end of the content at every target from -120 on.
  @Test(
    "Content narrower than the viewport: left alone when the end is reached, else the start",
    arguments: [
      SnapCase(
        rule: "at rest", target: 0, pageCount: 2, contentWidth: 200, visibleWidth: 320,
        anchor: .center, expected: 0),
      SnapCase(
        rule: "pulled left a little", target: -50, pageCount: 2, contentWidth: 200,
        visibleWidth: 320, anchor: .leftEdge, expected: -50),
      SnapCase(
        rule: "right edge exactly at the end", target: -120, pageCount: 2, contentWidth: 200,
        visibleWidth: 320, anchor: .rightEdge, expected: -120),
      SnapCase(
        rule: "right edge 1 short of the end, over page 1", target: -121, pageCount: 2,
        contentWidth: 200, visibleWidth: 320, anchor: .rightEdge, expected: 0),
      SnapCase(
        rule: "pulled far left", target: -400, pageCount: 2, contentWidth: 200, visibleWidth: 320,
        anchor: .leftEdge, expected: 0),
      SnapCase(
        rule: "pulled right", target: 40, pageCount: 2, contentWidth: 200, visibleWidth: 320,
        anchor: .rightEdge, expected: 40),
    ]
  )
  func contentNarrowerThanTheViewport(_ snap: SnapCase) {
    #expect(snap.result == snap.expected)
  }

  @Test(
    "Degenerate geometry: no content width, no viewport, one page",
    arguments: [
      SnapCase(
        rule: "no content, no viewport", target: 0, pageCount: 3, contentWidth: 0,
        visibleWidth: 0, anchor: .center, expected: 0),
      SnapCase(
        rule: "no content, pulled left", target: -10, pageCount: 3, contentWidth: 0,
        visibleWidth: 0, anchor: .rightEdge, expected: 0),
      SnapCase(
        rule: "an empty viewport", target: 150, pageCount: 4, contentWidth: 400, visibleWidth: 0,
        anchor: .leftEdge, expected: 100),
      SnapCase(
        rule: "an empty viewport", target: 150, pageCount: 4, contentWidth: 400, visibleWidth: 0,
        anchor: .rightEdge, expected: 100),
      SnapCase(
        rule: "one page, pulled left", target: -30, pageCount: 1, contentWidth: 320,
        visibleWidth: 320, anchor: .rightEdge, expected: 0),
    ]
  )
  func degenerateGeometry(_ snap: SnapCase) {
    #expect(snap.result == snap.expected)
  }

  // MARK: - Inputs out of range stop the process

  @Test func aNonFiniteTargetIsAPreconditionFailure() async {
    await #expect(processExitsWith: .failure) {
      _ = PagingSnap.offset(
        forTarget: .nan, pageCount: 5, contentWidth: 1600, visibleWidth: 320, anchor: .center)
    }
    await #expect(processExitsWith: .failure) {
      _ = PagingSnap.offset(
        forTarget: -.infinity, pageCount: 5, contentWidth: 1600, visibleWidth: 320,
        anchor: .center)
    }
  }

  @Test func aNegativePageCountIsAPreconditionFailure() async {
    await #expect(processExitsWith: .failure) {
      _ = PagingSnap.offset(
        forTarget: 0, pageCount: -1, contentWidth: 1600, visibleWidth: 320, anchor: .center)
    }
  }

  @Test func aNegativeOrNonFiniteWidthIsAPreconditionFailure() async {
    await #expect(processExitsWith: .failure) {
      _ = PagingSnap.offset(
        forTarget: 0, pageCount: 5, contentWidth: -1, visibleWidth: 320, anchor: .center)
    }
    await #expect(processExitsWith: .failure) {
      _ = PagingSnap.offset(
        forTarget: 0, pageCount: 5, contentWidth: .infinity, visibleWidth: 320, anchor: .center)
    }
    await #expect(processExitsWith: .failure) {
      _ = PagingSnap.offset(
        forTarget: 0, pageCount: 5, contentWidth: 1600, visibleWidth: -1, anchor: .center)
    }
    await #expect(processExitsWith: .failure) {
      _ = PagingSnap.offset(
        forTarget: 0, pageCount: 5, contentWidth: 1600, visibleWidth: .nan, anchor: .center)
    }
  }

  // MARK: - Properties over generated geometry

  /// Returns a random pager, in quarter points, with a target from well before the start to well
  /// past the end.
  ///
  /// Up to 12 pages; a fifth are full-width pagers (pages exactly as wide as the viewport), and a
  /// third of the targets put the anchor exactly on a page boundary.
  private static func generate(_ random: inout SeededGenerator) -> SnapCase {
    let pageCount = random.chance(0.05) ? 0 : random.int(in: 1...12)
    let anchor = random.pick(PagingSnap.Anchor.allCases)
    let visibleWidth = random.quarters(in: 0...1000)
    let contentWidth =
      random.chance(0.2)
      ? visibleWidth * Double(pageCount)
      : random.chance(0.05) ? 0 : random.quarters(in: 0...4000)
    var target = random.quarters(in: -1000...5000)
    if pageCount > 0, random.chance(0.3) {
      let boundary = contentWidth * Double(random.int(in: 0...pageCount)) / Double(pageCount)
      switch anchor {
      case .leftEdge: target = boundary
      case .center: target = boundary - visibleWidth / 2
      case .rightEdge: target = boundary - visibleWidth
      }
    }
    return SnapCase(
      rule: "generated", target: target, pageCount: pageCount, contentWidth: contentWidth,
      visibleWidth: visibleWidth, anchor: anchor, expected: .nan)
  }

  /// The rules, checked against the result with a linear scan instead of the binary search.
  @Test func everyResultFollowsTheRules() {
    forAll(5000, seed: 1, generate: Self.generate) { snap in
      let result = snap.result
      let n = snap.pageCount
      let lastScrollable = max(0, snap.contentWidth - snap.visibleWidth)
      if n == 0 {
        return result == 0 ? [] : ["zero pages must give 0, got \(result)"]
      }
      if snap.target + snap.visibleWidth >= snap.contentWidth {
        return result == snap.target ? [] : ["a target at the end must be left alone"]
      }
      var broken: [String] = []
      if !(0...lastScrollable).contains(result) {
        broken.append("\(result) is outside 0...\(lastScrollable)")
      }
      let starts = (0...n).map { snap.contentWidth * Double($0) / Double(n) }
      let point: Double
      switch snap.anchor {
      case .leftEdge: point = snap.target
      case .center: point = snap.target + snap.visibleWidth / 2
      case .rightEdge: point = snap.target + snap.visibleWidth
      }
      let page = (0..<n).last { index in
        index == 0 || (snap.anchor == .rightEdge ? starts[index] < point : starts[index] <= point)
      }!
      let expected = min(starts[page], lastScrollable)
      if result != expected {
        broken.append(
          "the point \(point) is over page \(page): expected \(expected), got \(result)")
      }
      return broken
    }
  }

  @Test func aSnappedOffsetSnapsToItselfWhenPagesAreAtLeastAsWideAsTheViewport() {
    forAll(5000, seed: 2, generate: Self.generate) { snap in
      guard snap.pageCount > 0,
        snap.visibleWidth <= snap.contentWidth / Double(snap.pageCount)
      else { return [] }
      var again = snap
      again.target = snap.result
      return again.result == again.target
        ? [] : ["\(snap.result) snapped again moved to \(again.result)"]
    }
  }

  @Test func aTargetFurtherRightNeverStopsFurtherLeftWhenTheContentFillsTheViewport() {
    forAll(5000, seed: 3, generate: Self.generate) { snap in
      guard snap.contentWidth >= snap.visibleWidth else { return [] }
      var further = snap
      further.target += 0.25 * Double(1 + Int(snap.target.magnitude) % 400)
      return further.result >= snap.result
        ? [] : ["\(snap.target) stops at \(snap.result), \(further.target) at \(further.result)"]
    }
  }

  @Test func thePropertyCheckReportsACounterexample() {
    withKnownIssue("a property that no input satisfies must fail") {
      forAll(10, seed: 4, generate: Self.generate) { _ in ["always broken"] }
    }
  }
}
