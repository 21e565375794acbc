// Keeps README.md and the guides in Docs/ true: every ```swift block stands, line for line, in code
// that this package compiles, unless the block says why it cannot be; and every relative link leads
// to a file that exists (and to a heading that exists, for a link to a guide's section); and every
// test named as `SuiteTests.testName` (as Docs/Architecture.md does for the guarantees) exists.
//
// - The documents are found by listing: README.md and every Docs/*.md. A document with Swift blocks
//   must be mapped, in `compiledIn`, to the Swift files (or folders of them) that hold its code.
// - A block's trimmed, non-empty lines must appear in those files in the same order, as a
//   subsequence, so tests may wrap the guide's code in more lines and indentation. `import` lines
//   are skipped (a guide's code spans modules; these files are one), and so are lines that are only
//   `// …`, which a guide uses to elide code shown elsewhere.
// - A block preceded by `<!-- not compiled: reason -->`, with a reason, is skipped: UIKit code,
//   package manifests, and other libraries' code. SwiftUI code is compiled in the SwiftUI stand-in
//   fixture (Tests/Fixtures/SwiftUIStandIn), whose files are mapped here like any other.

import Foundation
import Testing

@Suite struct GuideCodeBlocksTests {
  /// Each document with Swift blocks, and the Swift files or folders its blocks are compiled in.
  ///
  /// Paths are from the package root. Any file of the package will do; the guide's own code goes in
  /// `Tests/GuidesTests/<Guide>.swift`.
  static let compiledIn: [String: [String]] = [
    "README.md": ["Tests/GuidesTests/ReadmeQuickStart.swift"],
    "Docs/GettingStarted.md": [
      "Tests/GuidesTests/GettingStarted.swift",
      "Tests/GuidesTests/GettingStartedTests.swift",
    ],
    "Docs/Testing.md": ["Tests/DecisionsTestingTests/TestingGuideExamples.swift"],
    "Docs/Deps.md": [
      "Tests/GuidesTests/DepsGuide.swift",
      "Tests/GuidesTests/Thermometer.swift",
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
      "Tests/GuidesTests/ObservationGuideTests.swift",
      "Tests/Fixtures/SwiftUIStandIn/Sources/GuideViews/ObservationViews.swift",
    ],
    "Docs/Diagnostics.md": [
      "Tests/GuidesTests/DiagnosticsGuide.swift",
      "Tests/GuidesTests/DiagnosticsGuideTests.swift",
    ],
    "Docs/FromMVVM.md": [
      "Tests/GuidesTests/FromMVVMGuide.swift",
      "Sources/Examples/FactFeature",
      "Tests/Examples/FactFeatureTests",
    ],
    "Docs/RemoteContent.md": [
      "Tests/GuidesTests/RemoteContentGuide.swift",
      "Sources/Examples/RemoteContent",
    ],
    "Docs/ExtractingCores.md": [
      "Sources/Examples/ExtractedCores",
      "Tests/Examples/ExtractedCoresTests",
    ],
    "Docs/Comparison.md": ["Tests/GuidesTests/ComparisonGuide.swift"],
    "Docs/Time.md": [
      "Tests/GuidesTests/TimeGuide.swift",
      "Tests/GuidesTests/TimeGuideTests.swift",
    ],
    "Docs/Persistence.md": [
      "Tests/GuidesTests/PersistenceGuide.swift",
      "Tests/GuidesTests/PersistenceGuideTests.swift",
    ],
    "Docs/Exploring.md": [
      "Tests/Examples/FactFeatureTests/FactExplorationTests.swift",
      "Tests/Examples/RemoteContentTests/ExplorationTests.swift",
      "Tests/DecisionsTestingTests/ExploreTests.swift",
      "Tests/DecisionsTestingTests/ExploreEffects",
      "Tests/Examples/SyncUpsTests/RecordMeetingEffectsTests.swift",
    ],
    "Docs/Navigation.md": [
      "Tests/GuidesTests/NavigationGuide.swift",
      "Tests/Fixtures/SwiftUIStandIn/Sources/GuideViews/NavigationViews.swift",
      "Tests/GuidesTests/NavigationGuideTests.swift",
      "Sources/Examples/SyncUps",
      "Tests/Examples/SyncUpsTests",
    ],
    "Docs/Recording.md": [
      "Tests/DecisionsTestingTests/Support/Keypad.swift",
      "Tests/DecisionsTestingTests/RecordingGuideExamples.swift",
      "Tests/GuidesTests/RecordingStory.swift",
      "Tests/GuidesTests/RecordingStoryTests.swift",
    ],
  ]

  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// README.md and every guide in Docs/, as paths from the package root.
  static func documents() -> [String] {
    let docs = (try? FileManager.default.contentsOfDirectory(atPath: path("Docs"))) ?? []
    return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/\($0)" }
  }

