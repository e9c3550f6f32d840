#!/usr/bin/env bash
# Smoke test of the real screen in a real terminal (tmux): opens the bundled
# demo (Esc at the top of the list does not quit; ctrl-z suspends to a shell
# and fg brings the screen back), an invalid file and a pull-request result
# (the decision composer: type, Esc, the draft stays; `o` runs $BROWSER
# with the link; typed text, a thread reply too, survives
# SIGHUP and SIGINT; a review open in two screens keeps both screens' drafts;
# SIGTERM, SIGINT and SIGQUIT leave a restored terminal),
# types keys, checks what the
# screen shows and the exit status. Every wait polls the screen with a bounded loop; nothing
# sleeps blindly. Exits non-zero (and prints the screen) on the first failure.
#
# Usage: scripts/tmux-smoke.sh [path/to/triage]   (default: target/debug/triage, built if missing)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-${TRIAGE_BIN:-$root/target/debug/triage}}
command -v tmux >/dev/null || { echo "tmux-smoke: tmux is not installed" >&2; exit 2; }
if [ ! -x "$bin" ]; then
  (cd "$root" && cargo build --quiet --bin triage)
fi

work=$(mktemp -d)
socket="triage-smoke-$$"
# -u: UTF-8 on the captured screen (row glyphs such as the draft mark).
tmx() { tmux -u -L "$socket" "$@"; }
# No screen of this run is left running under $work (a screen killed with
# its tmux session still saves its drafts on the hang-up).
screens_gone() { ! pgrep -f -- "$work/" >/dev/null; }
# Waits (bounded) until the screens of this run are gone.
wait_screens_gone() {
  for _ in $(seq 1 200); do
    screens_gone && return 0
    sleep 0.05
  done
  return 1
}
# Runs on every exit. Nothing in it may fail: under `set -e` a failing
# command here would turn a passed run into exit 1.
cleanup() {
  tmx kill-server 2>/dev/null || true
  wait_screens_gone || true
  rm -rf "$work" 2>/dev/null || { sleep 0.5; rm -rf "$work" 2>/dev/null; } || true
}
trap cleanup EXIT

fail() {
  echo "tmux-smoke: FAIL: $*" >&2
  echo "---- screen ----" >&2
  tmx capture-pane -p -t smoke >&2 2>/dev/null || echo "(no screen: the program has exited)" >&2
  exit 1
}

# Runs "$@" every 50 ms until it succeeds; false after ~10 s.
poll() {
  for _ in $(seq 1 200); do
    if "$@"; then return 0; fi
    sleep 0.05
  done
  return 1
}

# Starts the next section with no drafts, once every earlier screen has
# ended (their hang-up save would write into the directory being removed).
fresh_drafts() {
  wait_screens_gone || fail "an earlier screen is still running"
  rm -rf "$work/state/drafts"
}

# Whether the screen contains / lacks $1 (fixed string). The screen is the
# tmux session $S (default: smoke, the one `launch` starts).
on_screen() { tmx capture-pane -p -t "${S:-smoke}" 2>/dev/null | grep -qF -- "$1"; }
off_screen() { ! on_screen "$1"; }

# Waits until the screen shows $1, or until it no longer does.
wait_for() { poll on_screen "$1" || fail "screen never showed: $1"; }
wait_gone() { poll off_screen "$1" || fail "screen still shows: $1"; }

# Waits until the program has written its exit status; echoes it.
wait_exit() {
  poll test -s "$work/status" || fail "the program did not exit"
  cat "$work/status"
}

# Sends keys ($2...) and waits until the screen shows $1.
press() {
  local want=$1
  shift
  tmx send-keys -t "${S:-smoke}" "$@"
  wait_for "$want"
}

# Waits for the program's exit and checks its status: $1 expected, $2 what ran.
expect_exit() {
  local status
  status=$(wait_exit)
  [ "$status" = "$1" ] || fail "$2 exit status $status, expected $1"
}

# Starts the binary with arguments in a fresh 120x40 tmux session.
launch() {
  rm -f "$work/status"
  local args=""
  for a in "$@"; do args+=" $(printf '%q' "$a")"; done
  tmx new-session -d -s smoke -x 120 -y 40 \
    "env ${extra_env:-} XDG_CONFIG_HOME=$(printf '%q' "$work/config") TRIAGE_STATE_DIR=$(printf '%q' "$work/state") LANG=C.UTF-8 TERM=xterm-256color $(printf '%q' "$bin")$args; echo \$? > $(printf '%q' "$work/status"); sleep 5"
}

