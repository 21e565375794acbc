#!/usr/bin/env bash
# The public API of Decisions and DecisionsTesting against the baseline kept in .ci/api/.
#
#   .ci/api-check.sh           fails if the public API differs from the baseline, or if a commit
#                              changed the baseline without changing CHANGELOG.md
#   .ci/api-check.sh --update  writes the current API as the new baseline
#
# It reads the modules of the last `swift build` (debug) with `swift symbolgraph-extract`, so it
# compiles nothing. The listing is made on Linux: DecisionsSwiftUI, empty here, is not checked.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(Decisions DecisionsTesting)
# NB: API_BASELINE names another baseline folder: CI points it at a broken copy to see the check fail.
baseline="${API_BASELINE:-.ci/api}"
update=false
case "${1:-}" in
  "") ;;
  --update) update=true ;;
  *)
    echo "usage: .ci/api-check.sh [--update]" >&2
    exit 2
    ;;
esac

graphs="$(mktemp -d)"
trap 'rm -rf "$graphs"' EXIT
built="$(swift build --show-bin-path)/Modules"
for module in "${modules[@]}"; do
  if [ ! -e "$built/$module.swiftmodule" ]; then
    echo "api-check: $module is not built; run swift build first" >&2
    exit 1
  fi
  swift symbolgraph-extract -module-name "$module" -I "$built" -output-dir "$graphs" \
    -minimum-access-level public -skip-synthesized-members
  python3 .ci/api-listing.py "$module" "$graphs" >"$graphs/$module.txt"
done

if $update; then
  mkdir -p "$baseline"
  for module in "${modules[@]}"; do cp "$graphs/$module.txt" "$baseline/$module.txt"; done
  echo "api-check: wrote the baseline of ${modules[*]} to $baseline/. Commit it with a CHANGELOG line."
  exit 0
fi

failed=false
for module in "${modules[@]}"; do
  if ! diff -u --label "$baseline/$module.txt (baseline)" --label "$module (as built)" \
    "$baseline/$module.txt" "$graphs/$module.txt"; then
    failed=true
  fi
done
if $failed; then
  cat >&2 <<'TEXT'

api-check: the public API differs from the baseline (above: - lines left the API, + lines joined it).
If the change is meant, run `.ci/api-check.sh --update` and commit the baseline together with a
CHANGELOG.md line that says what changed. A removed or changed line breaks callers: from 1.0.0 on,
that takes a new major version (README.md, "Stability").
TEXT
  exit 1
fi
echo "ok   the public API of ${modules[*]} matches $baseline/"
[ "$baseline" = .ci/api ] || exit 0

# Every commit that changed the baseline changed CHANGELOG.md too. (A shallow clone sees only part
# of the history; the check covers what it sees.)
while read -r commit; do
  [ -n "$commit" ] || continue
  if ! git diff-tree --no-commit-id --name-only -r "$commit" | grep -qx CHANGELOG.md; then
    echo "api-check: commit $(git log -1 --format='%h %s' "$commit") changed $baseline/ but not CHANGELOG.md" >&2
    exit 1
  fi
done < <(git log --no-merges --format=%H -- "$baseline")
if [ -n "$(git status --porcelain -- "$baseline")" ] && [ -z "$(git status --porcelain -- CHANGELOG.md)" ]; then
  echo "api-check: $baseline/ has uncommitted changes but CHANGELOG.md has none" >&2
  exit 1
fi
echo "ok   each change of $baseline/ came with a CHANGELOG.md line"
