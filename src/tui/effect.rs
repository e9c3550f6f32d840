//! Effects: what `update` asks the outside world to do, and the [`Runner`]
//! that carries them out and reports back as messages.

use super::highlight::Highlighter;
use super::highlight::queue::{Lane, Queue};
use super::highlight::rest::RestFeed;
use super::jobs;
use super::jobs::evidence::EvidenceLane;
use super::jobs::worker::{ConfigSource, Worker};
use super::message::notice::Notice;
use super::present::evidence::HeadLine;
use super::terminal::TerminalGuard;
use super::update::Msg;
use crate::checkout::Checkout;
use crate::model::review::ReviewSet;
use crate::session::PrTarget;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::mpsc::Sender;

pub use super::message::{Effect, KeptKind, RiverDecision, RiverItem, SubmitItem};

/// What the runner needs to know about how the screen was opened.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// `--pr` and friends (refresh and the GitHub API base).
    pub pr: PrTarget,
    /// `--repo-root` (River's files; the checkout).
    pub repo_root: Option<PathBuf>,
    /// The review file's name, stored with outbox entries for people.
    pub source: Option<String>,
}

/// Lines of checkout context shown around an excerpt.
pub const CONTEXT_LINES: usize = 4;

/// Carries out effects. The only part of the screen that starts processes,
/// writes escape sequences of its own, or hands work to the background
/// ([`Worker`], the evidence lane, the highlight queue); every outcome comes
/// back through `tx` as a message.
pub struct Runner {
    /// The local checkout, when one was found.
    pub checkout: Option<Arc<Checkout>>,
    /// The highlighter of the highlighting thread and the diff job (the
    /// screen only ever sees the blocks it sends).
    pub highlighter: Option<Arc<Highlighter>>,
    /// Where results are sent.
    pub tx: Sender<Msg>,
    /// How the screen was opened.
    pub context: Context,
    /// The one timer thread of the draft saves (started on first use).
    pub timer: super::jobs::timer::Timer,
    /// The session's worker: runtime, client, job queue, file lane.
    pub worker: Worker,
    /// Checkout reads of the selected finding, coalesced to the latest.
    pub evidence: EvidenceLane,
    /// Highlighting, most urgent first.
    pub highlights: Queue,
    /// How far the background highlighting lane is filled.
    pub rest: RestFeed,
}

impl Runner {
    /// A runner with its worker started (no client yet) and, with a
    /// highlighter, the highlighting thread; the checkout comes later
    /// ([`Runner::attach_checkout`]), once the review is loaded.
    pub fn new(tx: Sender<Msg>, context: Context, highlighter: Option<Arc<Highlighter>>) -> std::io::Result<Runner> {
        let api_url = context.pr.api_url.clone();
        let config: ConfigSource = Box::new(move || crate::github::ClientConfig::discover(api_url.as_deref()));
        let worker = Worker::new(tx.clone(), config)?;
        let highlights = Queue::new();
        if let Some(hl) = &highlighter {
            let to_screen = tx.clone();
            highlights.start(Arc::clone(hl), move |block| {
                let _ = to_screen.send(Msg::Highlighted(block));
            })?;
        }
        Ok(Runner {
            checkout: None,
            highlighter,
            tx,
            context,
            timer: super::jobs::timer::Timer::default(),
            worker,
            evidence: EvidenceLane::new(),
            highlights,
            rest: RestFeed::default(),
        })
    }

    /// Uses this checkout (if any) for evidence from now on and starts the
    /// evidence lane (GitHub serves files the checkout lacks).
    pub fn attach_checkout(&mut self, checkout: Option<Checkout>) -> std::io::Result<()> {
        let checkout = checkout.map(Arc::new);
        self.evidence.start(super::jobs::evidence::Parts {
            checkout: checkout.clone(),
            net: self.worker.net(),
            highlight: self.highlighter.clone().map(|hl| (hl, self.highlights.clone())),
            tx: self.tx.clone(),
        })?;
        self.checkout = checkout;
        Ok(())
    }

    /// Ends the background threads, waiting for file writes asked so far.
    pub fn finish(&mut self) {
        self.evidence.close();
        self.highlights.close();
        self.worker.finish();
    }

