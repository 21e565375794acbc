#!/usr/bin/env bash
# SwiftUI adapters (Sources/DecisionsSwiftUI) and the guides' SwiftUI recipes, type-checked on
# Linux: the fixture package in Tests/Fixtures/SwiftUIStandIn builds them, with warnings as errors,
# against a stand-in module named SwiftUI that declares the signatures they use.
set -euo pipefail
cd "$(dirname "$0")/.."
fixture=Tests/Fixtures/SwiftUIStandIn

# NB: SwiftPM puts every module of a build in one folder, so in the fixture `canImport(SwiftUI)`
# is true for Decisions too, whichever order the targets build in. The library must not ask.
if grep -rln "canImport(SwiftUI)" Sources/Decisions Sources/DecisionsTesting; then
  echo "FAIL: the library asks canImport(SwiftUI); SwiftUI code belongs in DecisionsSwiftUI" >&2
  exit 1
fi

# NB: the flags .ci/run gives every build (see there); none when run by hand.
read -ra flags <<<"${DECISIONS_CI_SWIFT_FLAGS:-}"
swift build --package-path "$fixture" --scratch-path .build-swiftui-stand-in \
  -Xswiftc -warnings-as-errors "${flags[@]}"
echo "SwiftUI stand-in: the adapters and the recipes type-check."
