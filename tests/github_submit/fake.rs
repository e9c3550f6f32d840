//! A stateful fake GitHub on 127.0.0.1 (wiremock with one responder): it
//! keeps comments and statuses, so what one process posts another one
//! reads, and faults can be injected per request (an answer that comes too
//! late, with or without the change taking effect, or a change that lands
//! only when the test says so).

use serde_json::{Value, json};
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// How one injected fault behaves.
#[derive(Debug, Clone)]
pub enum Fault {
    /// Answer with this status and change nothing.
    Status(u16),
    /// Apply the change, but answer after this delay (the client times out).
    LateAnswer(Duration),
    /// Change nothing now and answer after this delay; the change is kept
    /// back until [`Fake::land_delayed`] (a request still in flight).
    Delayed(Duration),
}

#[derive(Debug, Default)]
pub struct State {
    pub repo: String,
    pub number: u64,
    pub comments: BTreeMap<u64, (String, String)>,
    pub statuses: Vec<Value>,
    pub next_id: u64,
    pub head: String,
    pub permissions: BTreeMap<String, String>,
    /// The login the token belongs to.
    pub login: String,
    faults: VecDeque<(String, String, usize, Fault)>,
    delayed: Vec<(String, String, Vec<u8>)>,
}

/// The fake: clone it freely, every clone shares the state.
#[derive(Clone, Debug)]
pub struct Fake(pub Arc<Mutex<State>>);

impl Fake {
    /// Starts a server for pull request `number` of `repo` at head `sha`,
    /// the token's user `login` with write permission.
    pub async fn start_for(repo: &str, number: u64, sha: &str, login: &str) -> (MockServer, Fake) {
        let server = MockServer::start().await;
        let mut state = State {
            repo: repo.into(),
            number,
            next_id: 9001,
            head: sha.into(),
            login: login.into(),
            ..State::default()
        };
        state.permissions.insert(login.into(), "write".into());
        let fake = Fake(Arc::new(Mutex::new(state)));
        Mock::given(wiremock::matchers::any())
            .respond_with(fake.clone())
            .mount(&server)
            .await;
        (server, fake)
    }

    /// The next request with this method whose path ends with `suffix` gets `fault`.
    pub fn fault(&self, verb: &str, suffix: &str, fault: Fault) {
        self.fault_after(verb, suffix, 0, fault);
    }

    /// Like [`Fake::fault`], after `skip` such requests were answered normally.
    pub fn fault_after(&self, verb: &str, suffix: &str, skip: usize, fault: Fault) {
        let mut s = self.0.lock().unwrap();
        s.faults.push_back((verb.into(), suffix.into(), skip, fault));
    }

    /// Adds a comment as if someone posted it.
    pub fn add_comment(&self, author: &str, body: &str) -> u64 {
        let mut s = self.0.lock().unwrap();
        let id = s.next_id;
        s.next_id += 1;
        s.comments.insert(id, (author.into(), body.into()));
        id
    }

    /// Adds a status on the head.
    pub fn add_status(&self, context: &str, description: &str, creator: &str) {
        let status =
            json!({"context": context, "description": description, "state": "success", "creator": {"login": creator}});
        self.0.lock().unwrap().statuses.push(status);
    }

    /// Lets every delayed change take effect now (in the order sent).
    pub fn land_delayed(&self) {
        let delayed = std::mem::take(&mut self.0.lock().unwrap().delayed);
        for (verb, path, body) in delayed {
            let mut s = self.0.lock().unwrap();
            let _ = apply(&mut s, &verb, &path, "", &body);
        }
    }

    /// The comments on the pull request now: `(id, author, body)`.
    pub fn comments(&self) -> Vec<(u64, String, String)> {
        let s = self.0.lock().unwrap();
        s.comments
            .iter()
            .map(|(id, (a, b))| (*id, a.clone(), b.clone()))
            .collect()
    }
}

impl Respond for Fake {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let verb = request.method.to_string();
        let path = request.url.path().to_owned();
        let query = request.url.query().unwrap_or("").to_owned();
        let mut s = self.0.lock().unwrap();
        let found = s
            .faults
            .iter()
            .position(|(v, p, _, _)| *v == verb && path.ends_with(p.as_str()));
        let fault = match found {
            Some(i) if s.faults[i].2 > 0 => {
                s.faults[i].2 -= 1;
                None
            }
            Some(i) => s.faults.remove(i).map(|(_, _, _, f)| f),
            None => None,
        };
        match fault {
            Some(Fault::Status(code)) => ResponseTemplate::new(code).set_body_json(json!({"message": "injected"})),
            Some(Fault::LateAnswer(delay)) => apply(&mut s, &verb, &path, &query, &request.body).set_delay(delay),
            Some(Fault::Delayed(delay)) => {
                s.delayed.push((verb, path, request.body.clone()));
                ResponseTemplate::new(204).set_delay(delay)
            }
            None => apply(&mut s, &verb, &path, &query, &request.body),
        }
    }
}