# 1. The bundled demo.
launch
wait_for " DEMO "
wait_for "Repair set 1/4 of 11"
press "Repair set 2/4 of 11" j
wait_for "crates/ledger/src/retry.rs:88"
press " DETAIL " Enter
press " EVIDENCE " Tab
press "Drift lane" 3
wait_for "resolved externally: verify, then decide or reopen"
press "Keys (generated from the key table)" '?'
tmx send-keys -t smoke Escape
wait_gone "Keys (generated from the key table)"
# Esc at the top of the list goes nowhere: the program keeps running.
# (One key per send: an Esc followed at once by a key reads as Alt+key.)
press " LIST " Escape
press "All findings 1/11" 2 g
press " LIST " Escape
press " LIST " Escape
press "All findings 2/11" j
[ ! -s "$work/status" ] || fail "Esc at the top of the list quit the program"
tmx send-keys -t smoke q
expect_exit 0 "demo"
tmx kill-session -t smoke 2>/dev/null || true

# 1b. ctrl-z hands the terminal to the shell; fg brings back an intact screen.
tmx new-session -d -s smoke -x 120 -y 40 "env -u TMUX PS1='smoke\$ ' bash --norc -i"
wait_for "smoke$"
tmx send-keys -t smoke -l "env XDG_CONFIG_HOME=$(printf '%q' "$work/config") TRIAGE_STATE_DIR=$(printf '%q' "$work/state") LANG=C.UTF-8 TERM=xterm-256color $(printf '%q' "$bin")"
press "Repair set 1/4 of 11" Enter
press "Repair set 2/4 of 11" j
press "Stopped" C-z
wait_gone "Repair set 2/4 of 11"
tmx send-keys -t smoke -l "fg"
press "Repair set 2/4 of 11" Enter
wait_for "crates/ledger/src/retry.rs:88"
wait_for " DEMO "
press "Repair set 3/4 of 11" j
press "smoke$" q
tmx send-keys -t smoke -l 'echo "after-fg=$?"'
press "after-fg=0" Enter
tmx kill-session -t smoke 2>/dev/null || true
tmx kill-session -t smoke 2>/dev/null || true

# 2. An invalid file opens read-only with its problems listed.
printf '{"schema_version":"reviewgate-agent-result/v1","scope":{"kind":"local"}' > "$work/truncated.json"
launch "$work/truncated.json"
wait_for "READ-ONLY"
wait_for "nothing can be submitted"
tmx send-keys -t smoke q
expect_exit 0 "invalid-file"
tmx kill-session -t smoke 2>/dev/null || true

# 3. A pull-request result: the composer keeps what was typed as a draft
#    (on disk too: a killed program restores it on the next start), and
#    quitting with a draft asks first. Nothing is sent (no preview).
cp "$root/tests/fixtures/conformance/agent-result/valid-scope-pull-request.json" "$work/pr.json"
launch "$work/pr.json"
wait_for "Repair set 1/1 of 2"
press "Choose the status:" d
press " EVIDENCE " j Enter
wait_for "Fixed on the reviewed head"
press "smoke-typed" -l " smoke-typed"
press "Draft kept: press d on this finding to continue." Escape
wait_for "✎"
# The draft is on disk: killing the program (no orderly quit) loses nothing.
tmx kill-session -t smoke 2>/dev/null || true
ls "$work/state/drafts/"*.json >/dev/null 2>&1 || fail "no draft file under the state directory"
launch "$work/pr.json"
wait_for "Restored 1 draft(s) from disk"
wait_for "✎"
press "smoke-typed" d
press "Draft kept" Escape
press "kept on disk" q
wait_for "Quit anyway?"
tmx send-keys -t smoke y
expect_exit 0 "composer"
tmx kill-session -t smoke 2>/dev/null || true

# 3b. `o` runs $BROWSER (no shell) with the finding's GitHub link as its one
#     argument: a program that records what it was given.
printf '#!/bin/sh\nprintf "%%s|%%s\\n" "$#" "$1" > "%s"\n' "$work/opened" > "$work/browser"
chmod +x "$work/browser"
extra_env="BROWSER=$(printf '%q' "$work/browser")" launch "$work/pr.json"
wait_for "Repair set 1/1 of 2"
tmx send-keys -t smoke o
poll test -s "$work/opened" || fail "o did not run \$BROWSER"
grep -qE '^1\|https://github\.com/[^ ]+/pull/[0-9]+' "$work/opened" \
  || fail "\$BROWSER was given $(cat "$work/opened"), not one GitHub pull request link"
