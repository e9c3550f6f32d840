#!/usr/bin/env bash
# GitHub round trips against a loopback server with a fixed latency per
# request (scripts/bench-pr.py): for `list --pr`, one `submit`, and a batch
# (`outbox retry --all`) of N decisions, the requests made, the most in flight
# at once, and the wall time, also in units of one request's latency.
#
# usage: scripts/bench-pr.sh [LATENCY_MS=150] [BATCH=5] [FINDINGS=20]
# Builds the release binary unless TRIAGE_BIN names one.
set -euo pipefail
latency=${1:-150}
batch=${2:-5}
findings=${3:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${TRIAGE_BIN:-}
if [[ -z "$bin" ]]; then
  (cd "$root" && cargo build --locked --release --quiet)
  bin="$root/target/release/triage"
fi
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
python3 "$root/scripts/bench-pr.py" "$work/port" "$latency" "$findings" "$work/result.json" &
server=$!
for _ in $(seq 100); do [[ -s "$work/port" ]] && break; sleep 0.05; done
port=$(cat "$work/port")
api="http://127.0.0.1:$port"
export GH_TOKEN=bench-token-not-a-secret TRIAGE_STATE_DIR="$work/state" GITHUB_API_URL="$api"
stats() { curl -s "$api/__stats"; }
now() { date +%s%N; }

printf '%-28s %9s %12s %10s %12s %s\n' "command" "requests" "most at once" "wall ms" "round trips" "304s"
row() { # name, start, end, stats json
  python3 - "$1" "$2" "$3" "$4" "$latency" <<'PY'
import json, sys
name, start, end, stats, latency = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), json.loads(sys.argv[4]), int(sys.argv[5])
wall = (end - start) / 1e6
print(f"{name:<28} {stats['requests']:>9} {stats['max_in_flight']:>12} {wall:>10.0f} {wall / latency:>12.1f} {stats['not_modified']}")
PY
}
run() { # name, command...
  local name=$1; shift
  stats >/dev/null
  local start end
  start=$(now)
  "$@" >/dev/null 2>"$work/stderr" || { echo "$name failed:"; cat "$work/stderr"; exit 1; }
  end=$(now)
  row "$name" "$start" "$end" "$(stats)"
}

run "list --pr" "$bin" list --pr 7 --repo bench/app
run "list --pr --format json" "$bin" list --pr 7 --repo bench/app --format json
run "submit (1 decision)" "$bin" submit --result "$work/result.json" --finding "defect:src.f0.rs:bench" \
  --status accepted --evidence "Seen in the bench."
curl -s -X POST "$api/__fail_posts/1" >/dev/null
for i in $(seq 1 "$batch"); do
  "$bin" submit --result "$work/result.json" --finding "defect:src.f$i.rs:bench" --status accepted \
    --evidence "Seen in the bench ($i)." >/dev/null 2>&1 || true
done
curl -s -X POST "$api/__fail_posts/0" >/dev/null
run "outbox retry --all ($batch)" "$bin" outbox retry --all
echo
echo "latency ${latency} ms per request; round trips = wall time / latency (process start included)."
echo "Conditional reads (304) pay off within one process (the screen's refresh); each command here is a new process."
