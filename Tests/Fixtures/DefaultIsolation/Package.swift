// swift-tools-version: 6.2
// A package whose targets default to main-actor isolation, as Xcode 26 sets up new app targets. It
// checks that a feature written the obvious way, with only the one-word rule Docs/Observation.md
// documents (work keys and `.children` rows' ids are `nonisolated`), builds, runs and is tested
// there. Built by .ci/default-isolation.sh; the root package ignores it.
import PackageDescription

let mainActorByDefault: [SwiftSetting] = [.defaultIsolation(MainActor.self)]

let package = Package(
  name: "DefaultIsolationFixture",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  dependencies: [.package(name: "Decisions", path: "../../..")],
  targets: [
    .target(
      name: "Checklist",
      dependencies: [.product(name: "Decisions", package: "Decisions")],
      swiftSettings: mainActorByDefault
    ),
    .executableTarget(
      name: "checklist",
      dependencies: ["Checklist", .product(name: "Decisions", package: "Decisions")],
      swiftSettings: mainActorByDefault
    ),
    .testTarget(
      name: "ChecklistTests",
      dependencies: [
        "Checklist",
        .product(name: "Decisions", package: "Decisions"),
        .product(name: "DecisionsTesting", package: "Decisions"),
      ],
      swiftSettings: mainActorByDefault
    ),
  ],
  swiftLanguageModes: [.v6]
)
