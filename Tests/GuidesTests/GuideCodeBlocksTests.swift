// Keeps the guides in Docs/ honest: every ```swift block of a guide must stand, line for line, in
// code that this package compiles, unless the block says why it cannot be.
//
// - A block is compared with the Swift files listed for its guide (paths from the package root):
//   its trimmed, non-empty lines must appear in those files in the same order, as a subsequence, so
//   tests may wrap the guide's code in more lines and indentation.
// - `import` lines are skipped (a guide's code spans modules; these files are one), and so are lines
//   that are only `// …`, which a guide uses to elide code shown elsewhere.
// - A block preceded by `<!-- not compiled: reason -->` is skipped: SwiftUI and UIKit code, which
//   does not build on Linux, the package manifest, and other libraries' code in Comparison.md.

import Foundation
import Testing

@Suite struct GuideCodeBlocksTests {
  /// Each guide and the files its Swift blocks are compiled in.
  static let guides: [String: [String]] = [
    "Docs/GettingStarted.md": [
      "Tests/GuidesTests/GettingStarted.swift",
      "Tests/GuidesTests/GettingStartedTests.swift",
    ],
    "Docs/Deps.md": [
      "Tests/GuidesTests/DepsGuide.swift",
      "Tests/GuidesTests/DepsGuideTests.swift",
      "Tests/GuidesTests/CompositionGuide.swift",
      "Sources/Examples/FactFeature/FactFeature+Executor.swift",
      "Sources/Examples/FactFeature/FactSource.swift",
      "Sources/Examples/FactsDemo/main.swift",
      "Sources/Examples/RemoteContent/ContentScreen.swift",
      "Sources/Examples/RemoteContent/Coordinator.swift",
    ],
    "Docs/Composition.md": [
      "Tests/GuidesTests/CompositionGuide.swift",
      "Tests/GuidesTests/CompositionGuideTests.swift",
    ],
    "Docs/Observation.md": [
      "Tests/GuidesTests/ObservationGuideTests.swift"
    ],
    "Docs/Diagnostics.md": [
      "Tests/GuidesTests/DiagnosticsGuide.swift",
      "Tests/GuidesTests/DiagnosticsGuideTests.swift",
    ],
    "Docs/Comparison.md": [
      "Tests/GuidesTests/ComparisonGuide.swift"
    ],
  ]

  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  @Test(arguments: guides.keys.sorted())
  func everySwiftBlockIsCompiled(guide: String) throws {
    let markdown = try String(contentsOf: Self.root.appendingPathComponent(guide), encoding: .utf8)
    var compiled: [String] = []
    for file in Self.guides[guide] ?? [] {
      let text = try String(contentsOf: Self.root.appendingPathComponent(file), encoding: .utf8)
      compiled += text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    let blocks = swiftBlocks(in: markdown)
    #expect(!blocks.isEmpty, "\(guide) has no Swift blocks")
    for block in blocks where block.skipReason == nil {
      var remaining = compiled[...]
      for line in block.lines where !Self.isSkipped(line) {
        guard let index = remaining.firstIndex(of: line) else {
          Issue.record(
            """
            \(guide):\(block.line): this line of the block is not in the compiled code (in order): \
            \(line)
            Compiled in: \((Self.guides[guide] ?? []).joined(separator: ", "))
            """)
          break
        }
        remaining = remaining[(index + 1)...]
      }
    }
    for block in blocks {
      if let reason = block.skipReason, reason.isEmpty {
        Issue.record("\(guide):\(block.line): a block that is not compiled must say why")
      }
    }
  }

  @Test func onlyBlocksMarkedNotCompiledAreSkipped() {
    let markdown = """
      Text.

      ```swift
      let a = 1
      ```

      <!-- not compiled: SwiftUI is not available on Linux -->
      ```swift
      Text("hi")
      ```

      ```sh
      swift test
      ```
      """
    let blocks = swiftBlocks(in: markdown)
    #expect(blocks.map(\.line) == [3, 8])
    #expect(blocks.map(\.lines) == [["let a = 1"], ["Text(\"hi\")"]])
    #expect(blocks.map(\.skipReason) == [nil, "SwiftUI is not available on Linux"])
  }

  /// Whether a block's line is left out of the comparison.
  static func isSkipped(_ line: String) -> Bool {
    line.isEmpty || line.hasPrefix("import ") || line.hasPrefix("@testable import ")
      || line == "// …"
  }
}

/// A fenced Swift block of a markdown file.
struct SwiftBlock {
  /// The line of the opening fence, counting from 1.
  var line: Int
  /// The block's lines, trimmed.
  var lines: [String]
  /// Why the block is not compiled, when an HTML comment before it says so.
  var skipReason: String?
}

/// Returns the ```swift blocks of a markdown text, with the reason given for skipping each one.
func swiftBlocks(in markdown: String) -> [SwiftBlock] {
  let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
    .map { $0.trimmingCharacters(in: .whitespaces) }
  var blocks: [SwiftBlock] = []
  var index = 0
  while index < lines.count {
    guard lines[index] == "```swift" else {
      index += 1
      continue
    }
    let previous = lines[..<index].last { !$0.isEmpty } ?? ""
    var reason: String?
    let marker = "<!-- not compiled:"
    if previous.hasPrefix(marker) && previous.hasSuffix("-->") {
      reason = String(previous.dropFirst(marker.count).dropLast(3))
        .trimmingCharacters(in: .whitespaces)
    }
    var body: [String] = []
    var end = index + 1
    while end < lines.count && lines[end] != "```" {
      body.append(lines[end])
      end += 1
    }
    blocks.append(SwiftBlock(line: index + 1, lines: body, skipReason: reason))
    index = end + 1
  }
  return blocks
}