    /// Runs one effect. The editor needs the terminal, so the guard comes along.
    pub fn run(&mut self, effect: Effect, guard: &mut TerminalGuard) {
        match effect {
            Effect::OpenUrl(url) => self.open_url(url),
            Effect::OpenEditor { path, line } => self.open_editor(&path, line, guard),
            Effect::Copy(text) => self.copy(&text),
            Effect::LoadEvidence {
                finding,
                evidence,
                reviewed_sha,
                pull,
            } => self.load_evidence(super::jobs::evidence::Request {
                finding,
                evidence,
                reviewed_sha,
                pull,
            }),
            Effect::Submit {
                generation,
                items,
                drafts,
            } => jobs::github::submit(&self.context, generation, items, drafts, &self.worker),
            Effect::RecordRiver {
                generation,
                items,
                drafts,
            } => jobs::river::record_all(&self.context, generation, items, drafts, &self.worker),
            Effect::UndoRiver {
                finding,
                fingerprint,
                v2,
                artifact_root,
            } => jobs::river::undo(&self.context, finding, (fingerprint, v2, artifact_root), &self.worker),
            Effect::Suspend => self.send(jobs::suspend::stop_and_continue(guard)),
            Effect::LookupActor => jobs::github::lookup_actor(&self.worker),
            Effect::ResolveRiverTarget { artifact_root } => {
                jobs::river::resolve_target(&self.context, artifact_root, &self.worker)
            }
            Effect::EditEvidence { text } => {
                self.send(jobs::files::edit_text(&text, guard));
            }
            Effect::LoadOutbox => jobs::files::load_outbox(&self.worker),
            Effect::DropOutbox { id, kind } => self.worker.write(move || Some(jobs::files::drop_entry(&id, kind))),
            Effect::Refresh {
                generation,
                reviewed_sha,
            } => jobs::refresh::start(&self.context, generation, reviewed_sha, &self.worker),
            Effect::ThreadAction {
                generation,
                request,
                replaces,
            } => jobs::thread::start(generation, request, replaces, &self.worker),
            Effect::WriteFile { name, text } => self.worker.write(move || Some(jobs::files::write_file(&name, &text))),
            Effect::SaveSplit(shift) => self.worker.write(move || super::config::remember_split(shift)),
            Effect::SaveDraft { draft } => self.worker.write(move || jobs::files::save_draft(&draft)),
            Effect::DeleteDraft { id } => self.worker.write(move || jobs::files::delete_draft(&id)),
            Effect::LoadDrafts => jobs::files::load_drafts(&self.worker),
            Effect::LoadLedger { generation, target } => {
                jobs::ledger::load(&self.context, generation, target, &self.worker)
            }
            Effect::DraftTimer { generation } => self.timer.set(generation, &self.tx),
            Effect::LoadDiff { generation, request } => jobs::diff::start(
                jobs::diff::Means {
                    checkout: self.checkout.clone(),
                    highlighter: self.highlighter.clone(),
                    net: self.worker.net(),
                },
                generation,
                request,
                self.tx.clone(),
            ),
            Effect::Highlight { selected, visible } => {
                self.highlights.put(Lane::Visible, visible);
                self.highlights.put(Lane::Selected, selected);
            }
        }
    }

    /// Sends a message back to the screen.
    pub fn send(&self, msg: Msg) {
        // The receiver only disappears when the screen is closing.
        let _ = self.tx.send(msg);
    }

    fn open_url(&self, url: String) {
        let openers = super::opener::openers(std::env::var_os("BROWSER").as_deref());
        self.worker.job("opening a link", move |_| {
            Some(match super::opener::open(&url, &openers) {
                Ok(program) => Msg::Notice(Notice::Opened { program, url }),
                Err(tried) => Msg::LinkNotOpened { url, tried },
            })
        });
    }