# The draft typed above is still on disk, so quitting asks first.
press "Quit anyway?" q
tmx send-keys -t smoke y
expect_exit 0 "browser"
tmx kill-session -t smoke 2>/dev/null || true

# The pid of the program in the pane (env execs it, so it is the shell's child).
program_pid() {
  local shell_pid
  shell_pid=$(tmx display-message -p -t smoke '#{pane_pid}')
  pgrep -P "$shell_pid" | head -n 1
}

# 4. A hang-up (what a dropped SSH session sends) keeps the text being
#    typed: nothing was put aside, the composer was still open.
fresh_drafts
launch "$work/pr.json"
wait_for "Repair set 1/1 of 2"
press "Choose the status:" d
press "Fixed on the reviewed head" j Enter
press "hup-typed" -l " hup-typed"
pid=$(program_pid)
[ -n "$pid" ] || fail "no program in the pane"
kill -HUP "$pid"
expect_exit 129 "hang-up"
tmx kill-session -t smoke 2>/dev/null || true
launch "$work/pr.json"
wait_for "Restored 1 draft(s) from disk"
press "hup-typed" d
tmx kill-session -t smoke 2>/dev/null || true

# 4b. A hang-up keeps a thread reply being typed too (16 KiB can be typed
#     there): it comes back in the reply input on the next start.
fresh_drafts
cp "$root/tests/fixtures/conformance/agent-result/valid-thread-resolved-fixed.json" "$work/thread.json"
launch "$work/thread.json"
wait_for "of 1"
press "r reply" 2 t
press "(0/16384 bytes)" r
press "reply-typed" -l "reply-typed"
pid=$(program_pid)
[ -n "$pid" ] || fail "no program in the pane"
kill -HUP "$pid"
expect_exit 129 "hang-up in the reply input"
tmx kill-session -t smoke 2>/dev/null || true
launch "$work/thread.json"
wait_for "Restored a thread reply"
press "r reply" 2 t
press "reply-typed" r
tmx kill-session -t smoke 2>/dev/null || true

# 4c. One review in two screens: the second says so and keeps its drafts in
#     files of its own, so a finding drafted in both comes back with both
#     texts joined when the review is opened again. (The screens of 4b
#     save on the hang-up kill-session sends them: wait until they are gone.)
fresh_drafts
launch "$work/pr.json"
wait_for "Repair set 1/1 of 2"
tmx new-session -d -s other -x 120 -y 40 \
  "env XDG_CONFIG_HOME=$(printf '%q' "$work/config") TRIAGE_STATE_DIR=$(printf '%q' "$work/state") LANG=C.UTF-8 TERM=xterm-256color $(printf '%q' "$bin") $(printf '%q' "$work/pr.json"); sleep 5"
S=other wait_for "Open in another triage screen too"
S=other press "Choose the status:" d
S=other press "Fixed on the reviewed head" j Enter
S=other press "second-typed" -l " second-typed"
S=other press "Draft kept" Escape
off_screen "Open in another triage screen too" || fail "the first screen shows the second-screen banner"
press "Choose the status:" d
press "Fixed on the reviewed head" j Enter
press "first-typed" -l " first-typed"
press "Draft kept" Escape
[ "$(ls "$work/state/drafts/"*.json | wc -l)" = 2 ] || fail "two screens did not keep two draft files"
tmx kill-session -t other 2>/dev/null || true
tmx kill-session -t smoke 2>/dev/null || true
launch "$work/pr.json"
wait_for "were joined into theirs"
press "another kept draft of this finding" d
wait_for "first-typed"
wait_for "second-typed"
tmx kill-session -t smoke 2>/dev/null || true

# 5. SIGTERM restores the terminal: out of the alternate screen, cursor
#    visible, no mouse reporting.
launch "$work/pr.json"
wait_for "Repair set 1/1 of 2"
[ "$(tmx display-message -p -t smoke '#{alternate_on}')" = "1" ] || fail "the screen is not in the alternate screen"
pid=$(program_pid)
kill -TERM "$pid"
expect_exit 143 "SIGTERM"
flags=$(tmx display-message -p -t smoke '#{alternate_on} #{cursor_flag} #{mouse_any_flag}')
[ "$flags" = "0 1 0" ] || fail "after SIGTERM: alternate_on cursor_flag mouse_any_flag = $flags, expected 0 1 0"
tmx kill-session -t smoke 2>/dev/null || true

