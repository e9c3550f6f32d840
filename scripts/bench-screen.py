#!/usr/bin/env python3
"""Times the screen through a real pseudo-terminal, as a reviewer waits on it.

For generated agent results of 100, 10,000 and 100,000 findings (made with
`examples/synth_review`, cut to the exact count) it starts `triage FILE` on a
120x40 pty and measures, from the bytes the program writes:

  first frame     spawn until the end of the first frame (the loading frame
                  is drawn before the file is read)
  full frame      spawn until the list header ("of N") is on screen
  key             a `j` press until the last byte of its answer (median)
  highlight       `G` (jump to the last finding) right after the full frame
                  until the last frame that follows it (the selected
                  finding's evidence highlighted)
  idle bytes      bytes written during one quiet second (0: no idle redraws)
  search/char     each character of a `/` search (`retry`): until the end of
                  the first frame after it (the best matches of the first
                  chunk scored, drawn) and until the last byte of the whole
                  answer (every candidate scored; a large review is scored a
                  chunk per turn of the event loop), median and max over the
                  characters

Frames are delimited by the synchronized-update sequence the screen wraps
each frame in (CSI ? 2026 l ends one). "Last byte" means: the time of the
last byte before the output has been quiet for QUIET seconds.

Only the Python standard library is used (pty, os, select). Timings on a
shared machine vary: run it a few times and read the medians.

Usage: scripts/bench-screen.py [path/to/triage] [path/to/synth_review]
       (defaults: target/release/triage, target/release/examples/synth_review)
       SIZES=100,10000 scripts/bench-screen.py   to choose the sizes
"""

import fcntl
import json
import os
import pty
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COLS, ROWS = 120, 40
QUIET = 0.15
END_FRAME = b"\x1b[?2026l"


def generate(synth, n, path):
    """Writes an agent result with exactly n findings to path."""
    probe = json.loads(subprocess.run([synth, "agent-result", str(256 * 1024), "7"],
                                      check=True, capture_output=True).stdout)
    per = (256 * 1024) / max(1, len(probe["findings"]))
    want = int(per * n * 1.1) + 64 * 1024
    doc = json.loads(subprocess.run([synth, "agent-result", str(want), "7"],
                                    check=True, capture_output=True).stdout)
    found = doc["findings"]
    while len(found) < n:  # the generator's size estimate fell short
        found = found + found[: n - len(found)]
    doc["findings"] = found[:n]
    with open(path, "w") as f:
        json.dump(doc, f)


class Screen:
    """The program on a pty; every byte it writes, with the time it came."""

    def __init__(self, argv, env):
        self.start = time.monotonic()
        pid, fd = pty.fork()
        if pid == 0:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
            os.execvpe(argv[0], argv, env)
        self.pid, self.fd = pid, fd
        self.out = bytearray()
        self.chunks = []  # (time, offset after the chunk)

    def pump(self, timeout):
        """Reads what is there within timeout; returns the bytes read."""
        r, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not r:
            return 0
        try:
            data = os.read(self.fd, 1 << 16)
        except OSError:
            return 0
        now = time.monotonic()
        # The screen asks the terminal nothing it must wait for: a
        # cursor-position query (CSI 6n) is a failure of this harness
        # (tests/pty_start.rs checks it too).
        if b"\x1b[6n" in data:
            sys.exit("the screen asked for the cursor position (CSI 6n) and waits for an answer")
        self.out += data
        self.chunks.append((now, len(self.out)))
        return len(data)

    def wait_for(self, pattern, limit=120.0):
        """Time (since spawn) at which pattern (regex on bytes) first appears."""
        rx = re.compile(pattern)
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            m = rx.search(self.out)
            if m:
                for t, end in self.chunks:
                    if end >= m.end():
                        return t - self.start
            self.pump(deadline - time.monotonic())
        raise TimeoutError(f"the screen never showed {pattern!r}")

    def settle(self, quiet=QUIET, limit=60.0):
        """Reads until quiet; returns the time of the last byte (monotonic)."""
        last = self.chunks[-1][0] if self.chunks else time.monotonic()
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline:
            if self.pump(quiet) == 0:
                return last
            last = self.chunks[-1][0]
        return last

    def key(self, data):
        """Sends data; returns the seconds until the last byte of the answer."""
        self.settle()
        sent = time.monotonic()
        os.write(self.fd, data)
        last = self.settle()
        return max(0.0, last - sent)

    def key_answer(self, data):
        """Sends data; returns (seconds to the end of the first frame that
        follows, seconds to the last byte of the whole answer)."""
        self.settle()
        sent = time.monotonic()
        start = len(self.out)
        os.write(self.fd, data)
        first = None
        deadline = sent + 60.0
        while first is None and time.monotonic() < deadline:
            at = self.out.find(END_FRAME, start)
            if at >= 0:
                first = next(t for t, end in self.chunks if end >= at + len(END_FRAME)) - sent
                break
            self.pump(deadline - time.monotonic())
        last = self.settle()
        return (max(0.0, first if first is not None else last - sent), max(0.0, last - sent))

    def idle_bytes(self, seconds=1.0):
        self.settle()
        before = len(self.out)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.pump(deadline - time.monotonic())
        return len(self.out) - before

    def close(self):
        try:
            os.write(self.fd, b"q")
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                pid, _ = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    return
                self.pump(0.05)
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        except OSError:
            pass


