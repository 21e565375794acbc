#!/usr/bin/env bash
# Loads the inspector page in a real browser (issue 26 part 4, issue 34 item 13): Chromium from the
# system's packages, installed here if it is missing, opens a page that `decisions-inspect` made
# from a recording that `search --record` wrote, headless, and must show
#   - no console message but the page's own self-test verdict (no uncaught error, no refused load);
#   - the right number of steps;
#   - after a click on a step, that step's section and diff, and no other.
# The page checks itself when its URL ends in #selftest (see InspectorPageAssets.swift): it clicks a
# step, presses the arrow keys, filters, times a few clicks and arrow keys, and writes
# "PASS steps=N clicked=K click=Tms key=Tms medians=Tms,Tms" into <output id="selftest">, which the
# dumped document shows; this script checks the document too, and runs two sabotaged copies of the
# page to see that the checks can fail.
#
# A second page, which InspectorDiagramTests writes, has an exploration drawn as a diagram: its
# self-test also counts the diagram's states and arrows and clicks a visited state, which must show
# that state's first step; the script checks the states against the list of explored states in the
# dumped document, and that a copy whose diagram ignores clicks fails.
#
# A third page, which SearchInspectorPageTests writes, has 100,000 steps of the search feature: it
# must load and pass its self-test within the browser's time limit, and a click or an arrow key must
# take under 16 ms (the fastest of the 15 of each that the self-test times in the page, so that a
# busy machine's pauses do not count; the medians are printed too); a copy whose clicks do work
# proportional to the number of steps must fail that check.
#
# Usage: .ci/inspector-browser.sh [--screenshot FILE] [--diagram-screenshot FILE]   (FILE: where to
# copy the screenshot of the first page, such as Docs/images/inspector.png, or of the second).
# Exits non-zero, saying what failed, on any failure. Takes about a minute after a build.
set -euo pipefail
cd "$(dirname "$0")/.."

screenshot_copy=""
diagram_copy=""
while [ $# -gt 0 ]; do
  case "$1" in
    --screenshot) screenshot_copy="${2:?--screenshot needs a file}"; shift 2 ;;
    --diagram-screenshot) diagram_copy="${2:?--diagram-screenshot needs a file}"; shift 2 ;;
    *) echo "usage: $0 [--screenshot FILE] [--diagram-screenshot FILE]" >&2; exit 2 ;;
  esac
done

fail() { printf 'FAIL inspector-browser: %s\n' "$*" >&2; exit 1; }

# --- Chromium, from the system's packages if it is missing

find_browser() { command -v chromium || command -v chromium-browser || true; }
browser="$(find_browser)"
if [ -z "$browser" ]; then
  command -v apt-get >/dev/null || fail "no chromium, and no apt-get to install it"
  [ "$(id -u)" = 0 ] || fail "no chromium; run as root to install it, or apt-get install chromium"
  echo "Installing chromium from the system's packages"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null || fail "apt-get update failed"
  apt-get install -y -qq chromium >/dev/null || fail "apt-get install chromium failed"
  browser="$(find_browser)"
  [ -n "$browser" ] || fail "chromium is installed but not on the PATH"
fi
"$browser" --version 2>/dev/null

# --- A recording from the search demo, and its page

# NB: the flags .ci/run gives every build (see there); none when run by hand.
read -ra flags <<<"${DECISIONS_CI_SWIFT_FLAGS:-}"
swift build "${flags[@]}" --product search >/dev/null
swift build "${flags[@]}" --product decisions-inspect >/dev/null
bin="$(swift build --show-bin-path)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

"$bin/search" --script "c;cu;cube;:settle;prime;:settle;perfect;:settle;" --delay 0 \
  --record "$scratch/session.json" >/dev/null || fail "search --record failed"
"$bin/decisions-inspect" "$scratch/session.json" --out "$scratch/page.html" \
  || fail "decisions-inspect failed"
expected="$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["events"]))' \
  "$scratch/session.json")"
[ "$expected" -gt 2 ] || fail "the recording has only $expected events"

# run_browser NAME ARGS...: runs headless Chromium with its log in $scratch/NAME.log.
run_browser() {
  local name="$1"
  shift
  # NB: --no-sandbox because CI runs as root; no network at all, whatever the page asks for.
  timeout 60 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
    --disable-extensions --disable-sync --disable-background-networking --hide-scrollbars \
    --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$scratch/profile-$name" \
    --enable-logging=stderr --v=0 "$@" 2>"$scratch/$name.log"
}

