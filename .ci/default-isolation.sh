#!/usr/bin/env bash
# Modules with default main-actor isolation (Docs/Observation.md): the fixture package in
# Tests/Fixtures/DefaultIsolation, a feature written with no annotation but the one-word rule for
# work keys and the rows of a list, builds without warnings, its demo runs it on a MainStore, and its
# tests pass; a `nonisolated` feature runs on Store. Copies check the other side: the issue's
# feature builds with no annotation, a main-actor feature on Store fails at that line with the
# documented error, and each `nonisolated` the fixture keeps is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
fixture="$root/Tests/Fixtures/DefaultIsolation"
# NB: one build folder for the fixture, its copies and .ci/examples-copyable.sh, so Decisions is
# compiled once.
scratch="$root/.build-fixtures"
copy="$(mktemp -d)"
# NB: the same flags in every build of the folder: the flags .ci/run gives every build (see there); none when run by hand.
read -ra flags <<<"${DECISIONS_CI_SWIFT_FLAGS:-}"
trap 'rm -rf "$copy"' EXIT

echo "--- the fixture builds (warnings are errors)"
swift build --package-path "$fixture" --scratch-path "$scratch" --build-tests \
  -Xswiftc -warnings-as-errors "${flags[@]}"

echo "--- its demo runs the checklist on a MainStore with a child model, and a tally on a Store"
out="$(timeout 60 swift run --package-path "$fixture" --scratch-path "$scratch" "${flags[@]}" --skip-build checklist)"
printf '%s\n' "$out"
want='main: ["Water the garden"] (editor was open: true, now: false; row done at once: true, archived: 1); store: 1 done'
if [[ "$(printf '%s\n' "$out" | tail -n 1)" != "$want" ]] ||
  [[ "$out" != *"announced: archived Walk the dog"* ]] ||
  [[ "$out" != *"tally: 1 done: Water the garden"* ]]; then
  printf 'FAIL: expected the last line\n%s\n' "$want" >&2
  exit 1
fi

echo "--- its tests pass"
timeout 120 swift test --package-path "$fixture" --scratch-path "$scratch" "${flags[@]}" --skip-build

