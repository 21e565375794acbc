// swift-tools-version: 6.2
// DecisionsSwiftUI and the guides' SwiftUI recipes, type-checked on Linux against a stand-in of
// SwiftUI. Built by .ci/swiftui-stand-in.sh; the root package ignores it.
//
// - `SwiftUI` (Sources/SwiftUI) declares the signatures the adapters and the recipes use, each
//   with the developer.apple.com page it comes from. It is a target of this package on Linux
//   only: elsewhere `import SwiftUI` is Apple's, and the same sources build against it.
// - `Decisions` and `DecisionsSwiftUI` are symlinks to the library's own sources, built here as
//   they are in the root package. NB: the root package cannot be a dependency instead: its target
//   `DecisionsSwiftUI` would share this one's name, and SwiftPM refuses two targets of one name.
// - `GuideViews` holds the views of Docs/Navigation.md and Docs/Observation.md, and symlinks to
//   the guides' features (Tests/GuidesTests) that they show.
import PackageDescription

#if os(Linux)
  let standIn: [Target] = [.target(name: "SwiftUI")]
  let swiftUI: [Target.Dependency] = ["SwiftUI"]
#else
  let standIn: [Target] = []
  let swiftUI: [Target.Dependency] = []
#endif

let package = Package(
  name: "SwiftUIStandIn",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  targets: standIn + [
    .target(name: "Decisions"),
    .target(name: "DecisionsSwiftUI", dependencies: ["Decisions"] + swiftUI),
    .target(name: "GuideViews", dependencies: ["Decisions", "DecisionsSwiftUI"] + swiftUI),
  ],
  swiftLanguageModes: [.v6]
)
