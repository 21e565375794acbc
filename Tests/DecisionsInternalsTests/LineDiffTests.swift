import TestSupport
import Testing

@testable import DecisionsTesting

@Suite struct LineDiffTests {
  // MARK: - Equal texts

  @Test func equalTextsHaveNoDiff() {
    #expect(lineDiff(expected: "", actual: "") == nil)
    #expect(lineDiff(expected: "a\nb\n", actual: "a\nb\n") == nil)
    #expect(lineDiff(expected: "a\nb", actual: "a\nb") == nil)
  }

  // MARK: - Hunks

  @Test func aChangedLineIsShownWithTwoLinesOfContext() {
    #expect(
      lineDiff(expected: "a\nb\nc\nd\ne\nf\n", actual: "a\nb\nc\nD\ne\nf\n") == """
        @@ -2,5 +2,5 @@
          b
          c
        − d
        + D
          e
          f
        """)
  }

  @Test func changesFarApartGetTheirOwnHunks() {
    let expected = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
    let actual = "one\n2\n3\n4\n5\n6\n7\n8\n9\nten\n"
    #expect(
      lineDiff(expected: expected, actual: actual) == """
        @@ -1,3 +1,3 @@
        − 1
        + one
          2
          3
        @@ -8,3 +8,3 @@
          8
          9
        − 10
        + ten
        """)
  }

  @Test func changesCloseTogetherShareAHunk() {
    let expected = "1\n2\n3\n4\n5\n6\n7\n"
    let actual = "1\nB\n3\n4\n5\n6\nG\n"
    #expect(
      lineDiff(expected: expected, actual: actual) == """
        @@ -1,7 +1,7 @@
          1
        − 2
        + B
          3
          4
          5
          6
        − 7
        + G
        """)
  }

  @Test func theNumberOfContextLinesCanBeChosen() {
    let expected = "a\nb\nc\nd\ne\n"
    let actual = "a\nb\nX\nd\ne\n"
    #expect(
      lineDiff(expected: expected, actual: actual, contextLines: 0) == """
        @@ -3,1 +3,1 @@
        − c
        + X
        """)
    #expect(
      lineDiff(expected: expected, actual: actual, contextLines: .max) == """
        @@ -1,5 +1,5 @@
          a
          b
        − c
        + X
          d
          e
        """)
  }

  @Test func anInsertionWithoutContextNamesTheLineBefore() {
    #expect(
      lineDiff(expected: "a\nb\n", actual: "a\nnew\nb\n", contextLines: 0) == """
        @@ -1,0 +2,1 @@
        + new
        """)
  }

  @Test func aRemovalAtTheStartIsShown() {
    #expect(
      lineDiff(expected: "gone\na\nb\nc\n", actual: "a\nb\nc\n") == """
        @@ -1,3 +1,2 @@
        − gone
          a
          b
        """)
  }

  @Test func emptyLinesHaveNoTrailingSpaces() {
    #expect(
      lineDiff(expected: "a\n\nb\n", actual: "a\n\n\nb\n") == """
        @@ -1,3 +1,4 @@
          a

        +
          b
        """)
  }

  // MARK: - Empty texts and newlines

  @Test func everyLineIsAddedToAnEmptyText() {
    #expect(
      lineDiff(expected: "", actual: "a\nb\n") == """
        @@ -0,0 +1,2 @@
        + a
        + b
        """)
  }

  @Test func everyLineIsRemovedFromATextThatBecomesEmpty() {
    #expect(
      lineDiff(expected: "a\nb\n", actual: "") == """
        @@ -1,2 +0,0 @@
        − a
        − b
        """)
  }

  @Test func aMissingFinalNewlineIsSaid() {
    #expect(
      lineDiff(expected: "a\nb\n", actual: "a\nb") == #"""
        @@ -1,2 +1,2 @@
          a
        − b
        + b
        \ No newline at end of file
        """#)
  }

  @Test func anAddedFinalNewlineIsSaid() {
    #expect(
      lineDiff(expected: "a", actual: "a\n") == #"""
        @@ -1,1 +1,1 @@
        − a
        \ No newline at end of file
        + a
        """#)
  }

  @Test func aSingleNewlineIsOneEmptyLine() {
    #expect(
      lineDiff(expected: "", actual: "\n") == """
        @@ -0,0 +1,1 @@
        +
        """)
  }

  @Test func windowsLineEndingsAreSplitAndKeptInTheLine() {
    #expect(
      lineDiff(expected: "a\r\nb\r\n", actual: "a\r\nc\r\n")
        == "@@ -1,2 +1,2 @@\n  a\r\n− b\r\n+ c\r")
  }

  // MARK: - Minimality and size

  @Test func theDiffOfRandomTextsRebuildsThemAndKeepsALongestCommonSubsequence() {
    var random = SeededRandom(seed: 42)
    for _ in 0..<300 {
      let expected = (0..<random.next(below: 12)).map { _ in "abcd".randomElement(using: &random)! }
      let actual = (0..<random.next(below: 12)).map { _ in "abcd".randomElement(using: &random)! }
      let expectedText = expected.map { "\($0)\n" }.joined()
      let actualText = actual.map { "\($0)\n" }.joined()
      guard let diff = lineDiff(expected: expectedText, actual: actualText, contextLines: .max)
      else {
        #expect(expected == actual)
        continue
      }
      let sides = Sides(of: diff)
      #expect(sides.expected == expected.map(String.init), "\(expectedText) → \(actualText)")
      #expect(sides.actual == actual.map(String.init), "\(expectedText) → \(actualText)")
      #expect(sides.kept == longestCommonSubsequence(expected, actual), "\(diff)")
    }
  }

  @Test func aLargeTextWithAFewChangesGivesSmallHunks() {
    let lines = (1...5_000).map { "line \($0)" }
    var changed = lines
    changed[9] = "changed 10"
    changed.remove(at: 2_499)
    changed.insert("new", at: 4_989)
    let expected = lines.joined(separator: "\n") + "\n"
    let actual = changed.joined(separator: "\n") + "\n"
    #expect(
      lineDiff(expected: expected, actual: actual) == """
        @@ -8,5 +8,5 @@
          line 8
          line 9
        − line 10
        + changed 10
          line 11
          line 12
        @@ -2498,5 +2498,4 @@
          line 2498
          line 2499
        − line 2500
          line 2501
          line 2502
        @@ -4989,4 +4988,5 @@
          line 4989
          line 4990
        + new
          line 4991
          line 4992
        """)
  }

  @Test func largeTextsWithManyChangesAreDiffedMinimally() {
    let expected = (1...3_000).map { "line \($0)" }
    let actual = expected.map { $0.hasSuffix("7") ? "changed" : $0 }
    let diff = lineDiff(
      expected: expected.joined(separator: "\n"), actual: actual.joined(separator: "\n"),
      contextLines: .max)

    let sides = Sides(of: diff ?? "")
    #expect(sides.expected == expected)
    #expect(sides.actual == actual)
    #expect(sides.kept == 2_700)
  }

  @Test func textsThatDifferTooMuchShowTheirMiddleRemovedThenAdded() {
    let expected = (1...3_000).map { "a \($0)" }
    let actual = (1...3_000).map { $0.isMultiple(of: 3) ? "a \($0)" : "b \($0)" }
    let diff = lineDiff(
      expected: expected.joined(separator: "\n"), actual: actual.joined(separator: "\n"))

    let lines = diff?.split(separator: "\n").map(String.init) ?? []
    #expect(lines.first == "@@ -1,3000 +1,3000 @@")
    #expect(lines.dropFirst().prefix(2_999) == ArraySlice(expected.prefix(2_999).map { "− \($0)" }))
    #expect(
      lines.dropFirst(3_000).prefix(2_999) == ArraySlice(actual.prefix(2_999).map { "+ \($0)" }))
    #expect(lines.suffix(2) == ["  a 3000", #"\ No newline at end of file"#])
  }
}

// MARK: - Helpers

/// The lines of the two texts read back from a diff with full context, and how many were kept.
private struct Sides {
  var expected: [String] = []
  var actual: [String] = []
  var kept = 0

  init(of diff: String) {
    for line in diff.split(separator: "\n", omittingEmptySubsequences: false) {
      let text = String(line.dropFirst(2))
      if line.hasPrefix("@@") || line.hasPrefix(#"\ "#) {
        continue
      } else if line.hasPrefix("−") {
        expected.append(text)
      } else if line.hasPrefix("+") {
        actual.append(text)
      } else {
        expected.append(text)
        actual.append(text)
        kept += 1
      }
    }
  }
}

/// Returns the length of a longest common subsequence of `a` and `b`, by dynamic programming.
private func longestCommonSubsequence<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
  var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
  for i in a.indices {
    for j in b.indices {
      lengths[i + 1][j + 1] =
        a[i] == b[j] ? lengths[i][j] + 1 : max(lengths[i][j + 1], lengths[i + 1][j])
    }
  }
  return lengths[a.count][b.count]
}
