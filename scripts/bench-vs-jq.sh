#!/usr/bin/env bash
# Compares `triage list --repair-set --format tsv` with the documented jq
# task-list pipeline on generated agent results: checks the output is
# byte-for-byte identical, then reports the median wall time of each over
# several runs (validation included on triage's side).
#
# Usage: scripts/bench-vs-jq.sh [RUNS]   (needs jq; builds in release)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -n ${EPOCHREALTIME:-} ]] || { echo "bash 5 or later is required (EPOCHREALTIME)" >&2; exit 2; }
runs=${1:-31}
command -v jq >/dev/null || { echo "jq is required (apt-get install jq)" >&2; exit 2; }
cargo build --release --quiet --bin triage --example synth_review
bin=target/release/triage
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

filter='.findings[]
  | select(.disposition == "still_open" and .blocking_reason != null)
  | [ .severity, .semantic_fingerprint, (.path // "PR"), (.line // "-"), (.claim // .suggested_fix) ]
  | @tsv'

# Wall time from bash's own clock ($EPOCHREALTIME, microseconds): no
# process is started to read the time, so what is measured is the command
# alone (its fork and exec included, the same for both tools).
median_ms() { # command... ; prints the median wall time in ms over $runs runs
  local times=()
  "$@" >/dev/null # one unmeasured run: file and binary in the page cache
  for _ in $(seq "$runs"); do
    local t0=${EPOCHREALTIME/[.,]/}
    "$@" >/dev/null
    local t1=${EPOCHREALTIME/[.,]/}
    times+=($(( 10#$t1 - 10#$t0 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]/1000}'
}

printf '%-10s %12s %10s %10s %8s\n' size bytes jq_ms triage_ms speedup
for size in 65536 262144 1048576; do
  f="$work/result-$size.json"
  target/release/examples/synth_review agent-result "$size" 7 > "$f"
  jq -r "$filter" "$f" > "$work/jq.tsv"
  "$bin" list "$f" --repair-set --format tsv > "$work/triage.tsv"
  if ! cmp -s "$work/jq.tsv" "$work/triage.tsv"; then
    echo "output differs from jq for size $size:" >&2
    diff <(head -c 2000 "$work/jq.tsv") <(head -c 2000 "$work/triage.tsv") >&2 || true
    exit 1
  fi
  jq_ms=$(median_ms jq -r "$filter" "$f")
  tr_ms=$(median_ms "$bin" list "$f" --repair-set --format tsv)
  speedup=$(awk -v a="$jq_ms" -v b="$tr_ms" 'BEGIN {printf "%.1fx", a/b}')
  printf '%-10s %12s %10s %10s %8s\n' "$size" "$(wc -c < "$f")" "$jq_ms" "$tr_ms" "$speedup"
done
echo "outputs identical to jq: yes ($(wc -l < "$work/jq.tsv") lines at the largest size)"