  @Test func theDocumentsAreFound() {
    let documents = Self.documents()
    #expect(documents.contains("Docs/GettingStarted.md"))
    #expect(documents.contains("Docs/Testing.md"))
    for document in Self.compiledIn.keys.sorted() {
      #expect(documents.contains(document), "compiledIn maps \(document), which does not exist")
    }
  }

  @Test(arguments: documents())
  func everySwiftBlockIsCompiled(document: String) throws {
    let markdown = try String(contentsOfFile: Self.path(document), encoding: .utf8)
    var compiled: [String] = []
    for file in try Self.swiftFiles(Self.compiledIn[document] ?? []) {
      compiled += try String(contentsOfFile: Self.path(file), encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.trimmingCharacters(in: .whitespaces) }
    }
    for problem in codeBlockProblems(
      document: document, markdown: markdown, compiledIn: Self.compiledIn[document],
      compiledLines: compiled)
    {
      Issue.record(Comment(rawValue: problem))
    }
  }

  @Test(arguments: documents())
  func everyRelativeLinkResolves(document: String) throws {
    let markdown = try String(contentsOfFile: Self.path(document), encoding: .utf8)
    let folder = (document as NSString).deletingLastPathComponent
    for link in relativeLinks(in: markdown) {
      let (file, anchor) = link.target.splitAnchor()
      let target =
        file.isEmpty
        ? document
        : ((folder as NSString).appendingPathComponent(file) as NSString)
          .standardizingPath
      guard FileManager.default.fileExists(atPath: Self.path(target)) else {
        Issue.record("\(document):\(link.line): the link \(link.target) leads to no file")
        continue
      }
      if let anchor, target.hasSuffix(".md") {
        let text = try String(contentsOfFile: Self.path(target), encoding: .utf8)
        if !headingAnchors(in: text).contains(anchor) {
          Issue.record("\(document):\(link.line): \(target) has no heading for #\(anchor)")
        }
      }
    }
  }

  @Test(arguments: documents())
  func everyMermaidDiagramIsItsCheckedInSnapshot(document: String) throws {
    let markdown = try String(contentsOfFile: Self.path(document), encoding: .utf8)
    let folder = (document as NSString).deletingLastPathComponent
    for block in mermaidBlocks(in: markdown) {
      guard let snapshot = block.snapshot else {
        Issue.record(
          "\(document):\(block.line): a Mermaid block needs a link to its .mmd snapshot before it")
        continue
      }
      let file = ((folder as NSString).appendingPathComponent(snapshot) as NSString)
        .standardizingPath
      let recorded = try String(contentsOfFile: Self.path(file), encoding: .utf8)
      if recorded.trimmingCharacters(in: .whitespacesAndNewlines) != block.text {
        Issue.record(
          "\(document):\(block.line): the diagram differs from \(file); copy the snapshot again")
      }
    }
  }

  @Test(arguments: documents())
  func everyTestNamedExists(document: String) throws {
    let markdown = try String(contentsOfFile: Self.path(document), encoding: .utf8)
    let names = testNames(in: markdown)
    guard !names.isEmpty else { return }
    let sources = try Self.swiftFiles(["Tests"]).map {
      try String(contentsOfFile: Self.path($0), encoding: .utf8)
    }
    for name in names {
      let found = sources.contains {
        $0.contains("struct \(name.suite) ") && $0.contains("func \(name.test)(")
      }
      #expect(found, "\(document) names \(name.suite).\(name.test), which no test file declares")
    }
  }