    /// Starts the background work a review needs from the first frame on:
    /// the HEAD check (highlighting every excerpt behind whatever the screen
    /// shows is queued a batch at a time, [`Runner::top_up_highlights`]).
    /// Returns the head line to show until the check answers.
    pub fn start(&self, set: Option<&ReviewSet>) -> HeadLine {
        let Some(checkout) = &self.checkout else {
            return HeadLine::NoCheckout;
        };
        let Some(sha) = set.and_then(|s| s.reviewed_sha.clone()) else {
            return HeadLine::NoReviewedSha;
        };
        let checkout = Arc::clone(checkout);
        self.worker.job("checking the checkout's HEAD", move |_| {
            Some(Msg::Head(HeadLine::from_match(&checkout.is_reviewed_head(&sha), &sha)))
        });
        HeadLine::Pending
    }

    /// Queues the next batch of the review's excerpts for background
    /// highlighting when the queue runs low (the event loop calls this after
    /// each frame; see [`super::highlight::rest`]).
    pub fn top_up_highlights(&mut self, findings: &[crate::model::finding::Finding]) {
        if self.highlighter.is_some() {
            self.rest.top_up(&self.highlights, findings);
        }
    }

    /// Reads the evidence's context on the lane; with neither a checkout
    /// nor a pull request, every item says why it was not checked.
    fn load_evidence(&self, request: super::jobs::evidence::Request) {
        self.evidence.submit(request, &self.tx);
    }

    fn root(&self) -> PathBuf {
        self.checkout
            .as_ref()
            .map_or_else(|| PathBuf::from("."), |c| c.root().to_path_buf())
    }

    fn open_editor(&mut self, path: &str, line: Option<u32>, guard: &mut TerminalGuard) {
        let file = self.root().join(path);
        if !file.is_file() {
            let shown = crate::sanitize::clean_line(&file.display().to_string());
            self.send(Msg::Notice(Notice::NotInCheckout { path: shown }));
            return;
        }
        let words = jobs::files::editor_words();
        let Some((program, rest)) = words.split_first() else {
            return;
        };
        let program = program.as_str();
        let mut cmd = Command::new(program);
        cmd.args(rest).args(editor_args(program, &file, line));
        guard.suspend();
        let status = cmd.status();
        let resumed = guard.resume();
        let msg = match (status, resumed) {
            (_, Err(e)) => Msg::Notice(Notice::TerminalNotRestored(e.into())),
            (Ok(s), _) if s.success() => Msg::Notice(Notice::BackFrom {
                program: program.to_owned(),
            }),
            (Ok(status), _) => Msg::Notice(Notice::EditorExited {
                program: program.to_owned(),
                status,
            }),
            (Err(e), _) => Msg::Notice(Notice::EditorNotStarted {
                program: program.to_owned(),
                error: e.into(),
            }),
        };
        self.send(msg);
    }

    fn copy(&self, text: &str) {
        // The last door: `update` already refused such text with a reason.
        match super::clipboard::copy(&mut std::io::stdout(), text) {
            Ok(()) => {}
            Err(super::clipboard::CopyError::Refused(why)) => self.send(Msg::Notice(Notice::CopyRefused { why })),
            Err(super::clipboard::CopyError::Write(e)) => self.send(Msg::Notice(Notice::NotCopied(e.into()))),
        }
    }
}

/// The browser opener of this platform.
/// Arguments that open `file` at `line` in the editors that spell it differently.
fn editor_args(program: &str, file: &Path, line: Option<u32>) -> Vec<OsString> {
    let name = Path::new(program)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(program);
    let at = |sep: &str| {
        let mut s = file.as_os_str().to_os_string();
        if let Some(l) = line {
            s.push(format!("{sep}{l}"));
        }
        s
    };
    match (name, line) {
        ("code" | "codium" | "code-insiders", _) => vec!["-g".into(), at(":")],
        ("subl" | "hx" | "helix" | "zed", _) => vec![at(":")],
        (_, Some(l)) => vec![format!("+{l}").into(), file.as_os_str().to_os_string()],
        (_, None) => vec![file.as_os_str().to_os_string()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn editor_line_arguments() {
        let f = Path::new("src/a.rs");
        assert_eq!(
            editor_args("vim", f, Some(3)),
            vec![OsString::from("+3"), OsString::from("src/a.rs")]
        );
        assert_eq!(
            editor_args("/usr/bin/code", f, Some(3)),
            vec![OsString::from("-g"), OsString::from("src/a.rs:3")]
        );
        assert_eq!(editor_args("hx", f, None), vec![OsString::from("src/a.rs")]);
    }
}
