// A line diff of two texts, in the unified format, for comparing snapshot files.
//
//     @@ -2,3 +2,3 @@
//       b
//     − c
//     + C
//       d
//
// Context lines start with two spaces, expected lines with `− ` and actual lines with `+ `. A line
// that is the last of its text and has no newline after it is followed by
// `\ No newline at end of file`, as in `git diff`.
//
// NB: the minus marker is U+2212 MINUS SIGN, as in ValueDiff.swift. It is as wide as `+` in most
// fonts and cannot be mistaken for a `-` that starts the line itself, as in a Markdown list.

/// Returns a unified-style diff of two texts, or nil when they are equal.
func lineDiff(expected: String, actual: String, contextLines: Int = 2) -> String? {
  guard expected != actual else { return nil }
  let old = lines(of: expected)
  let new = lines(of: actual)
  let edits = editScript(from: old, to: new)
  // NB: clamped so that `index + 1 + context` below cannot overflow for `Int.max`.
  let context = min(max(0, contextLines), edits.count)

  // Cut the script into hunks: runs of changes with up to `context` unchanged lines around them.
  // Changes with at most twice that many unchanged lines between them share a hunk.
  var hunks: [Range<Int>] = []
  for (index, edit) in edits.enumerated() where edit.kind != .kept {
    let start = max(0, index - context)
    let end = min(edits.count, index + 1 + context)
    if let last = hunks.last, last.upperBound >= start {
      hunks[hunks.count - 1] = last.lowerBound..<end
    } else {
      hunks.append(start..<end)
    }
  }
  guard !hunks.isEmpty else { return nil }

  var output: [String] = []
  for hunk in hunks {
    let hunkEdits = edits[hunk]
    let oldCount = hunkEdits.count { $0.kind != .added }
    let newCount = hunkEdits.count { $0.kind != .removed }
    // NB: an empty side names the line before the hunk, so `@@ -0,0 +1,2 @@` adds to an empty text.
    let oldStart = edits[hunk.lowerBound].oldIndex + (oldCount == 0 ? 0 : 1)
    let newStart = edits[hunk.lowerBound].newIndex + (newCount == 0 ? 0 : 1)
    output.append("@@ -\(oldStart),\(oldCount) +\(newStart),\(newCount) @@")
    for edit in hunkEdits {
      let line: Line
      let marker: String
      switch edit.kind {
      case .kept: (line, marker) = (new[edit.newIndex], " ")
      case .removed: (line, marker) = (old[edit.oldIndex], removedMarker)
      case .added: (line, marker) = (new[edit.newIndex], "+")
      }
      // NB: an empty line gets no space after its marker, so the output has no trailing spaces.
      output.append(line.text.isEmpty ? marker.filter { $0 != " " } : "\(marker) \(line.text)")
      if line.lacksNewline { output.append("\\ No newline at end of file") }
    }
  }
  return output.joined(separator: "\n")
}

// MARK: - Lines

/// The marker of expected lines: U+2212 MINUS SIGN (see the top of this file).
private let removedMarker = "\u{2212}"

/// The most removed plus added lines for which a shortest edit script is searched.
///
/// Past this, the differing middle of the texts is shown removed and then added whole.
///
/// NB: the search keeps a history that grows with the square of the number of edits, so without
/// this limit two unrelated texts of a few thousand lines would take hundreds of megabytes.
private let maximumEdits = 1_000

/// One line of a text, without its newline.
private struct Line: Hashable {
  var text: Substring
  /// Whether this is the last line and the text does not end with a newline.
  var lacksNewline: Bool
}

/// Returns the lines of `text`; an empty text has no lines.
private func lines(of text: String) -> [Line] {
  guard !text.isEmpty else { return [] }
  // NB: split at U+000A in the unicode scalars: as a `Character`, "\r\n" is not equal to "\n".
  var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
    .map { Line(text: Substring($0), lacksNewline: false) }
  if lines.last?.text.isEmpty == true {
    lines.removeLast()
  } else {
    lines[lines.count - 1].lacksNewline = true
  }
  return lines
}

// MARK: - Edit script

/// One step of turning the expected lines into the actual ones.
private struct Edit {
  enum Kind {
    case kept
    case removed
    case added
  }