# console_problems NAME: the page's console messages other than its self-test verdict.
console_problems() {
  grep -E ':CONSOLE[:(]' "$scratch/$1.log" | grep -v '"inspector self-test: PASS ' || true
}

# dom_check FILE EXPECTED [STATES]: checks the dumped document; prints the clicked step, or why it
# is wrong. With STATES, the page has a diagram of that many explored states, which its self-test
# clicked.
dom_check() {
  python3 - "$1" "$2" "${3:-}" <<'PY'
import re, sys
from html.parser import HTMLParser

class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.items, self.open_sections, self.stack, self.verdict = 0, [], [], ""
        self.in_output, self.in_open, self.open_changes = False, False, 0
        self.nodes, self.edges, self.current, self.listed, self.drawn_edges = 0, 0, [], 0, None
        self.in_list, self.selected = False, []
    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "svg" and attrs.get("id") == "diagram-graph":
            self.drawn_edges = int(attrs.get("data-edges") or -1)
        if tag == "g" and "node" in classes and "data-node" in attrs:
            self.nodes += 1
            if "current" in classes:
                self.current.append((attrs.get("data-visits") or "").split())
        if tag == "g" and "edge" in classes:
            self.edges += 1
        if tag == "ol" and attrs.get("start") == "0":
            self.in_list = True
        elif tag == "li" and self.in_list:
            self.listed += 1
        if tag == "li" and "data-step" in attrs and self.stack and self.stack[-1] == "steps":
            self.items += 1
            if "selected" in classes:
                self.selected.append(attrs.get("data-step"))
        if tag == "ol" and attrs.get("id") == "steps":
            self.stack.append("steps")
        elif tag == "ol":
            self.stack.append("ol")
        if tag == "section" and "detail" in classes:
            self.in_open = "hidden" not in attrs
            if self.in_open:
                self.open_sections.append(attrs.get("data-step"))
        if tag == "span" and self.in_open and ("add" in classes or "del" in classes):
            self.open_changes += 1
        if tag == "output" and attrs.get("id") == "selftest":
            self.in_output = True
    def handle_endtag(self, tag):
        if tag == "ol" and self.stack:
            self.stack.pop()
        if tag == "ol":
            self.in_list = False
        if tag == "section":
            self.in_open = False
        if tag == "output":
            self.in_output = False
    def handle_data(self, data):
        if self.in_output:
            self.verdict += data

page = Page()
page.feed(open(sys.argv[1], encoding="utf-8").read())
expected = int(sys.argv[2])
states = int(sys.argv[3]) if sys.argv[3] else None
pattern = r"PASS steps=(\d+) clicked=(\d+)"
if states is not None:
    pattern += r" nodes=(\d+) edges=(\d+) jumped=(\d+)"
pattern += r" click=(?P<click>[\d.]+)ms key=(?P<key>[\d.]+)ms medians=(?P<medians>[\d.]+ms,[\d.]+ms)"
match = re.fullmatch(pattern, page.verdict.strip())
problems = []
if not match:
    problems.append("the self-test says %r" % page.verdict.strip())
elif int(match.group(1)) != expected:
    problems.append("the self-test counted %s steps, not %d" % (match.group(1), expected))
if states is not None:
    if page.nodes != states or page.listed != states:
        problems.append("the diagram has %d states and the list %d, not %d"
                        % (page.nodes, page.listed, states))
    if match and int(match.group(3)) != states:
        problems.append("the self-test counted %s states, not %d" % (match.group(3), states))
    if page.drawn_edges is None or page.edges != page.drawn_edges or page.edges == 0:
        problems.append("the diagram has %d arrows, and says %s" % (page.edges, page.drawn_edges))
    # After its clicks the self-test goes back to the clicked step: its state is the one marked.
    if match and (len(page.current) != 1 or match.group(2) not in page.current[0]):
        problems.append("the states marked as the clicked step's are %s" % page.current)
elif page.nodes:
    problems.append("a page without an exploration has a diagram")
# The timeline draws only the rows in view, and a few around them.
if not 0 < page.items <= min(expected, 200):
    problems.append("the timeline draws %d rows of %d steps" % (page.items, expected))
clicked = match.group(2) if match else "?"
if match and page.selected != [clicked]:
    problems.append("the rows marked are %s, not the clicked step %s" % (page.selected, clicked))
if match and max(float(match.group("click")), float(match.group("key"))) >= 16:
    problems.append("a click or a key takes %s ms" % match.group("click") + "/" + match.group("key"))
if page.open_sections != [clicked]:
    problems.append("the open sections are %s, not the clicked step %s" % (page.open_sections, clicked))
if page.open_changes == 0:
    problems.append("the open section shows no diff line")
timing = " click=%sms key=%sms (the fastest; medians %s)" % (
    match.group("click"), match.group("key"), match.group("medians")) if match else ""
print("; ".join(problems) if problems else "clicked=" + clicked + timing)
sys.exit(1 if problems else 0)
PY
}

