#!/usr/bin/env bash
# Measures how long the screen takes to quit on ctrl-c when one finding
# carries 10,000 evidence items (a valid agent result under the 1 MiB cap):
# the time from sending the key to the program's exit, in a real terminal
# (tmux). Prints the figures; asserts nothing about time.
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

for run in 1 2 3; do
  rm -f "$work/status"
  tmx new-session -d -s lat -x 120 -y 40 \
    "env TRIAGE_STATE_DIR=$(printf '%q' "$work/state") LANG=C.UTF-8 TERM=xterm-256color $(printf '%q' "$bin") $(printf '%q' "$work/big.json"); echo \$? > $(printf '%q' "$work/status"); sleep 5"
  wait_for "Evidence ($items)"
  # Scroll the evidence pane to the end first: the work that used to freeze.
  tmx send-keys -t lat Tab Tab G
  wait_for "item $((items - 1))"
  start=$(date +%s%N)
  tmx send-keys -t lat C-c
  until [ -s "$work/status" ]; do sleep 0.001; done
  end=$(date +%s%N)
  echo "run $run: ctrl-c to exit $(( (end - start) / 1000000 )) ms (exit status $(cat "$work/status"))"
  tmx kill-session -t lat 2>/dev/null || true
done