fn page_of(query: &str) -> (usize, usize) {
    let get = |k: &str| {
        query
            .split('&')
            .find_map(|kv| kv.strip_prefix(&format!("{k}=")))
            .and_then(|v| v.parse().ok())
    };
    (get("page").unwrap_or(1), get("per_page").unwrap_or(30))
}

fn not_found() -> ResponseTemplate {
    ResponseTemplate::new(404).set_body_json(json!({"message": "Not Found"}))
}

fn apply(s: &mut State, verb: &str, path: &str, query: &str, body: &[u8]) -> ResponseTemplate {
    let repo = format!("/repos/{}", s.repo);
    let number = s.number.to_string();
    let number = number.as_str();
    let Some(rest) = path.strip_prefix(repo.as_str()) else {
        return match (verb, path) {
            ("GET", "/user") => ResponseTemplate::new(200).set_body_json(json!({"login": s.login})),
            _ => not_found(),
        };
    };
    let parts: Vec<&str> = rest.trim_start_matches('/').split('/').collect();
    let (page, per_page) = page_of(query);
    match (verb, parts.as_slice()) {
        ("GET", [""]) => {
            let permission = s.permissions.get(&s.login).cloned().unwrap_or_else(|| "read".into());
            let at_least = |role: &str| {
                let rank = |p: &str| {
                    ["read", "triage", "write", "maintain", "admin"]
                        .iter()
                        .position(|r| *r == p)
                };
                rank(&permission) >= rank(role)
            };
            ResponseTemplate::new(200).set_body_json(json!({"full_name": s.repo, "permissions": {
                "pull": at_least("read"), "triage": at_least("triage"), "push": at_least("write"),
                "maintain": at_least("maintain"), "admin": at_least("admin")
            }}))
        }
        ("GET", ["collaborators", login, "permission"]) => {
            let permission = s.permissions.get(*login).cloned().unwrap_or_else(|| "read".into());
            ResponseTemplate::new(200).set_body_json(json!({"permission": permission}))
        }
        ("GET", ["pulls", n]) if *n == number => ResponseTemplate::new(200).set_body_json(json!({
            "number": s.number, "state": "open", "head": {"sha": s.head}, "base": {"repo": {"full_name": s.repo}}
        })),
        ("GET", ["issues", n, "comments"]) if *n == number => {
            let all: Vec<Value> = s
                .comments
                .iter()
                .map(|(id, (a, b))| json!({"id": id, "body": b, "user": {"login": a}}))
                .collect();
            let items: Vec<Value> = all.into_iter().skip((page - 1) * per_page).take(per_page).collect();
            ResponseTemplate::new(200).set_body_json(Value::Array(items))
        }
        ("POST", ["issues", n, "comments"]) if *n == number => {
            let text = serde_json::from_slice::<Value>(body).unwrap()["body"]
                .as_str()
                .unwrap()
                .to_owned();
            let id = s.next_id;
            s.next_id += 1;
            let login = s.login.clone();
            s.comments.insert(id, (login.clone(), text.clone()));
            ResponseTemplate::new(201).set_body_json(json!({"id": id, "body": text, "user": {"login": login}}))
        }
        ("GET", ["issues", "comments", id]) => match id.parse::<u64>().ok().and_then(|i| s.comments.get(&i)) {
            Some((a, b)) => ResponseTemplate::new(200)
                .set_body_json(json!({"id": id.parse::<u64>().unwrap(), "body": b, "user": {"login": a}})),
            None => not_found(),
        },
        ("DELETE", ["issues", "comments", id]) => match id.parse::<u64>().ok().and_then(|i| s.comments.remove(&i)) {
            Some(_) => ResponseTemplate::new(204),
            None => not_found(),
        },
        ("POST", ["statuses", sha]) if *sha == s.head => {
            let mut status: Value = serde_json::from_slice(body).unwrap();
            status["creator"] = json!({"login": s.login});
            s.statuses.push(status.clone());
            status["id"] = json!(s.statuses.len());
            ResponseTemplate::new(201).set_body_json(status)
        }
        ("GET", ["commits", sha, "status"]) if *sha == s.head => {
            let items: Vec<Value> = s
                .statuses
                .iter()
                .rev()
                .skip((page - 1) * per_page)
                .take(per_page)
                .cloned()
                .collect();
            ResponseTemplate::new(200).set_body_json(json!({"state": "success", "statuses": items}))
        }
        ("GET", ["commits", _, "status"]) => {
            ResponseTemplate::new(200).set_body_json(json!({"state": "pending", "statuses": []}))
        }
        _ => not_found(),
    }
}