  @Test func bothIndexesLinkEveryGuide() throws {
    let readme = try String(contentsOfFile: Self.path("README.md"), encoding: .utf8)
    let index = try String(contentsOfFile: Self.path("Docs/README.md"), encoding: .utf8)
    let readmeTargets = Set(relativeLinks(in: readme).map { $0.target.splitAnchor().file })
    let indexTargets = Set(relativeLinks(in: index).map { $0.target.splitAnchor().file })
    for guide in Self.documents() where guide.hasPrefix("Docs/") && guide != "Docs/README.md" {
      let name = (guide as NSString).lastPathComponent
      #expect(readmeTargets.contains(guide), "README.md does not link \(guide)")
      #expect(indexTargets.contains(name), "Docs/README.md does not link \(name)")
    }
  }

  /// The absolute path of a path from the package root.
  static func path(_ relative: String) -> String {
    root.appendingPathComponent(relative).path
  }

  /// The Swift files of a list of files and folders, each folder's files sorted by path.
  static func swiftFiles(_ entries: [String]) throws -> [String] {
    try entries.flatMap { entry -> [String] in
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path(entry), isDirectory: &isFolder) else {
        throw MissingFile(path: entry)
      }
      guard isFolder.boolValue else { return [entry] }
      let all = FileManager.default.subpaths(atPath: path(entry)) ?? []
      return all.filter { $0.hasSuffix(".swift") }.sorted().map { "\(entry)/\($0)" }
    }
  }

  /// A file named in `compiledIn` that does not exist.
  struct MissingFile: Error, CustomStringConvertible {
    var path: String
    var description: String { "compiledIn names \(path), which does not exist" }
  }

  // MARK: - The checker's own tests, on small fixtures

  static let fixture = """
    Text.

    ```swift
    let a = 1
    print(a)
    ```

    <!-- not compiled: SwiftUI is not available on Linux -->
    ```swift
    Text("hi")
    ```

    ```sh
    swift test
    ```
    """

  @Test func blocksAndTheirReasonsAreFound() {
    let blocks = swiftBlocks(in: Self.fixture)
    #expect(blocks.map(\.line) == [3, 9])
    #expect(blocks.map(\.lines) == [["let a = 1", "print(a)"], ["Text(\"hi\")"]])
    #expect(blocks.map(\.skipReason) == [nil, "SwiftUI is not available on Linux"])
  }

  @Test func aBlockInTheCompiledCodePasses() {
    let compiled = ["func f() {", "let a = 1", "// more", "print(a)", "}"]
    #expect(
      codeBlockProblems(
        document: "Docs/F.md", markdown: Self.fixture, compiledIn: ["F.swift"],
        compiledLines: compiled
      ).isEmpty)
  }

  @Test func aBlockThatDriftedFails() {
    let problems = codeBlockProblems(
      document: "Docs/F.md", markdown: Self.fixture, compiledIn: ["F.swift"],
      compiledLines: ["print(a)", "let a = 1"])
    #expect(
      problems == [
        """
        Docs/F.md:3: this line of the block is not in the compiled code (in order): print(a)
        Compiled in: F.swift
        """
      ])
  }

  @Test func aDocumentWithBlocksButNoCompiledFilesFails() {
    let problems = codeBlockProblems(
      document: "Docs/F.md", markdown: Self.fixture, compiledIn: nil, compiledLines: [])
    #expect(problems.count == 1)
    #expect(problems.first?.contains("Docs/F.md has 1 Swift block to compile") == true)
    #expect(problems.first?.contains("\"Docs/F.md\": [\"Tests/GuidesTests/F.swift\"]") == true)
  }

  @Test func aBlockSkippedWithoutAReasonFails() {
    let markdown = "<!-- not compiled: -->\n```swift\nText(\"hi\")\n```\n"
    #expect(
      codeBlockProblems(
        document: "Docs/F.md", markdown: markdown, compiledIn: nil, compiledLines: [])
        == ["Docs/F.md:2: a block that is not compiled must say why"])
  }

  @Test func linksOutsideCodeAreFound() {
    let markdown = """
      See [the guide](Other.md#a-section) and [`Code.swift`](../Sources/Code.swift),
      [a site](https://example.com), [here](#below), and `[not](a-link.md)`.

      ```sh
      echo "[not](a-link.md)"
      ```
      """
    let links = relativeLinks(in: markdown)
    #expect(links.map(\.target) == ["Other.md#a-section", "../Sources/Code.swift", "#below"])
    #expect(links.map(\.line) == [1, 1, 2])
  }

  @Test func testNamesAreFoundInCodeSpans() {
    let markdown =
      "`StoreWorkTests.settleReturnsAtOnceWhenIdle`, `send(_:)`, `Guide.swift`, `ATests.isIt`"
    #expect(
      testNames(in: markdown).map { "\($0.suite).\($0.test)" }
        == ["StoreWorkTests.settleReturnsAtOnceWhenIdle", "ATests.isIt"])
  }

  @Test func mermaidBlocksAreFoundWithTheSnapshotLinkedBeforeThem() {
    let markdown = """
      The machine ([`m.mmd`](x/m.mmd)):

      ```mermaid
      stateDiagram-v2
        [*] --> s0
      ```

      ```mermaid
      stateDiagram-v2
      ```
      """
    let blocks = mermaidBlocks(in: markdown)
    #expect(blocks.map(\.line) == [3, 8])
    #expect(blocks.map(\.snapshot) == ["x/m.mmd", nil])
    #expect(blocks.first?.text == "stateDiagram-v2\n  [*] --> s0")
  }

  @Test func headingsGiveGitHubAnchors() {
    let markdown = """
      # Title
      ## One event, step by step
      ### 1. The store's hot path looked up `type` metadata
      ```sh
      # not a heading
      ```
      """
    #expect(
      headingAnchors(in: markdown) == [
        "title", "one-event-step-by-step", "1-the-stores-hot-path-looked-up-type-metadata",
      ])
  }
}

