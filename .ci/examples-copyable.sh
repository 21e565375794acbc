#!/usr/bin/env bash
# Checks that the examples are copyable: copies them into a fresh package that depends on Decisions
# as any app would (by path, as a package dependency), and builds it. An example that used
# Decisions' `package` declarations would compile here in the repository and fail there.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

mkdir -p "$scratch/app/Sources"
cp -R Sources/Examples/. "$scratch/app/Sources/"
cat >"$scratch/app/Package.swift" <<MANIFEST
// swift-tools-version: 6.2
import PackageDescription

let package = Package(
  name: "CopiedExamples",
  platforms: [.macOS(.v15), .iOS(.v18)],
  dependencies: [.package(name: "Decisions", path: "$root")],
  targets: [
    .target(name: "ExampleSupport"),
    .target(
      name: "FactFeature",
      dependencies: [.product(name: "Decisions", package: "Decisions"), "ExampleSupport"],
      resources: [.copy("Resources/facts.json")]),
    .executableTarget(name: "facts", dependencies: ["FactFeature"], path: "Sources/FactsDemo"),
    .target(
      name: "RemoteContent",
      dependencies: [.product(name: "Decisions", package: "Decisions"), "ExampleSupport"],
      resources: [.copy("Resources/content.json")]),
    .executableTarget(name: "stories", dependencies: ["RemoteContent"], path: "Sources/StoriesDemo"),
    .target(
      name: "SearchFeature",
      dependencies: [.product(name: "Decisions", package: "Decisions"), "ExampleSupport"],
      resources: [.copy("Resources/facts.json")]),
    .executableTarget(name: "search", dependencies: ["SearchFeature"], path: "Sources/SearchDemo"),
    .target(
      name: "SyncUps",
      dependencies: [.product(name: "Decisions", package: "Decisions"), "ExampleSupport"]),
    .executableTarget(
      name: "syncups",
      dependencies: [
        "SyncUps", "ExampleSupport", .product(name: "DecisionsTesting", package: "Decisions"),
      ],
      path: "Sources/SyncUpsDemo"),
    .target(name: "ExtractedCores"),
  ],
  swiftLanguageModes: [.v6]
)
MANIFEST
# NB: the flags .ci/run gives every build (see there); none when run by hand.
read -ra flags <<<"${DECISIONS_CI_SWIFT_FLAGS:-}"
# NB: the build folder of .ci/default-isolation.sh, which builds Decisions with the same flags, in the
# same order: it is compiled once for both.
build=(--package-path "$scratch/app" --scratch-path "$root/.build-fixtures"
  -Xswiftc -warnings-as-errors "${flags[@]}")
swift build "${build[@]}"
bin="$(swift build "${build[@]}" --show-bin-path)"
"$bin/facts" --taps 1 --delay 0 --seed 1 >/dev/null
"$bin/search" --script "cube of 3" --delay 0 | grep -F 'result: "27 is the cube of 3."' >/dev/null
echo "The examples build and run as a separate package that depends on Decisions."
