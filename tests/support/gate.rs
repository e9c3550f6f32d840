//! A loopback HTTP server that holds back the answers of a set of requests
//! until every request of the set has arrived: requests sent together pass,
//! requests sent one after another (each waiting for the previous answer)
//! never can. Nothing is timed: a generous deadline only ends a test that
//! would otherwise wait for ever, and counts as the set not arriving together.
//!
//! Requests outside the set are answered at once. Connections are kept
//! alive (one request after another on each).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How long a held request waits for the rest of its set before the test fails.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// What the server answers: status and JSON body for `(method, path, body)`
/// (the path without its query).
pub type Answer = Arc<dyn Fn(&str, &str, &[u8]) -> (u16, String) + Send + Sync>;

/// A running gate server.
pub struct Gate {
    pub base: String,
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    arrived: Condvar,
    together: Vec<String>,
    answer: Answer,
}

#[derive(Default)]
struct State {
    /// `METHOD path?query` of every request, in order of arrival.
    log: Vec<String>,
    /// Members of the set that have arrived.
    arrived: Vec<String>,
    /// A held request gave up waiting.
    timed_out: bool,
}

impl Gate {
    /// Starts a server whose requests `together` (`METHOD /path`, no query)
    /// are held until all of them arrived.
    pub fn start(together: &[&str], answer: Answer) -> Gate {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            arrived: Condvar::new(),
            together: together.iter().map(|s| (*s).to_owned()).collect(),
            answer,
        });
        let server = shared.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let shared = server.clone();
                std::thread::spawn(move || serve(stream, &shared));
            }
        });
        Gate { base, shared }
    }

    /// True when every request of the set arrived before any of them was answered.
    pub fn held_together(&self) -> bool {
        let s = self.shared.state.lock().unwrap();
        !s.timed_out && s.arrived.len() == self.shared.together.len()
    }

    /// `METHOD path?query` of every request, in order of arrival.
    pub fn log(&self) -> Vec<String> {
        self.shared.state.lock().unwrap().log.clone()
    }
}

fn serve(stream: std::net::TcpStream, shared: &Shared) {
    let mut reader = BufReader::new(stream);
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let mut length = 0usize;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            if header == "\r\n" {
                break;
            }
            if let Some(v) = header.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().unwrap_or(0);
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let mut parts = request_line.split_whitespace();
        let (verb, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        let path = target.split('?').next().unwrap_or(target);
        let name = format!("{verb} {path}");
        let held = shared.together.contains(&name);
        let mut s = shared.state.lock().unwrap();
        s.log.push(format!("{verb} {target}"));
        if held && !s.arrived.contains(&name) {
            s.arrived.push(name);
            shared.arrived.notify_all();
        }
        if held {
            let all = shared.together.len();
            let (waited, timeout) = shared
                .arrived
                .wait_timeout_while(s, DEADLINE, |s| s.arrived.len() < all)
                .unwrap();
            s = waited;
            if timeout.timed_out() {
                s.timed_out = true;
            }
        }
        let timed_out = s.timed_out;
        drop(s);
        let (code, text) = if held && timed_out {
            (500, r#"{"message":"the gate's set never arrived together"}"#.to_owned())
        } else {
            (shared.answer)(verb, path, &body)
        };
        let response = format!(
            "HTTP/1.1 {code} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{text}",
            text.len()
        );
        if reader.get_mut().write_all(response.as_bytes()).is_err() {
            return;
        }
    }
}