/// What is wrong with the Swift blocks of a document: blocks whose lines are not in the compiled
/// code, blocks skipped without a reason, and blocks with nowhere to be compiled.
/// - Parameters:
///   - document: The document's path, for messages.
///   - markdown: The document's text.
///   - compiledIn: The files and folders mapped to the document, if any.
///   - compiledLines: The trimmed lines of those files, in order.
/// - Returns: One message per problem, naming the document and line; none when all is well.
func codeBlockProblems(
  document: String, markdown: String, compiledIn: [String]?, compiledLines: [String]
) -> [String] {
  let blocks = swiftBlocks(in: markdown)
  var problems: [String] = []
  for block in blocks {
    if let reason = block.skipReason, reason.isEmpty {
      problems.append("\(document):\(block.line): a block that is not compiled must say why")
    }
  }
  let compiledBlocks = blocks.filter { $0.skipReason == nil }
  guard !compiledBlocks.isEmpty else { return problems }
  guard let compiledIn, !compiledIn.isEmpty else {
    let name = ((document as NSString).lastPathComponent as NSString).deletingPathExtension
    let count = compiledBlocks.count
    problems.append(
      """
      \(document) has \(count) Swift block\(count == 1 ? "" : "s") to compile but no compiled \
      files: put its code in Swift files that the package compiles (for a guide, \
      Tests/GuidesTests/\(name).swift), and add "\(document)": ["Tests/GuidesTests/\(name).swift"] \
      to GuideCodeBlocksTests.compiledIn; or mark a block that cannot be compiled with \
      <!-- not compiled: reason --> on the line before it.
      """)
    return problems
  }
  for block in compiledBlocks {
    var remaining = compiledLines[...]
    for line in block.lines where !isSkippedInComparison(line) {
      guard let index = remaining.firstIndex(of: line) else {
        problems.append(
          """
          \(document):\(block.line): this line of the block is not in the compiled code (in \
          order): \(line)
          Compiled in: \(compiledIn.joined(separator: ", "))
          """)
        break
      }
      remaining = remaining[(index + 1)...]
    }
  }
  return problems
}

