#!/usr/bin/env bash
# Runs the demos against the misbehaving server of .ci/hostile_server.py: each must end within its
# --timeout (plus slack) with a clear message, and stay under a memory ceiling. Called by .ci/run
# after a build; takes about half a minute.
set -euo pipefail
cd "$(dirname "$0")/.."

bin="$(swift build --show-bin-path)"
scratch="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$scratch"
}
trap cleanup EXIT

# The server exits by itself after three minutes, whatever happens to this script.
python3 .ci/hostile_server.py --lifetime 180 --handler-limit 30 >"$scratch/port" &
server_pid=$!
for _ in $(seq 1 100); do
  [ -s "$scratch/port" ] && break
  sleep 0.1
done
port="$(head -n 1 "$scratch/port")"
[ -n "$port" ] || { echo "FAIL: the hostile server did not start" >&2; exit 1; }
base="http://127.0.0.1:$port"

timeout_s=2
max_seconds=$((timeout_s + 3))
max_kb=$((200 * 1024))
if command -v /usr/bin/time >/dev/null && /usr/bin/time -v true >/dev/null 2>&1; then
  have_time=1
else
  have_time=0
fi

# measure OUT ERR CMD...: runs CMD (bounded by `timeout 30`), sets status, millis and peak_kb.
measure() {
  local out="$1" err="$2"
  shift 2
  local start end
  start="$(date +%s%N)"
  if [ "$have_time" = 1 ]; then
    status=0
    timeout 30 /usr/bin/time -v -o "$scratch/time" "$@" >"$out" 2>"$err" || status=$?
    peak_kb="$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$scratch/time")"
  else
    # No GNU time: read the peak (VmHWM) from /proc while it runs.
    status=0
    timeout 30 "$@" >"$out" 2>"$err" &
    local pid=$! hwm=0 now
    while kill -0 "$pid" 2>/dev/null; do
      # The demo is timeout's child.
      for child in $(pgrep -P "$pid" 2>/dev/null); do
        now="$(awk '/VmHWM/ { print $2 }' "/proc/$child/status" 2>/dev/null || echo 0)"
        [ "${now:-0}" -gt "$hwm" ] && hwm="$now"
      done
      sleep 0.05
    done
    wait "$pid" || status=$?
    peak_kb="$hwm"
  fi
  end="$(date +%s%N)"
  millis=$(((end - start) / 1000000))
}

# check NAME FILE TEXT: the demo ended in time, with status 0, TEXT in FILE, and bounded memory.
check() {
  local name="$1" file="$2" text="$3"
  if [ "$status" != 0 ] || [ "$millis" -gt $((max_seconds * 1000)) ] \
    || [ "${peak_kb:-0}" -gt "$max_kb" ] || ! grep -qF -- "$text" "$file"; then
    printf 'FAIL %s: status %s, %s ms, peak %s KB; expected %s in\n' \
      "$name" "$status" "$millis" "$peak_kb" "$text" >&2
    cat "$scratch/out" "$scratch/err" >&2
    exit 1
  fi
  printf 'ok   %-34s %5s ms %7s KB\n' "$name" "$millis" "$peak_kb"
}

while read -r misbehaviour facts_text stories_text; do
  facts_text="${facts_text//_/ }"
  stories_text="${stories_text//_/ }"
  measure "$scratch/out" "$scratch/err" \
    "$bin/facts" --taps 1 --timeout "$timeout_s" --source "$base/$misbehaviour"
  check "facts   /$misbehaviour" "$scratch/err" "Failed to load a fact: $facts_text"
  measure "$scratch/out" "$scratch/err" \
    "$bin/stories" --timeout "$timeout_s" --server "$base/$misbehaviour" app://users/007
  check "stories /$misbehaviour" "$scratch/out" "! Could not $stories_text"
  # The search waits out its 300 ms quiet period first, well within the slack.
  measure "$scratch/out" "$scratch/err" \
    "$bin/search" --script prime --timeout "$timeout_s" --source "$base/$misbehaviour"
  check "search  /$misbehaviour" "$scratch/out" "state: failed \"prime\": $facts_text"
done <<LIST
drip             no_answer_within_2_s         load_user:_no_answer_within_2_s
silent           no_answer_within_2_s         load_user:_no_answer_within_2_s
endless          response_larger_than_8_MiB   load_user:_response_larger_than_8_MiB
chunked          response_larger_than_8_MiB   load_user:_response_larger_than_8_MiB
huge             response_larger_than_8_MiB   load_user:_response_larger_than_8_MiB
length-huge-lie  response_larger_than_8_MiB   load_user:_response_larger_than_8_MiB
length-too-small malformed_response           read_user
length-too-big   no_answer_within_2_s         load_user:_no_answer_within_2_s
redirect         server_unreachable           load_user:_server_unreachable
LIST

# Escape sequences from the server reach neither the screen nor the log.
measure "$scratch/out" "$scratch/err" "$bin/facts" --taps 1 --source "$base/escape"
check "facts   /escape" "$scratch/err" 'log: \u{1B}[2J'
if grep -q $'\x1b' "$scratch/out" "$scratch/err"; then echo "FAIL facts /escape: ESC printed" >&2; exit 1; fi
measure "$scratch/out" "$scratch/err" "$bin/stories" --server "$base/escape" app://users/007
check "stories /escape" "$scratch/out" '\u{1B}[2J'
if grep -q $'\x1b' "$scratch/out"; then echo "FAIL stories /escape: ESC printed" >&2; exit 1; fi
measure "$scratch/out" "$scratch/err" "$bin/search" --script red --source "$base/escape"
check "search  /escape" "$scratch/out" 'result: "\u{1B}[2J'
if grep -q $'\x1b' "$scratch/out" "$scratch/err"; then echo "FAIL search /escape: ESC printed" >&2; exit 1; fi

# Output that cannot be written: a message and status 1, not a crash or a silent 0.
if [ -e /dev/full ]; then
  status=0
  "$bin/facts" --taps 1 --delay 0 >/dev/full 2>"$scratch/err" || status=$?
  [ "$status" = 1 ] && grep -q "cannot write to standard output" "$scratch/err" \
    || { echo "FAIL facts >/dev/full: status $status" >&2; cat "$scratch/err" >&2; exit 1; }
  status=0
  "$bin/stories" --delay 0 app://users/007 >/dev/full 2>"$scratch/err" || status=$?
  [ "$status" = 1 ] && grep -q "cannot write to standard output" "$scratch/err" \
    || { echo "FAIL stories >/dev/full: status $status" >&2; cat "$scratch/err" >&2; exit 1; }
  status=0
  "$bin/search" --script prime --delay 0 >/dev/full 2>"$scratch/err" || status=$?
  [ "$status" = 1 ] && grep -q "cannot write to standard output" "$scratch/err" \
    || { echo "FAIL search >/dev/full: status $status" >&2; cat "$scratch/err" >&2; exit 1; }
  echo "ok   the demos report a full disk"
fi
echo "The demos withstand the hostile server."
