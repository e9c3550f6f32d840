//! The real binary on a real pseudo-terminal that answers nothing: the
//! screen must start, draw and quit without asking the terminal a question
//! it has to wait for. A cursor-position query (`CSI 6n`) costs a round
//! trip to the terminal before the first frame (a network one over SSH),
//! and a terminal that does not answer within two seconds ended the screen
//! with an error.
#![cfg(target_os = "linux")]

use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
use rustix::termios::{Winsize, tcsetwinsize};
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Everything the program writes, as it comes (until the pty closes).
fn reader(mut master: std::fs::File) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 65536];
        while let Ok(n) = master.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    rx
}

/// Collects output until `done` holds for it, or `limit` has passed.
fn collect_until(rx: &mpsc::Receiver<Vec<u8>>, out: &mut Vec<u8>, limit: Duration, done: impl Fn(&[u8]) -> bool) {
    let end = Instant::now() + limit;
    while !done(out) {
        let Some(left) = end.checked_duration_since(Instant::now()) else {
            return;
        };
        match rx.recv_timeout(left) {
            Ok(chunk) => out.extend_from_slice(&chunk),
            Err(_) => return,
        }
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn the_screen_draws_and_quits_on_a_terminal_that_answers_no_query() {
    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).expect("a pseudo-terminal");
    grantpt(&master).expect("grantpt");
    unlockpt(&master).expect("unlockpt");
    let name = ptsname(&master, Vec::new()).expect("ptsname");
    let slave = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(name.to_str().expect("a UTF-8 pty name"))
        .expect("the pty's terminal side");
    let size = Winsize {
        ws_row: 40,
        ws_col: 120,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    tcsetwinsize(&slave, size).expect("window size");
    let state = tempfile::tempdir().expect("temp dir");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_triage"));
    cmd.stdin(Stdio::from(slave.try_clone().expect("dup")))
        .stdout(Stdio::from(slave.try_clone().expect("dup")))
        .stderr(Stdio::from(slave))
        .env("TERM", "xterm-256color")
        .env("LANG", "C.UTF-8")
        .env("TRIAGE_STATE_DIR", state.path().join("state"))
        .env("XDG_CONFIG_HOME", state.path().join("config"))
        .env_remove("TRIAGE_LOG");
    // SAFETY: only async-signal-safe system calls run between fork and exec:
    // a new session whose controlling terminal is the pty (crossterm opens
    // /dev/tty).
    unsafe {
        cmd.pre_exec(|| {
            rustix::process::setsid()?;
            rustix::process::ioctl_tiocsctty(std::io::stdin())?;
            Ok(())
        });
    }
    let mut child = cmd.spawn().expect("triage starts");
    drop(cmd);
    let master = std::fs::File::from(master);
    let mut keys = master.try_clone().expect("dup");
    let rx = reader(master);

    let mut out = Vec::new();
    // The demo's header, drawn in a finished frame.
    collect_until(&rx, &mut out, Duration::from_secs(20), |o| {
        contains(o, b"DEMO") && contains(o, b"\x1b[?2026l")
    });
    assert!(
        !contains(&out, b"\x1b[6n"),
        "the screen asked the terminal for its cursor position and waited for the answer"
    );
    assert!(
        contains(&out, b"DEMO"),
        "no frame of the demo was drawn; the program wrote: {}",
        String::from_utf8_lossy(&out)
    );
    keys.write_all(b"q").expect("q reaches the program");
    let end = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > end {
            let _ = child.kill();
            panic!("q did not end the screen");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    collect_until(&rx, &mut out, Duration::from_millis(200), |_| false);
    assert!(status.success(), "exit {status}: {}", String::from_utf8_lossy(&out));
}