/// Whether a block's line is left out of the comparison.
func isSkippedInComparison(_ line: String) -> Bool {
  line.isEmpty || line.hasPrefix("import ") || line.hasPrefix("@testable import ")
    || line == "// …"
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

/// The lines of a markdown text outside fenced code blocks, numbered from 1.
func proseLines(of markdown: String) -> [(line: Int, text: String)] {
  var result: [(line: Int, text: String)] = []
  var inFence = false
  for (offset, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false)
    .enumerated()
  {
    if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
      inFence.toggle()
    } else if !inFence {
      result.append((offset + 1, String(line)))
    }
  }
  return result
}

/// The links of a markdown text that lead into the repository (not to another site), outside code.
func relativeLinks(in markdown: String) -> [(line: Int, target: String)] {
  var links: [(line: Int, target: String)] = []
  for (line, text) in proseLines(of: markdown) {
    // NB: code spans are dropped; link text in backticks keeps its `](target)`.
    let prose = text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
      .filter { $0.offset.isMultiple(of: 2) }.map(\.element).joined()
    for match in prose.matches(of: #/\]\(([^)\s]+)\)/#) {
      let target = String(match.output.1)
      if target.contains("://") || target.hasPrefix("mailto:") { continue }
      links.append((line, target))
    }
  }
  return links
}

/// The Mermaid blocks of a document: the line of each opening fence, the `.mmd` file linked last
/// before it (and after the previous block), and the block's text without its fences.
func mermaidBlocks(in markdown: String) -> [(line: Int, snapshot: String?, text: String)] {
  var blocks: [(line: Int, snapshot: String?, text: String)] = []
  var snapshot: String?
  var open: (line: Int, lines: [String])?
  for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false)
    .enumerated()
  {
    let trimmed = line.trimmingCharacters(in: .whitespaces)
    if var block = open {
      if trimmed == "```" {
        blocks.append((block.line, snapshot, block.lines.joined(separator: "\n")))
        snapshot = nil
        open = nil
      } else {
        block.lines.append(String(line))
        open = block
      }
    } else if trimmed == "```mermaid" {
      open = (index + 1, [])
    } else if let link = line.range(of: #"\(([^()\s]+\.mmd)\)"#, options: .regularExpression) {
      snapshot = String(line[link].dropFirst().dropLast())
    }
  }
  return blocks
}

/// The anchors GitHub gives the headings of a markdown text: lowercased, punctuation dropped,
/// spaces made hyphens.
func headingAnchors(in markdown: String) -> [String] {
  proseLines(of: markdown).compactMap { _, text in
    guard text.hasPrefix("#") else { return nil }
    let title = text.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
    return String(
      title.lowercased().compactMap { character -> Character? in
        if character == " " { return "-" }
        if character.isLetter || character.isNumber || character == "-" || character == "_" {
          return character
        }
        return nil
      })
  }
}

/// The tests a markdown text names in code spans, as `SuiteTests.testName` (camel case).
func testNames(in markdown: String) -> [(suite: String, test: String)] {
  proseLines(of: markdown).flatMap { _, text in
    text.matches(of: #/`([A-Z][A-Za-z0-9]*Tests)\.([a-z][a-z0-9_]*[A-Z][A-Za-z0-9_]*)`/#).map {
      (String($0.output.1), String($0.output.2))
    }
  }
}

extension String {
  /// The file and the anchor of a link's target: `Guide.md#part` is `("Guide.md", "part")`.
  func splitAnchor() -> (file: String, anchor: String?) {
    guard let hash = firstIndex(of: "#") else { return (self, nil) }
    return (String(self[..<hash]), String(self[index(after: hash)...]))
  }
}
