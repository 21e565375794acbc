// swift-tools-version: 6.2
// NB: 6.2 is the first compiler with `SendableMetatype`, which `Core` refines; see Docs/Architecture.md.
import PackageDescription

let package = Package(
  name: "Decisions",
  // Synchronization (Mutex, Atomic) sets the floor: macOS 15, iOS 18 and their siblings.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Decisions", targets: ["Decisions"]),
    .library(name: "DecisionsTesting", targets: ["DecisionsTesting"]),
  ],
  targets: [
    .target(name: "Decisions"),
    .target(name: "DecisionsTesting", dependencies: ["Decisions"]),
    .target(name: "ExampleSupport", path: "Sources/ExampleSupport"),
    .target(
      name: "FactFeature",
      dependencies: ["Decisions", "ExampleSupport"],
      path: "Sources/FactFeature",
      resources: [.copy("Resources/facts.json")]
    ),
    .executableTarget(
      name: "facts",
      dependencies: ["FactFeature"],
      path: "Sources/FactsDemo"
    ),
    .target(
      name: "RemoteContent",
      dependencies: ["Decisions", "ExampleSupport"],
      path: "Sources/RemoteContent",
      resources: [.copy("Resources/content.json")]
    ),
    .executableTarget(
      name: "stories",
      dependencies: ["RemoteContent"],
      path: "Sources/StoriesDemo"
    ),
    .target(name: "ExtractedCores", path: "Sources/ExtractedCores"),
    .executableTarget(
      name: "decisions-bench",
      dependencies: ["Decisions"],
      path: "Sources/DecisionsBenchmarks"
    ),
    .testTarget(
      name: "DecisionsTests", dependencies: ["Decisions", "DecisionsTesting", "TestSupport"]),
    .testTarget(
      name: "DecisionsStressTests", dependencies: ["Decisions", "TestSupport"]),
    .target(
      name: "TestSupport",
      dependencies: ["Decisions"],
      path: "Tests/TestSupport"
    ),
    .testTarget(
      name: "FactFeatureTests",
      dependencies: ["FactFeature", "DecisionsTesting", "TestSupport", "facts"],
      exclude: ["__Traces__"]
    ),
    .testTarget(
      name: "RemoteContentTests",
      dependencies: ["RemoteContent", "DecisionsTesting", "TestSupport", "stories"],
      exclude: ["__Traces__"]
    ),
    .testTarget(name: "ExtractedCoresTests", dependencies: ["ExtractedCores"]),
    .testTarget(name: "ExampleSupportTests", dependencies: ["ExampleSupport"]),
    .testTarget(
      name: "GuidesTests",
      dependencies: [
        "Decisions", "DecisionsTesting", "FactFeature", "RemoteContent", "TestSupport",
      ],
      exclude: ["__Traces__"]
    ),
    .testTarget(
      name: "DecisionsTestingTests",
      dependencies: ["Decisions", "DecisionsTesting"],
      // Trace snapshots are read from the source tree by path, not bundled.
      exclude: ["__Traces__"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
