// swift-tools-version: 6.2
// NB: 6.2 is the first compiler with `SendableMetatype`, which `Store` requires of its feature; see
// Docs/Architecture.md.
import PackageDescription

let package = Package(
  name: "Decisions",
  // Synchronization (Mutex, Atomic) sets the floor: macOS 15, iOS 18 and their siblings.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Decisions", targets: ["Decisions"]),
    .library(name: "DecisionsTesting", targets: ["DecisionsTesting"]),
    .library(name: "DecisionsSwiftUI", targets: ["DecisionsSwiftUI"]),
  ],
  targets: [
    // MARK: - The library

    .target(name: "Decisions"),
    .target(name: "DecisionsTesting", dependencies: ["Decisions"]),
    // NB: SwiftUI adapters, every file inside `#if canImport(SwiftUI)`: empty on Linux, where CI
    // type-checks them against a stand-in of SwiftUI (Tests/Fixtures/SwiftUIStandIn).
    .target(name: "DecisionsSwiftUI", dependencies: ["Decisions"]),
    .testTarget(
      name: "DecisionsTests",
      dependencies: ["Decisions", "DecisionsTesting", "TestSupport", "unheard-error-exit"]),
    // A program whose store's work fails unheard and that exits at once, which a test runs.
    .executableTarget(
      name: "unheard-error-exit", dependencies: ["Decisions"],
      path: "Tests/Fixtures/UnheardErrorExit"),
    .testTarget(
      name: "DecisionsTestingTests",
      dependencies: ["Decisions", "DecisionsTesting", "TestSupport"],
      // Trace snapshots are read from the source tree by path, not bundled.
      exclude: ["__Traces__"]
    ),
    // The store's raw buffers and its order under floods: the tests CI also runs under
    // AddressSanitizer, in a target of their own so that build holds only them.
    .testTarget(
      name: "DecisionsStressTests", dependencies: ["Decisions", "DecisionsTesting", "TestSupport"]),
    // Unit tests of internal types (the registry's entries, its record of test waits, the flight
    // log, state buffers, the testing module's diffs), kept apart from the tests of public
    // behaviour above, which are what checks a refactor of these internals.
    .testTarget(
      name: "DecisionsInternalsTests",
      dependencies: ["Decisions", "DecisionsTesting", "TestSupport"]),

    // MARK: - Examples: features rebuilt on the library, and their demos
    // Each imports only the library's public API (and ExampleSupport, the demos' shared HTTP and
    // terminal code), so it can be copied into an app.

    .target(name: "ExampleSupport", path: "Sources/Examples/ExampleSupport"),
    .target(
      name: "FactFeature",
      dependencies: ["Decisions", "ExampleSupport"],
      path: "Sources/Examples/FactFeature",
      resources: [.copy("Resources/facts.json")]
    ),
    .executableTarget(
      name: "facts",
      dependencies: ["FactFeature"],
      path: "Sources/Examples/FactsDemo"
    ),
    .target(
      name: "RemoteContent",
      dependencies: ["Decisions", "ExampleSupport"],
      path: "Sources/Examples/RemoteContent",
      resources: [.copy("Resources/content.json")]
    ),
    .executableTarget(
      name: "stories",
      dependencies: ["RemoteContent"],
      path: "Sources/Examples/StoriesDemo"
    ),
    .target(
      name: "SearchFeature",
      dependencies: ["Decisions", "ExampleSupport"],
      path: "Sources/Examples/SearchFeature",
      resources: [.copy("Resources/facts.json")]
    ),
    .executableTarget(
      name: "search",
      dependencies: ["SearchFeature"],
      path: "Sources/Examples/SearchDemo"
    ),
    .target(
      name: "SyncUps",
      dependencies: ["Decisions", "ExampleSupport"],
      path: "Sources/Examples/SyncUps"
    ),
    // NB: the app's --script mode runs meetings on DecisionsTesting's TestClock; the feature itself
    // (SyncUps) does not depend on the testing module.
    .executableTarget(
      name: "syncups",
      dependencies: ["SyncUps", "DecisionsTesting", "ExampleSupport"],
      path: "Sources/Examples/SyncUpsDemo"
    ),
    .target(
      name: "ReadingList",
      dependencies: ["Decisions"],
      path: "Sources/Examples/ReadingList"
    ),
    .target(name: "ExtractedCores", path: "Sources/Examples/ExtractedCores"),
    .testTarget(
      name: "ExampleSupportTests",
      dependencies: ["ExampleSupport"],
      path: "Tests/Examples/ExampleSupportTests"
    ),
    .testTarget(
      name: "FactFeatureTests",
      dependencies: ["FactFeature", "DecisionsTesting", "TestSupport", "facts"],
      path: "Tests/Examples/FactFeatureTests",
      exclude: ["__Traces__"]
    ),
    .testTarget(
      name: "RemoteContentTests",
      dependencies: ["RemoteContent", "DecisionsTesting", "TestSupport", "stories"],
      path: "Tests/Examples/RemoteContentTests",
      exclude: ["__Traces__"]
    ),
    .testTarget(
      name: "SearchFeatureTests",
      dependencies: ["SearchFeature", "DecisionsTesting", "TestSupport", "search"],
      path: "Tests/Examples/SearchFeatureTests",
      exclude: ["__Traces__"]
    ),
    .testTarget(
      name: "SyncUpsTests",
      dependencies: ["SyncUps", "DecisionsTesting", "TestSupport", "syncups"],
      path: "Tests/Examples/SyncUpsTests"
    ),
    .testTarget(
      name: "ReadingListTests",
      dependencies: ["ReadingList", "DecisionsTesting", "TestSupport"],
      path: "Tests/Examples/ReadingListTests"
    ),
    .testTarget(
      name: "ExtractedCoresTests",
      dependencies: ["ExtractedCores"],
      path: "Tests/Examples/ExtractedCoresTests"
    ),

    // MARK: - Guides: the code of README.md and Docs/, and the check that every Swift block is
    // compiled (here or in the example and test files it names)

    .testTarget(
      name: "GuidesTests",
      dependencies: [
        "Decisions", "DecisionsTesting", "FactFeature", "RemoteContent", "SearchFeature",
        "TestSupport",
      ],
      exclude: ["__Traces__"]
    ),

    // MARK: - Benchmarks

    .executableTarget(
      name: "decisions-bench",
      dependencies: ["Decisions", "DecisionsTesting"],
      path: "Sources/Benchmarks/DecisionsBenchmarks"
    ),

    // MARK: - Tools

    .executableTarget(
      name: "decisions-inspect",
      dependencies: [
        "DecisionsTesting", "ExampleSupport", "FactFeature", "SearchFeature", "SyncUps",
      ],
      path: "Sources/Tools/DecisionsInspect"
    ),
    .testTarget(
      name: "DecisionsInspectTests",
      dependencies: [
        "DecisionsTesting", "FactFeature", "SearchFeature", "SyncUps", "TestSupport",
        "decisions-inspect",
      ],
      path: "Tests/Tools/DecisionsInspectTests"
    ),

    // MARK: - Test support shared by the test targets

    .target(
      name: "TestSupport",
      dependencies: ["Decisions", "DecisionsTesting"],
      path: "Tests/TestSupport"
    ),
  ],
  swiftLanguageModes: [.v6]
)

// MARK: - The sanitizer runs of CI build what they test

// NB: with DECISIONS_TEST_TARGETS set (test target names, separated by spaces), the package holds the
// library's targets and those test targets only. `.ci/run` runs the library's own tests under
// ThreadSanitizer and AddressSanitizer this way: a sanitized build of the examples, guides and tools
// too would double the time of CI, and their code runs on the same store, which the library's tests
// cover. The plain `swift test` runs everything.
if let names = Context.environment["DECISIONS_TEST_TARGETS"] {
  let tests = Set(names.split(separator: " ").map(String.init))
  let testTargets = Set(package.targets.filter { $0.type == .test }.map(\.name))
  if let unknown = tests.subtracting(testTargets).sorted().first {
    fatalError("DECISIONS_TEST_TARGETS names \(unknown), which is not a test target of the package")
  }
  let library: Set = [
    "Decisions", "DecisionsTesting", "DecisionsSwiftUI", "TestSupport", "unheard-error-exit",
  ]
  package.targets.removeAll { !library.contains($0.name) && !tests.contains($0.name) }
}