# --- The page, clicked and typed into by its self-test

run_browser selftest --virtual-time-budget=5000 --dump-dom "file://$scratch/page.html#selftest" \
  >"$scratch/dom.html" || fail "chromium failed on the page (exit $?): $(tail -n 3 "$scratch/selftest.log")"
problems="$(console_problems selftest)"
[ -z "$problems" ] || fail "console messages: $problems"
grep -q '"inspector self-test: PASS ' "$scratch/selftest.log" \
  || fail "the self-test's verdict is not in the browser's console log"
result="$(dom_check "$scratch/dom.html" "$expected")" || fail "$result"
clicked="${result#clicked=}"
timing="${clicked#* }"
clicked="${clicked%% *}"
echo "ok: $expected steps, no console errors, a click on step $clicked shows its diff ($timing)"

# --- The checks can fail: a page whose clicks do nothing, and a page whose script throws

sed "s/addEventListener('click'/addEventListener('inert'/" "$scratch/page.html" >"$scratch/inert.html"
run_browser inert --virtual-time-budget=5000 --dump-dom "file://$scratch/inert.html#selftest" \
  >"$scratch/inert-dom.html" || fail "chromium failed on the sabotaged page"
if result="$(dom_check "$scratch/inert-dom.html" "$expected")"; then
  fail "a page whose clicks do nothing passed: $result"
fi
sed 's|})();</script>|throw new Error("planted"); })();</script>|' "$scratch/page.html" \
  >"$scratch/throws.html"
run_browser throws --virtual-time-budget=5000 --dump-dom "file://$scratch/throws.html#selftest" \
  >/dev/null || fail "chromium failed on the throwing page"
console_problems throws | grep -q 'Uncaught Error: planted' \
  || fail "an uncaught error was not seen in the console log"
echo "ok: a page whose clicks do nothing fails, and an uncaught error is seen"

# --- A page with an exploration drawn: the keypad's last digits, 31 states (InspectorDiagramTests),
# and a page of 100,000 steps of the search feature (SearchInspectorPageTests)

# NB: .ci/run's `swift test` sets the two variables, so the tests have written both pages already;
# run by hand, the script runs the two tests.
if [ -s "${DECISIONS_INSPECTOR_DIAGRAM_PAGE:-}" ] && [ -s "${DECISIONS_INSPECTOR_LONG_PAGE:-}" ]; then
  cp "$DECISIONS_INSPECTOR_DIAGRAM_PAGE" "$scratch/diagram.html"
  cp "$DECISIONS_INSPECTOR_LONG_PAGE" "$scratch/long.html"
else
  DECISIONS_INSPECTOR_DIAGRAM_PAGE="$scratch/diagram.html" \
    DECISIONS_INSPECTOR_LONG_PAGE="$scratch/long.html" \
    swift test "${flags[@]}" --filter 'InspectorDiagramTests/thePageTheBrowserChecks|SearchInspectorPageTests' \
    >"$scratch/test.log" 2>&1 \
    || fail "the tests that write the diagram's page and the long page failed: $(tail -n 5 "$scratch/test.log")"