  var kind: Kind
  /// The index of the expected line, or for an added line the number of expected lines before it.
  var oldIndex: Int
  /// The index of the actual line, or for a removed line the number of actual lines before it.
  var newIndex: Int
}

/// Returns a shortest script of edits turning `old` into `new`, with every kept line too.
///
/// The lines both texts start and end with are kept; the middle is diffed with Myers' algorithm.
private func editScript(from old: [Line], to new: [Line]) -> [Edit] {
  let prefix = zip(old, new).prefix { $0 == $1 }.count
  let suffix = zip(old.reversed(), new.reversed()).prefix(min(old.count, new.count) - prefix)
    .prefix { $0 == $1 }.count
  let oldMiddle = prefix..<(old.count - suffix)
  let newMiddle = prefix..<(new.count - suffix)

  // Number the distinct lines so the search compares integers rather than strings.
  var numbers: [Line: Int] = [:]
  let oldNumbers = old[oldMiddle].map { line in
    if let number = numbers[line] { return number }
    numbers[line] = numbers.count
    return numbers.count - 1
  }
  let newNumbers = new[newMiddle].map { numbers[$0] ?? -1 }

  let middle =
    shortestEditScript(oldNumbers, newNumbers)
    ?? [Edit.Kind](repeating: .removed, count: oldMiddle.count)
    + [Edit.Kind](repeating: .added, count: newMiddle.count)

  var edits: [Edit] = []
  var oldIndex = 0
  var newIndex = 0
  let kept = { (count: Int) in [Edit.Kind](repeating: .kept, count: count) }
  for kind in kept(prefix) + middle + kept(suffix) {
    edits.append(Edit(kind: kind, oldIndex: oldIndex, newIndex: newIndex))
    if kind != .added { oldIndex += 1 }
    if kind != .removed { newIndex += 1 }
  }
  return edits
}

/// Returns a shortest edit script from `old` to `new` by Myers' algorithm, or nil when it needs
/// more than `maximumEdits` edits.
private func shortestEditScript(_ old: [Int], _ new: [Int]) -> [Edit.Kind]? {
  let limit = min(old.count + new.count, maximumEdits)
  // `furthest[offset + k]` is the furthest `x` (index into `old`) reached on diagonal `k = x - y`.
  let offset = limit + 1
  var furthest = Array(repeating: 0, count: 2 * limit + 3)
  // `history[d]` holds `furthest[offset - d...offset + d]` as it was before step `d`.
  var history: [[Int]] = []

  for step in 0...limit {
    history.append(Array(furthest[(offset - step)...(offset + step)]))
    for diagonal in stride(from: -step, through: step, by: 2) {
      var x =
        if diagonal == -step
          || (diagonal != step && furthest[offset + diagonal - 1] < furthest[offset + diagonal + 1])
        {
          furthest[offset + diagonal + 1]  // Down from the diagonal above: add a line.
        } else {
          furthest[offset + diagonal - 1] + 1  // Right from the diagonal below: remove a line.
        }
      var y = x - diagonal
      while x < old.count, y < new.count, old[x] == new[y] {
        x += 1
        y += 1
      }
      furthest[offset + diagonal] = x
      if x >= old.count, y >= new.count {
        return backtrack(history, to: (x, y))
      }
    }
  }
  return nil
}

/// Returns the edit script ending at `end`, walking back through the `history` of the search.
private func backtrack(_ history: [[Int]], to end: (x: Int, y: Int)) -> [Edit.Kind] {
  var kinds: [Edit.Kind] = []
  var (x, y) = end
  for step in stride(from: history.count - 1, to: 0, by: -1) {
    let furthest = { (diagonal: Int) in history[step][diagonal + step] }
    let diagonal = x - y
    let previousDiagonal =
      diagonal == -step || (diagonal != step && furthest(diagonal - 1) < furthest(diagonal + 1))
      ? diagonal + 1 : diagonal - 1
    let previousX = furthest(previousDiagonal)
    let previousY = previousX - previousDiagonal
    while x > previousX, y > previousY {
      kinds.append(.kept)
      x -= 1
      y -= 1
    }
    kinds.append(previousDiagonal == diagonal + 1 ? .added : .removed)
    (x, y) = (previousX, previousY)
  }
  kinds += Array(repeating: .kept, count: x)
  return kinds.reversed()
}