# copy_fixture FILE OLD NEW: copies the fixture to $copy, depending on this checkout, with the first
# OLD replaced by NEW in FILE.
copy_fixture() {
  rm -rf "${copy:?}"/*
  cp -R "$fixture/Package.swift" "$fixture/Sources" "$fixture/Tests" "$copy/"
  OLD='path: "../../.."' NEW="path: \"$root\"" perl -0pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/' "$copy/Package.swift"
  grep -qF "$2" "$copy/$1" || { echo "FAIL: no '$2' in $1" >&2; exit 1; }
  OLD="$2" NEW="$3" perl -0pi -e 's/\Q$ENV{OLD}\E/$ENV{NEW}/' "$copy/$1"
}
# expect_success NAME: builds the package in $copy and checks that it builds.
expect_success() {
  local log
  if ! log="$(swift build --package-path "$copy" --scratch-path "$scratch" --build-tests \
    -Xswiftc -warnings-as-errors "${flags[@]}" 2>&1)"; then
    printf 'FAIL %s: the copy did not build\n--- its log\n%s\n' "$1" "$log" >&2
    exit 1
  fi
  echo "ok   $1: builds"
}
# expect_failure NAME ERROR: builds the package in $copy and checks that it fails with ERROR.
expect_failure() {
  local log
  # NB: warnings are errors here too, so that Decisions, built with the same flags, is not
  # compiled again; the documented error must still be in the log.
  if log="$(swift build --package-path "$copy" --scratch-path "$scratch" --build-tests \
    -Xswiftc -warnings-as-errors "${flags[@]}" 2>&1)"; then
    echo "FAIL $1: the copy built" >&2
    exit 1
  fi
  if [[ "$log" != *"$2"* ]]; then
    printf 'FAIL %s: the build failed without\n  %s\n--- its log\n%s\n' "$1" "$2" "$log" >&2
    exit 1
  fi
  echo "ok   $1: $2"
}
isolated="main actor-isolated conformance of"
sendable_parameter="cannot satisfy conformance requirement for a 'Sendable' type parameter"

echo "--- a main-actor feature on the actor Store fails at that line, with the documented error"
copy_fixture Sources/checklist/main.swift "let tally = Store<Tally>" \
  "let wrong = Store<Checklist>(state: .init(), deps: deps)
let tally = Store<Tally>"
expect_failure "a main-actor feature on Store" \
  "main.swift:48:13: error: $isolated 'Checklist' to 'Feature' cannot satisfy conformance requirement for a 'SendableMetatype' type parameter 'F' [#IsolatedConformances]"
copy_fixture Sources/Checklist/Tally.swift "public nonisolated enum Tally" "public enum Tally"
expect_failure "the tally without nonisolated, on Store" \
  "error: $isolated 'Tally' to 'Feature' cannot satisfy conformance requirement for a 'SendableMetatype' type parameter 'F'"

echo "--- the one-word rule: each nonisolated the fixture keeps is needed"
copy_fixture Sources/Checklist/Row.swift "public nonisolated enum Key" "public enum Key"
expect_failure "a work key without nonisolated" \
  "error: $isolated 'Row.Key' to 'Hashable' $sendable_parameter"
copy_fixture Sources/Checklist/Row.swift "public nonisolated var id" "public var id"
expect_failure "a row of embed(_:list:…) without a nonisolated id" \
  "error: $isolated 'Row.State' to 'Identifiable' $sendable_parameter"

copy_fixture Tests/ChecklistTests/AutosaveTests.swift "nonisolated struct State" "struct State"
expect_failure "an explored feature's state without nonisolated" \
  "error: $isolated 'Autosave.State' to 'Hashable' $sendable_parameter"

echo "--- where Swift draws the line: a recording's JSON needs a nonisolated Codable"
copy_fixture Tests/ChecklistTests/BasketTests.swift "    let page = try recording.inspectorPage()" \
  "    _ = try FlightRecording<Basket>(json: Data(try recording.json().utf8))
    let page = try recording.inspectorPage()"
expect_failure "a main-actor recording as JSON" \
  "error: $isolated 'Basket.State' to 'Encodable' $sendable_parameter"
perl -pi -e 's/(State|Event): Hashable, Codable/$1: Hashable, nonisolated Codable/' \
  "$copy/Sources/Checklist/Basket.swift"
expect_success "a main-actor recording as JSON, with nonisolated Codable on the state and events"

# The issue's shape, which failed with "<unknown>:0: error: main actor-isolated conformance of
# 'Item' to 'Equatable' cannot be used in nonisolated context" while Feature was SendableMetatype.
echo "--- the issue's feature builds with no annotation"
copy_fixture Sources/Checklist/Item.swift "public struct Item" "public struct Item"
rm -r "$copy/Sources/checklist" "$copy/Tests"
rm "$copy"/Sources/Checklist/*.swift
cat >"$copy/Sources/Checklist/Feature.swift" <<'SWIFT'
import Decisions

struct Item: Equatable, Sendable, Identifiable {
  var id: Int
  var title: String
}

enum ClearAction: Equatable, Sendable {
  case clear
}

enum Checklist: Feature {
  struct State: Equatable, Sendable {
    var items: [Item] = []
    var query = ""
    var dialog: Dialog<ClearAction>?
  }
  enum Event: Equatable, Sendable {
    case add(Item)
    case clearTapped
    case queryChanged(String)
    case dialog(DialogResponse<ClearAction>)
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
    case .clearTapped:
      state.dialog = Dialog(
        title: "Clear the list?", buttons: [.init("Clear", role: .destructive, action: .clear)])
      return []
    case .queryChanged(let query):
      state.query = query
      return []
    case .dialog(let response):
      if state.dialog.respond(to: response) == .clear { state.items = [] }
      return []
    }
  }
  static func execute(_ decision: Decision, deps: Deps, effects: Effects<Event>) {
    switch decision {
    case .log(let text): deps.log(text)
    }
  }
}

func show() -> [String] {
  let store = MainStore<Checklist>(state: .init(), deps: .init(log: { print($0) }))
  store.send(.add(Item(id: 1, title: "Buy milk")))
  let query = store.binding(\.query, send: Checklist.Event.queryChanged)
  query.wrappedValue = "milk"
  return store.state.items.map(\.title) + [query.wrappedValue]
}
SWIFT
perl -0pi -e 's/\.executableTarget\(.*?\),\n    \.testTarget\(.*?\),\n  \],/],/s' "$copy/Package.swift"
expect_success "the issue's feature, with no annotation, on a MainStore (with a Dialog and a binding)"

echo "Default isolation: passed."