fi
[ -s "$scratch/diagram.html" ] || fail "the test wrote no page with a diagram"
[ -s "$scratch/long.html" ] || fail "the test wrote no page of 100,000 steps"
read -r diagram_steps diagram_states < <(python3 -c '
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
listed = page[page.index("<ol start=\"0\">"):]
listed = listed[:listed.index("</ol>")]
print(re.search(r"<body data-steps=\"(\d+)\">", page).group(1), listed.count("<li"))
' "$scratch/diagram.html") || fail "the diagram's page has no list of explored states"
[ "$diagram_states" -gt 2 ] || fail "the diagram's page lists only $diagram_states states"
run_browser diagram --virtual-time-budget=5000 --dump-dom "file://$scratch/diagram.html#selftest" \
  >"$scratch/diagram-dom.html" || fail "chromium failed on the diagram's page"
problems="$(console_problems diagram)"
[ -z "$problems" ] || fail "console messages on the diagram's page: $problems"
result="$(dom_check "$scratch/diagram-dom.html" "$diagram_steps" "$diagram_states")" \
  || fail "the diagram's page: $result"
echo "ok: a diagram of $diagram_states states; a click on a visited state shows its step"
sed "s/explored.addEventListener('click'/explored.addEventListener('inert'/" \
  "$scratch/diagram.html" >"$scratch/diagram-inert.html"
run_browser diagram-inert --virtual-time-budget=5000 \
  --dump-dom "file://$scratch/diagram-inert.html#selftest" >"$scratch/diagram-inert-dom.html" \
  || fail "chromium failed on the sabotaged diagram"
if result="$(dom_check "$scratch/diagram-inert-dom.html" "$diagram_steps" "$diagram_states")"; then
  fail "a diagram whose states ignore clicks passed: $result"
fi
grep -q 'FAIL clicking state' "$scratch/diagram-inert-dom.html" \
  || fail "a diagram whose states ignore clicks failed for another reason"
echo "ok: a diagram whose states ignore clicks fails"

# --- 100,000 steps: the page loads, passes its self-test, and a click or a key takes under 16 ms

long_bytes="$(wc -c <"$scratch/long.html")"
[ "$long_bytes" -le $((64 << 20)) ] || fail "the page of 100,000 steps takes $long_bytes bytes"
started="$(date +%s%N)"
run_browser long --virtual-time-budget=5000 --dump-dom "file://$scratch/long.html#selftest" \
  >"$scratch/long-dom.html" || fail "chromium failed on the page of 100,000 steps (exit $?): $(tail -n 3 "$scratch/long.log")"
millis="$(( ($(date +%s%N) - started) / 1000000 ))"
problems="$(console_problems long)"
[ -z "$problems" ] || fail "console messages on the page of 100,000 steps: $problems"
result="$(dom_check "$scratch/long-dom.html" 100000)" || fail "the page of 100,000 steps: $result"
echo "ok: 100,000 steps in $long_bytes bytes, opened and checked in ${millis} ms: ${result}"

# A copy whose every click does work for each step, as the page did before, must fail the timing.
sed 's|function select(step) {|function select(step) { for (var z = 0; z < 10 * count; z++) { list.setAttribute("data-z", lineOf(1 + z % count)); }|' \
  "$scratch/long.html" >"$scratch/long-slow.html"
run_browser long-slow --virtual-time-budget=5000 --dump-dom "file://$scratch/long-slow.html#selftest" \
  >"$scratch/long-slow-dom.html" || fail "chromium failed on the sabotaged page of 100,000 steps"
grep -q 'FAIL a click takes [0-9.]* ms' "$scratch/long-slow-dom.html" \
  || fail "a page whose clicks take time for each step passed: $(grep -o 'PASS[^<]*\|FAIL[^<]*' "$scratch/long-slow-dom.html" | head -n 1)"
echo "ok: a page whose clicks take time for each step fails"

# --- A screenshot, at the step that types "prime" over the cube results: a decision and a diff

shown="$(python3 -c '
import json, sys
events = json.load(open(sys.argv[1]))["events"]
print(next(i + 1 for i, e in enumerate(events) if "queryChanged" in json.dumps(e) and "\"prime\"" in json.dumps(e)))
' "$scratch/session.json")" || fail "the recording has no step that types \"prime\""
run_browser screenshot --window-size=1280,800 --virtual-time-budget=3000 \
  --screenshot="$scratch/inspector.png" "file://$scratch/page.html#step-$shown" \
  || fail "chromium could not take a screenshot"
python3 - "$scratch/inspector.png" <<'PY' || fail "the screenshot is not a 1280x800 PNG"
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
assert struct.unpack(">II", data[16:24]) == (1280, 800)
PY
if [ -n "$screenshot_copy" ]; then
  cp "$scratch/inspector.png" "$screenshot_copy"
  echo "ok: screenshot in $screenshot_copy"
else
  echo "ok: screenshot taken"
fi
run_browser diagram-screenshot --window-size=1280,800 --virtual-time-budget=3000 \
  --screenshot="$scratch/diagram.png" "file://$scratch/diagram.html#step-5" \
  || fail "chromium could not take a screenshot of the diagram"
if [ -n "$diagram_copy" ]; then
  cp "$scratch/diagram.png" "$diagram_copy"
  echo "ok: screenshot of the diagram in $diagram_copy"
fi
