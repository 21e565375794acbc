#!/usr/bin/env bash
# Modules with default main-actor isolation (Docs/Observation.md): the fixture package in
# Tests/Fixtures/DefaultIsolation builds without warnings, its demo runs, its tests pass; and a copy
# without the documented `nonisolated` fails with the documented errors, so the fix is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
fixture="$root/Tests/Fixtures/DefaultIsolation"
# NB: one build folder for the fixture and for the copy, so Decisions is compiled once.
scratch="$root/.build-default-isolation"
copy="$(mktemp -d)"
trap 'rm -rf "$copy"' EXIT

echo "--- the fixture builds (warnings are errors)"
swift build --package-path "$fixture" --scratch-path "$scratch" --build-tests \
  -Xswiftc -warnings-as-errors

echo "--- its demo runs a Store, an ObservableStore, and a MainStore with a child model"
out="$(timeout 60 swift run --package-path "$fixture" --scratch-path "$scratch" --skip-build checklist)"
printf '%s\n' "$out"
want='store: 1 of 1 done, 1 archived; observable: ["Water the garden"] (editor was open: true, now: false); main: ["Call mum"] (row done at once: true)'
if [[ "$(printf '%s\n' "$out" | tail -n 1)" != "$want" ]] ||
  [[ "$out" != *"announced: archived Walk the dog"* ]]; then
  printf 'FAIL: expected the last line\n%s\n' "$want" >&2
  exit 1
fi

echo "--- its tests pass"
timeout 120 swift test --package-path "$fixture" --scratch-path "$scratch" --skip-build

# copy_fixture FILE OLD NEW: copies the fixture to $copy, depending on this checkout, with the first
# OLD replaced by NEW in FILE.
copy_fixture() {
  rm -rf "${copy:?}"/*
  cp -R "$fixture/Package.swift" "$fixture/Sources" "$fixture/Tests" "$copy/"
  OLD='path: "../../.."' NEW="path: \"$root\"" perl -0pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/' "$copy/Package.swift"
  grep -qF "$2" "$copy/$1" || { echo "FAIL: no '$2' in $1" >&2; exit 1; }
  OLD="$2" NEW="$3" perl -0pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/' "$copy/$1"
}
# expect_failure NAME ERROR: builds the package in $copy and checks that it fails with ERROR.
expect_failure() {
  local log
  if log="$(swift build --package-path "$copy" --scratch-path "$scratch" --build-tests 2>&1)"; then
    echo "FAIL $1: the copy built" >&2
    exit 1
  fi
  if [[ "$log" != *"$2"* ]]; then
    printf 'FAIL %s: the build failed without\n  %s\n--- its log\n%s\n' "$1" "$2" "$log" >&2
    exit 1
  fi
  echo "ok   $1: $2"
}
conformance="main actor-isolated conformance of 'Item' to 'Equatable' cannot be used in nonisolated context"

echo "--- without the annotations, copies fail with the documented errors"
copy_fixture Sources/Checklist/Item.swift "public nonisolated struct Item" "public struct Item"
expect_failure "the fixture's model type without nonisolated" "error: $conformance"

# The issue's shape: the only uses of Item's == are synthesized, so the error has no location.
copy_fixture Sources/Checklist/Item.swift "public nonisolated struct Item" "public struct Item"
rm -r "$copy/Sources/checklist" "$copy/Tests"
rm "$copy"/Sources/Checklist/*.swift
cat >"$copy/Sources/Checklist/Feature.swift" <<'SWIFT'
import Decisions

struct Item: Equatable, Sendable, Identifiable {
  var id: Int
  var title: String
}

enum Checklist: Feature {
  struct State: Equatable, Sendable {
    var items: [Item] = []
  }
  enum Event: Equatable, Sendable {
    case add(Item)
  }
  enum Decision: Equatable, Sendable {
    case log(String)
  }
  struct Deps: Sendable {
    var log: @Sendable (String) -> Void
  }
  static func makeDecisions(event: Event, state: inout State) -> [Decision] {
    switch event {
    case .add(let item):
      state.items.append(item)
      return [.log(item.title)]
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .log(let text): deps.log(text)
    }
  }
}
SWIFT
perl -0pi -e 's/\.executableTarget\(.*?\),\n    \.testTarget\(.*?\),\n  \],/],/s' "$copy/Package.swift"
expect_failure "the issue's feature, without nonisolated" "<unknown>:0: error: $conformance"

echo "Default isolation: passed."
