#!/usr/bin/env bash
# Times `triage` beside its peers on generated review documents:
#
#   list    `triage list FILE --repair-set --format tsv` against the same
#           selection written as a jq filter, run by jq, gojq and jaq; every
#           output is checked byte for byte against triage's before timing.
#   floor   serde_json parsing the file into a Value and nothing else
#           (examples/parse_floor.rs): the least any strict reader can cost.
#   tiny    `triage validate` of a small agent result against
#           `triage --version` (the process start alone) and `gojq -n 1`.
#   large   `triage list` of a 50 MB v3 review output, and the peak RSS of
#           list, project, fingerprints and validate of it.
#   linear  CPU per finding of `list` at 10k and at 100k findings.
#
# Runs are interleaved (one of each command per round, in turn), so a
# change in machine load hits every command alike; the median of the
# rounds is printed, and each peer's ratio to triage (above 1: triage is
# faster). Wall time comes from bash's own clock ($EPOCHREALTIME), so no
# process is started to read it.
#
# Missing peers are installed: jq and gojq with apt-get, jaq with
# `cargo install --locked jaq` into a cache directory (PEERS_DIR, default
# ~/.cache/triage-bench-peers; a few minutes of compiling, once). A peer
# that cannot be installed is skipped with a note saying why (offline, no
# cargo ...); NO_INSTALL=1 skips every missing one.
#
# Usage: scripts/bench-vs-peers.sh [ROUNDS]   (default 31; builds in release)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -n ${EPOCHREALTIME:-} ]] || { echo "bash 5 or later is required (EPOCHREALTIME)" >&2; exit 2; }
rounds=${1:-31}

peers_dir=${PEERS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/triage-bench-peers}
export PATH="$peers_dir/bin:$PATH"
install_peer() { # name
  command -v "$1" >/dev/null && return 0
  [[ ${NO_INSTALL:-0} == 1 ]] && { echo "note: $1 is not installed; it is skipped" >&2; return 0; }
  local log
  log=$(mktemp)
  case $1 in
    jq|gojq) { [[ $(id -u) == 0 ]] && apt-get install -y -qq "$1" >"$log" 2>&1; } \
               || { apt-get update -qq >"$log" 2>&1 && apt-get install -y -qq "$1" >>"$log" 2>&1; } || true ;;
    jaq) echo "note: installing jaq into $peers_dir (cargo install --locked jaq)" >&2
         cargo install --locked --quiet --root "$peers_dir" jaq >"$log" 2>&1 || true ;;
  esac
  if ! command -v "$1" >/dev/null; then
    echo "note: $1 is not installed and could not be (offline?); it is skipped. The installer said:" >&2
    tail -n 3 "$log" | sed 's/^/  /' >&2
  fi
  rm -f "$log"
  return 0
}
peers=()
for p in jq gojq jaq; do
  install_peer "$p"
  command -v "$p" >/dev/null && peers+=("$p")
done

# The examples first, then the binary on its own: built in one command, the
# binary would get the features the examples' dev-dependencies turn on
# (wiremock's HTTP/2 among them) and would not be the binary users run.
cargo build --release --quiet --example synth_review --example parse_floor
cargo build --release --quiet --bin triage
bin=target/release/triage
floor=target/release/examples/parse_floor
synth=target/release/examples/synth_review
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