# 5b. SIGINT and SIGQUIT from another process (in raw mode ctrl-c and
#     ctrl-\ are keys, so only `kill` sends them) end the screen the same
#     way: the text being typed is kept and the terminal restored.
fresh_drafts
launch "$work/pr.json"
wait_for "Repair set 1/1 of 2"
press "Choose the status:" d
press "Fixed on the reviewed head" j Enter
press "int-typed" -l " int-typed"
pid=$(program_pid)
[ -n "$pid" ] || fail "no program in the pane"
kill -INT "$pid"
expect_exit 130 "SIGINT"
flags=$(tmx display-message -p -t smoke '#{alternate_on} #{cursor_flag} #{mouse_any_flag}')
[ "$flags" = "0 1 0" ] || fail "after SIGINT: alternate_on cursor_flag mouse_any_flag = $flags, expected 0 1 0"
tmx kill-session -t smoke 2>/dev/null || true
launch "$work/pr.json"
wait_for "Restored 1 draft(s) from disk"
press "int-typed" d
tmx kill-session -t smoke 2>/dev/null || true
launch "$work/pr.json"
wait_for "Repair set 1/1 of 2"
pid=$(program_pid)
kill -QUIT "$pid"
expect_exit 131 "SIGQUIT"
flags=$(tmx display-message -p -t smoke '#{alternate_on} #{cursor_flag} #{mouse_any_flag}')
[ "$flags" = "0 1 0" ] || fail "after SIGQUIT: alternate_on cursor_flag mouse_any_flag = $flags, expected 0 1 0"
tmx kill-session -t smoke 2>/dev/null || true

# 6. `list` to a terminal shows control, C1 and bidi characters visibly
#    (TSV) or as \u escapes (JSON); to a pipe the bytes stay exact.
if command -v jq >/dev/null; then
  jq '.findings[0].claim = "Plain \u001b[31mred\u009b2J \u202eevil end"' "$work/pr.json" > "$work/hostile.json"
  rm -f "$work/status"
  tmx new-session -d -s smoke -x 200 -y 20 \
    "$(printf '%q' "$bin") list --format tsv $(printf '%q' "$work/hostile.json"); $(printf '%q' "$bin") list --format json $(printf '%q' "$work/hostile.json"); echo \$? > $(printf '%q' "$work/status"); sleep 5"
  wait_for 'Plain ␛[31mred⟨U+009B⟩2J ⟨U+202E⟩evil end'
  wait_for 'Plain \u001b[31mred\u009b2J \u202eevil end'
  "$bin" list --format tsv "$work/hostile.json" | grep -q "$(printf '\033')\[31mred" || fail "a pipe must get the exact bytes"
  # Every other JSON output to a terminal escapes the same characters:
  # `validate --format json` (a hostile enum value in a message), `project`
  # and `fingerprints` (a hostile v3 field and id).
  jq '.findings[0].severity = "x\u001b[31m\u009b\u202eend"' "$work/pr.json" > "$work/hostile-enum.json"
  jq '.findings[0].agent_instruction = "Plain \u001b[31mred\u009b2J \u202eevil end" | .findings[0].id = "v3\u202eid"' \
    "$root/tests/fixtures/conformance/artifact/valid-review-error-keeps-findings.json" > "$work/hostile-v3.json"
  tmx kill-session -t smoke 2>/dev/null || true
  rm -f "$work/status"
  tmx new-session -d -s smoke -x 1500 -y 40 \
    "$(printf '%q' "$bin") validate --format json $(printf '%q' "$work/hostile-enum.json"); $(printf '%q' "$bin") project $(printf '%q' "$work/hostile-v3.json"); $(printf '%q' "$bin") fingerprints $(printf '%q' "$work/hostile-v3.json"); echo \$? > $(printf '%q' "$work/status"); sleep 5"
  wait_for 'x\u001b[31m\u009b\u202eend'
  wait_for 'Plain \u001b[31mred\u009b2J \u202eevil end'
  wait_for '"id":"v3\u202eid"'
  "$bin" project "$work/hostile-v3.json" | grep -q "$(printf '\342\200\256')evil" || fail "a pipe must get the exact bytes of a projection"
fi

# 7. The terminal goes away (the tmux server dies with the pane): the
#    program ends by itself instead of running on without a screen.
tmx kill-session -t smoke 2>/dev/null || true
launch "$work/pr.json"
wait_for "Repair set 1/1 of 2"
pid=$(program_pid)
[ -n "$pid" ] || fail "no program in the pane"
tmx kill-server
poll_gone() { ! kill -0 "$pid" 2>/dev/null; }
poll poll_gone || { kill -9 "$pid" 2>/dev/null; echo "tmux-smoke: FAIL: the program kept running after its terminal went away" >&2; exit 1; }

echo "tmux-smoke: ok"
