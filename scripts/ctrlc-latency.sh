#!/usr/bin/env bash
# Measures how long the screen takes to answer keys on inputs that used to
# freeze it, in a real terminal (tmux): the time from sending the keys to
# the program's exit. Prints the figures; asserts nothing about time.
#
#   evidence  one finding carries ITEMS evidence items (a valid agent result
#             under the 1 MiB cap); the evidence pane is scrolled to its end,
#             then ctrl-c.
#   field     one finding of a valid v3 review output has 10 MiB of text in
#             one field (its title); `j` and `k` select another finding and
#             come back (the detail pane is rebuilt twice), then ctrl-c, all
#             sent at once; and ctrl-c alone on the settled screen.
#
# Usage: scripts/ctrlc-latency.sh [path/to/triage] [items]   (needs tmux and jq)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/target/release/triage}
items=${2:-10000}
command -v tmux >/dev/null || { echo "ctrlc-latency: tmux is not installed" >&2; exit 2; }
command -v jq >/dev/null || { echo "ctrlc-latency: jq is not installed" >&2; exit 2; }
[ -x "$bin" ] || { echo "ctrlc-latency: build the binary first ($bin)" >&2; exit 2; }

work=$(mktemp -d)
socket="triage-latency-$$"
tmx() { tmux -u -L "$socket" "$@"; }
cleanup() { tmx kill-server 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

jq -c --argjson n "$items" '.findings[0].evidence = [range($n) as $i |
    {path: "a.py", side: "new", line: (1 + $i), excerpt: "x", reason: "item \($i)"}]' \
  "$root/tests/fixtures/conformance/agent-result/valid-scope-pull-request.json" > "$work/big.json"
echo "input: $(wc -c < "$work/big.json") bytes, $items evidence items on one finding"

wait_for() {
  for _ in $(seq 1 2000); do
    if tmx capture-pane -p -t lat 2>/dev/null | grep -qF -- "$1"; then return 0; fi
    sleep 0.01
  done
  echo "ctrlc-latency: screen never showed: $1" >&2; tmx capture-pane -p -t lat >&2 || true; exit 1
}

# open FILE: starts the screen on FILE in a fresh tmux session.
open_screen() {
  rm -f "$work/status"
  tmx new-session -d -s lat -x 120 -y 40 \
    "env TRIAGE_STATE_DIR=$(printf '%q' "$work/state") LANG=C.UTF-8 TERM=xterm-256color $(printf '%q' "$bin") $(printf '%q' "$1"); echo \$? > $(printf '%q' "$work/status"); sleep 5"
}

# timed LABEL KEY...: sends the keys at once, waits for the exit, prints the time.
timed() {
  local label=$1 start end
  shift
  start=$(date +%s%N)
  tmx send-keys -t lat "$@"
  until [ -s "$work/status" ]; do sleep 0.001; done
  end=$(date +%s%N)
  echo "  $label: $(( (end - start) / 1000000 )) ms (exit status $(cat "$work/status"))"
  tmx kill-session -t lat 2>/dev/null || true
}

for run in 1 2 3; do
  open_screen "$work/big.json"
  wait_for "Evidence ($items)"
  # Scroll the evidence pane to the end first: the work that used to freeze.
  tmx send-keys -t lat Tab Tab G
  wait_for "item $((items - 1))"
  timed "evidence run $run: ctrl-c to exit" C-c
done

jq -c '.findings[0].title = ("word " * 2097152)' \
  "$root/tests/fixtures/conformance/artifact/valid-code-fingerprint-canonicalization.json" > "$work/field.json"
echo "input: $(wc -c < "$work/field.json") bytes, 10 MiB of text in the title of the first of $(jq '.findings | length' "$work/field.json") findings"
# The findings are advisory, so the screen opens on an empty repair set:
# `2` shows them all, with the first one (the 10 MiB title) selected.
show_all() {
  open_screen "$work/field.json"
  wait_for "Repair set"
  tmx send-keys -t lat 2
  wait_for "word word word"
}
for run in 1 2 3; do
  show_all
  timed "field run $run: j k ctrl-c to exit" j k C-c
  show_all
  timed "field run $run: ctrl-c to exit" C-c
done
