#!/usr/bin/env bash
# GitHub round trips against a loopback server with a fixed latency per
# request (scripts/bench-pr.py): for `list --pr`, one `submit`, and a batch
# (`outbox retry --all`) of N decisions, the requests made, the most in flight
# at once, the connections opened for them, the wall time, also in units of
# one request's latency (wall/latency: the protocol's round trips plus the
# process's own time), and the dependent rounds the server saw (the longest
# chain of requests each sent after the previous one's answer: the protocol's
# round trips alone).
#
# usage: scripts/bench-pr.sh [LATENCY_MS=150] [BATCH=5] [FINDINGS=20] [REPEAT=1]
# Builds the release binary unless TRIAGE_BIN names one. With REPEAT > 1,
# `list --pr` and `submit` run that many times (each submit a decision on
# another finding) and the row shows the median wall time; the batch runs once.
set -euo pipefail
latency=${1:-150}
batch=${2:-5}
findings=${3:-20}
repeat=${4:-1}
(( findings > batch + repeat )) || { echo "FINDINGS must exceed BATCH + REPEAT" >&2; exit 2; }
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

printf '%-28s %9s %12s %12s %10s %13s %7s %s\n' "command" "requests" "most at once" "connections" "wall ms" \
  "wall/latency" "rounds" "304s"
row() { # name, stats json, wall times in ns...
  python3 - "$latency" "$@" <<'PY'
import json, statistics, sys
latency, name, stats = int(sys.argv[1]), sys.argv[2], json.loads(sys.argv[3])
wall = statistics.median(float(w) for w in sys.argv[4:]) / 1e6
print(f"{name:<28} {stats['requests']:>9} {stats['max_in_flight']:>12} {stats['connections']:>12} {wall:>10.0f}"
      f" {wall / latency:>13.1f} {stats['rounds']:>7} {stats['not_modified']}")
PY
}
once() { # command... (prints the wall time in ns; the stats are those of this run)
  stats >/dev/null
  local start end
  start=$(now)
  "$@" >/dev/null 2>"$work/stderr" || { echo "failed: $*" >&2; cat "$work/stderr" >&2; kill -TERM $$; exit 1; }
  end=$(now)
  echo $((end - start))
}
run() { # name, times, command... (a command whose runs are alike)
  local name=$1 times=$2 walls=() i
  shift 2
  for ((i = 0; i < times; i++)); do walls+=("$(once "$@")"); done
  row "$name" "$(stats)" "${walls[@]}"
}
submit_one() { # finding index
  "$bin" submit --result "$work/result.json" --finding "defect:src.f$1.rs:bench" --status accepted \
    --evidence "Seen in the bench ($1)."
}

run "list --pr" "$repeat" "$bin" list --pr 7 --repo bench/app
run "list --pr --format json" "$repeat" "$bin" list --pr 7 --repo bench/app --format json
# Findings 1..BATCH fill the outbox below; the submits take the ones after.
walls=()
for ((i = 0; i < repeat; i++)); do walls+=("$(once submit_one $((batch + 1 + i)))"); done
row "submit (1 decision)" "$(stats)" "${walls[@]}"
curl -s -X POST "$api/__fail_posts/1" >/dev/null
for i in $(seq 1 "$batch"); do
  "$bin" submit --result "$work/result.json" --finding "defect:src.f$i.rs:bench" --status accepted \
    --evidence "Seen in the bench ($i)." >/dev/null 2>&1 || true
done
curl -s -X POST "$api/__fail_posts/0" >/dev/null
run "outbox retry --all ($batch)" 1 "$bin" outbox retry --all
echo
echo "latency ${latency} ms per request; wall/latency = wall time / latency (process start included);"
echo "rounds = the longest chain of requests each sent after the previous one's answer (server clock)."
echo "wall ms: the median of $repeat run(s) (the batch: one); requests, most at once, connections, rounds: the last run."
echo "Conditional reads (304) pay off within one process (the screen's refresh); each command here is a new process."