filter='.findings[]
  | select(.disposition == "still_open" and .blocking_reason != null)
  | [ .severity, .semantic_fingerprint, (.path // "PR"), (.line // "-"), (.claim // .suggested_fix) ]
  | @tsv'

# interleaved NAME... -- each NAME is a function taking no arguments; prints
# "NAME MEDIAN_MS" per name, medians over $rounds interleaved rounds.
interleaved() {
  local names=("$@") n
  declare -A all=()
  for n in "${names[@]}"; do "$n" >/dev/null; all[$n]=""; done # warm the page cache
  for _ in $(seq "$rounds"); do
    for n in "${names[@]}"; do
      local t0=${EPOCHREALTIME/[.,]/}
      "$n" >/dev/null
      local t1=${EPOCHREALTIME/[.,]/}
      all[$n]+="$(( 10#$t1 - 10#$t0 )) "
    done
  done
  for n in "${names[@]}"; do
    printf '%s %s\n' "$n" "$(tr ' ' '\n' <<<"${all[$n]}" | grep . | sort -n \
      | awk '{a[NR]=$1} END {printf "%.2f", a[int((NR+1)/2)]/1000}')"
  done
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a/b}'; }

run_triage() { "$bin" list "$f" --repair-set --format tsv; }
run_jq() { jq -r "$filter" "$f"; }
run_gojq() { gojq -r "$filter" "$f"; }
run_jaq() { jaq -r "$filter" "$f"; }
run_floor() { "$floor" "$f"; }

echo "list --repair-set --format tsv, median ms of $rounds interleaved rounds (ratio = peer / triage)"
printf '%-9s %10s %9s %9s' size bytes triage floor
for p in "${peers[@]}"; do printf ' %9s %7s' "$p" ratio; done
printf '\n'
for size in 65536 262144 1048576; do
  f="$work/result-$size.json"
  "$synth" agent-result "$size" 7 > "$f"
  run_triage > "$work/triage.tsv"
  for p in "${peers[@]}"; do
    "run_$p" > "$work/$p.tsv"
    if ! cmp -s "$work/triage.tsv" "$work/$p.tsv"; then
      echo "$p's output differs from triage's at size $size:" >&2
      diff <(head -c 2000 "$work/$p.tsv") <(head -c 2000 "$work/triage.tsv") >&2 || true
      exit 1
    fi
  done
  declare -A ms=()
  while read -r name value; do ms[$name]=$value; done < <(interleaved run_triage run_floor "${peers[@]/#/run_}")
  printf '%-9s %10s %9s %9s' "$size" "$(wc -c < "$f")" "${ms[run_triage]}" "${ms[run_floor]}"
  for p in "${peers[@]}"; do printf ' %9s %7s' "${ms[run_$p]}" "$(ratio "${ms[run_$p]}" "${ms[run_triage]}")"; done
  printf '  triage/floor %s\n' "$(ratio "${ms[run_triage]}" "${ms[run_floor]}")"
done
echo "outputs identical to triage's: ${peers[*]} ($(wc -l < "$work/triage.tsv") lines at the largest size)"

echo
echo "fixed cost, median ms of $rounds interleaved rounds"
tiny="$work/tiny.json"
cp assets/demo-agent-result.json "$tiny"
run_validate() { "$bin" validate "$tiny"; }
run_version() { "$bin" --version; }
run_gojq_n() { gojq -n 1; }
names=(run_validate run_version)
command -v gojq >/dev/null && names+=(run_gojq_n)
declare -A fixed=()
while read -r name value; do fixed[$name]=$value; done < <(interleaved "${names[@]}")
printf 'validate (%s bytes) %s   --version %s   validate - --version %s' "$(wc -c < "$tiny")" \
  "${fixed[run_validate]}" "${fixed[run_version]}" \
  "$(awk -v a="${fixed[run_validate]}" -v b="${fixed[run_version]}" 'BEGIN {printf "%.2f", a-b}')"
[[ -n ${fixed[run_gojq_n]:-} ]] && printf '   gojq -n 1 %s' "${fixed[run_gojq_n]}"
printf '\n'

echo
echo "large v3 review output"
f="$work/artifact-50m.json"
"$synth" artifact 52428800 11 > "$f"
run_large() { "$bin" list "$f" --format tsv; }
large_rounds=$(( rounds < 5 ? rounds : 5 ))
rounds_saved=$rounds; rounds=$large_rounds
read -r _ large_ms < <(interleaved run_large)
rounds=$rounds_saved
bytes=$(wc -c < "$f")
printf 'list of %s bytes: %s ms (median of %s)\n' "$bytes" "$large_ms" "$large_rounds"
# Peak RSS of every command that reads the whole file (project fails J6 on
# a file this size, after reading all of it; its exit status is ignored).
for cmd in list project fingerprints validate; do
  /usr/bin/time -o "$work/rss" -f '%M' "$bin" "$cmd" "$f" >/dev/null 2>&1 || true
  rss_kb=$(tail -1 "$work/rss")
  printf '  %-12s peak RSS %s KiB = %sx the file\n' "$cmd" "$rss_kb" \
    "$(awk -v r="$rss_kb" -v b="$bytes" 'BEGIN {printf "%.2f", r*1024/b}')"
done

echo
echo "cost per finding, CPU (user + system) of list --format tsv, median of $large_rounds interleaved rounds"
# The findings are counted by their one grounding each (every generated
# finding has one); CPU time rather than wall time, so that waiting for a
# loaded machine's cores does not count.
cpu_s() {
  /usr/bin/time -o "$work/cpu" -f '%U %S' "$bin" list "$1" --format tsv >/dev/null 2>&1
  tail -1 "$work/cpu" | awk '{print $1 + $2}'
}
declare -A per=()
for n in 10000 100000; do
  "$synth" artifact $(( n * 1545 )) 11 > "$work/artifact-$n.json"
  per[$n]=""
done
for _ in $(seq "$large_rounds"); do
  for n in 10000 100000; do per[$n]+="$(cpu_s "$work/artifact-$n.json") "; done
done
declare -A us=()
for n in 10000 100000; do
  count=$(grep -o '"semantic_key"' "$work/artifact-$n.json" | wc -l)
  median=$(tr ' ' '\n' <<<"${per[$n]}" | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  us[$n]=$(awk -v s="$median" -v c="$count" 'BEGIN {printf "%.2f", s*1e6/c}')
  printf '%7s findings (%s bytes): %s s CPU, %s us per finding\n' "$count" \
    "$(wc -c < "$work/artifact-$n.json")" "$median" "${us[$n]}"
  rm -f "$work/artifact-$n.json"
done
printf 'per-finding cost at 100k / at 10k: %s\n' "$(ratio "${us[100000]}" "${us[10000]}")"