def ms(seconds):
    return f"{seconds * 1000:.1f}"


def measure(binary, path, n, env):
    s = Screen([binary, path], env)
    try:
        first = s.wait_for(re.escape(END_FRAME))
        full = s.wait_for(rb"of " + str(n).encode() + rb"\b")
        # G at once, before anything settles: the jump right after start.
        sent = time.monotonic()
        os.write(s.fd, b"G")
        highlight = s.settle(quiet=0.5) - sent
        keys = [s.key(b"j" if i % 2 == 0 else b"k") for i in range(20)]
        idle = s.idle_bytes()
        os.write(s.fd, b"/")
        s.settle()
        search = [s.key_answer(c.encode()) for c in "retry"]
        answered = [a for a, _ in search]
        done = [b for _, b in search]
        return {
            "first frame": ms(first),
            "full frame": ms(full),
            "key (median)": ms(statistics.median(keys)),
            "G highlight": ms(highlight),
            "idle bytes/s": str(idle),
            "search/char first frame (median)": ms(statistics.median(answered)),
            "search/char first frame (max)": ms(max(answered)),
            "search/char complete (median)": ms(statistics.median(done)),
            "search/char complete (max)": ms(max(done)),
        }
    finally:
        s.close()


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target/release/triage")
    synth = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "target/release/examples/synth_review")
    sizes = [int(x) for x in os.environ.get("SIZES", "100,10000,100000").split(",")]
    for tool in (binary, synth):
        if not os.access(tool, os.X_OK):
            sys.exit(f"bench-screen: {tool} is missing: "
                     "cargo build --release --example synth_review && cargo build --release --bin triage"
                     " (two commands, so the binary gets no feature of the examples' dev-dependencies)")
    with tempfile.TemporaryDirectory() as work:
        env = dict(os.environ, TERM="xterm-256color", LANG="C.UTF-8",
                   XDG_CONFIG_HOME=os.path.join(work, "config"),
                   TRIAGE_STATE_DIR=os.path.join(work, "state"))
        env.pop("NO_COLOR", None)
        rows = {}
        for n in sizes:
            path = os.path.join(work, f"review-{n}.json")
            generate(synth, n, path)
            rows[n] = measure(binary, path, n, env)
        names = list(next(iter(rows.values())).keys())
        width = max(len(x) for x in names)
        print(f"{'ms (bytes for idle)':<{width}}  " + "  ".join(f"{n:>10}" for n in sizes))
        for name in names:
            print(f"{name:<{width}}  " + "  ".join(f"{rows[n][name]:>10}" for n in sizes))


if __name__ == "__main__":
    main()
