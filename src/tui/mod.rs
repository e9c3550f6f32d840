//! The interactive screen.
//!
//! Architecture: [`app::App`] holds all state; [`update::update`] is the only
//! function that changes it (pure: no I/O, no clock, no lock) and returns
//! [`effect::Effect`]s; [`effect::Runner`] performs them and reports back as
//! messages; [`view::draw`] only reads the state. Every message and effect,
//! with its payload, is in [`message`]. What both `update` and the view need
//! to know about the frame (line counts, the composer's regions, overlay
//! lines) is in [`present`] and [`layout`]; highlighted blocks arrive in
//! messages and live in the App. Keys reach `update` through the key table
//! in [`keymap`], which also generates the help overlay.
//! `tests/screen_core.rs` holds the core to these rules.

pub mod action;
pub mod app;
pub mod ask;
pub mod autosave;
pub mod clipboard;
pub mod composer;
pub mod config;
pub mod decide;
pub mod decision_state;
pub mod detail_text;
pub mod diff;
pub mod doc;
pub mod drafts;
pub mod drift;
pub mod effect;
pub mod escalate;
pub mod evidence_state;
pub mod filter;
#[cfg(test)]
#[path = "../../tests/support/fixture.rs"]
pub mod fixture;
pub mod fuzzy;
pub mod highlight;
pub mod inbox;
pub mod input;
pub mod jobs;
pub mod kept_threads;
pub mod keymap;
pub mod layout;
pub mod link;
pub mod live;
pub mod message;
pub mod nav;
pub mod offer;
pub mod opener;
pub mod overlay;
pub mod prepared;
pub mod present;
pub mod progress;
pub mod reader;
pub mod recorded;
pub mod reply_draft;
pub mod river_evidence;
pub mod runtime;
pub mod search;
pub mod sort;
pub mod startup;
pub mod terminal;
pub mod text;
pub mod theme;
pub mod thread_act;
pub mod tty;
pub mod update;
pub mod view;

use crate::checkout::Checkout;
use crate::model::load::{Loaded, load_bytes};
use crate::session::OpenOptions;
use crate::session::load::load_or_problem;
use app::{App, Document, Flash, Level, Source};
use highlight::{Highlighter, ThemeChoice};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use update::Msg;

/// The bundled demo: a ReviewGate agent result on a made-up pull request.
pub const DEMO_JSON: &str = include_str!("../../assets/demo-agent-result.json");

/// A document from a load result.
pub fn document(source: Source, loaded: Loaded) -> Document {
    Document::new(source, loaded.format, loaded.set, loaded.problems)
}

/// The bundled demo, loaded like any file.
pub fn demo_document() -> Document {
    document(Source::Demo, load_bytes(DEMO_JSON.as_bytes(), None))
}

/// What `--pr` tells the screen beyond the document: why thread state is
/// unknown (if it is), and the threads of no finding.
type LiveStart = (Option<String>, Vec<crate::model::threads::OrphanThread>);

/// The document to open and, for `--pr`, the live thread facts; `step` is
/// told each fetch step as it starts (the loading frame shows the latest).
/// With `net` (the session worker's), the fetch runs on its runtime and
/// client; without (no screen), on a runtime of its own.
fn open_document(
    args: &OpenOptions,
    net: Option<&jobs::worker::Net>,
    step: &(dyn Fn(&str) + Sync),
) -> anyhow::Result<(Document, LiveStart)> {
    let forced = args.kind;
    if args.pr.pr.is_some() {
        let progress = |event: crate::github::fetch::FetchEvent| {
            if let crate::github::fetch::FetchEvent::Started(s) = event {
                step(s.label());
            }
        };
        let fetched = match net {
            Some(net) => {
                crate::session::fetch::fetch_reporting_on(net.handle(), &args.pr, |c| net.client_from(c), &progress)?
            }
            None => crate::session::fetch::fetch_blocking_reporting(&args.pr, &progress)?,
        };
        let threads = fetched
            .threads
            .as_ref()
            .and_then(|t| t.unavailable_reason())
            .map(str::to_owned);
        let name = crate::sanitize::clean_line(&fetched.display_name());
        let orphans = fetched.orphan_threads;
        return Ok((document(Source::File(name), fetched.loaded), (threads, orphans)));
    }
    let doc = match &args.file {
        None => demo_document(),
        Some(path) if path.as_os_str() == "-" => document(Source::Stdin, load_or_problem(path, forced)),
        Some(path) => {
            let name = crate::sanitize::clean_line(&path.display().to_string());
            document(Source::File(name), load_or_problem(Path::new(path), forced))
        }
    };
    Ok((doc, (None, Vec::new())))
}

/// The checkout evidence is compared with: `--repo-root`, else the git
/// top-level here. The demo's paths belong to no local checkout, so it gets
/// one only when `--repo-root` names it.
fn checkout_for(doc: &Document, args: &OpenOptions) -> Option<Checkout> {
    if doc.source == Source::Demo && args.repo_root.is_none() {
        return None;
    }
    Checkout::discover(args.repo_root.as_deref())
}

/// The absolute path of the result file (drafts of results without a pull
/// request are kept under it); `None` for stdin, `--pr` and the demo.
fn result_path(args: &OpenOptions) -> Option<String> {
    let file = args.file.as_ref().filter(|p| p.as_os_str() != "-")?;
    let path = std::fs::canonicalize(file).ok()?;
    Some(path.to_string_lossy().into_owned())
}

/// `NO_COLOR` set to anything but the empty string turns colour off.
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Everything the loader hands the screen.
struct Opened {
    doc: Document,
    live: LiveStart,
    checkout: Option<Checkout>,
    result_path: Option<String>,
}

/// What the loading frame says is being opened.
fn opening_what(args: &OpenOptions) -> String {
    if let Some(n) = args.pr.pr {
        return format!("pull request #{n}");
    }
    match &args.file {
        None => "the bundled demo".to_owned(),
        Some(path) if path.as_os_str() == "-" => "standard input".to_owned(),
        Some(path) => crate::sanitize::clean_line(&path.display().to_string()),
    }
}

/// The loader: reads (or fetches) the review, finds the checkout; runs off the screen's thread.
fn open_all(args: &OpenOptions, net: &jobs::worker::Net, step: &(dyn Fn(&str) + Sync)) -> anyhow::Result<Opened> {
    step(if args.pr.pr.is_some() {
        "fetching the pull request"
    } else {
        "reading and validating"
    });
    let (doc, live) = open_document(args, Some(net), step)?;
    step("looking for the local checkout");
    let checkout = checkout_for(&doc, args);
    Ok(Opened {
        doc,
        live,
        checkout,
        result_path: result_path(args),
    })
}

/// The exit code of a screen that ended (by the user, or by a signal).
/// A name for this screen's own draft files when its review is open in
/// another screen: the process id and the time it started, so two screens
/// (or one started again) never share one.
fn screen_token() -> String {
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{}-{started}", std::process::id())
}

fn exit_code(ended_by: runtime::EndedBy) -> ExitCode {
    match ended_by {
        // As a shell reports a process ended by a signal.
        Some(signal) => ExitCode::from(u8::try_from(128 + signal).unwrap_or(255)),
        None => ExitCode::SUCCESS,
    }
}

/// Opens the screen on the file, stdin, `--pr`, or the demo; returns when the user quits.
///
/// The terminal is entered and the loading frame drawn first; the review is
/// read on a thread of its own ([`startup`]). A load that fails ends the
/// screen and returns the error as before (same message, same exit code).
pub fn run(args: OpenOptions) -> anyhow::Result<ExitCode> {
    let no_color = no_color();
    let (mut settings, warnings) = config::load(config::config_dir().as_deref(), no_color)?;
    if args.esc_returns {
        // Opened from the inbox: Esc in the list goes back to it.
        settings.keymap.apply_json(r#"{"normal": {"esc": "quit"}}"#)?;
    }
    if let Err(no_terminal) = tty::check() {
        // Without a terminal a `--pr` screen still fetches first, so a
        // refusal, a missing token or a network failure keeps its own exit code.
        if args.pr.pr.is_some() {
            open_document(&args, None, &|_| {})?;
        }
        return Err(no_terminal.into());
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let context = effect::Context {
        pr: args.pr.clone(),
        repo_root: args.repo_root.clone(),
        source: None,
    };
    let highlighter = Some(Arc::new(Highlighter::new(ThemeChoice::for_terminal(no_color))));
    let mut runner = effect::Runner::new(tx.clone(), context, highlighter)?;
    let mut guard = terminal::TerminalGuard::enter()?;
    runtime::start_input(&mut guard, &runner)?;
    let signal = runtime::watch_signals(&runner);
    let mut app = App::new(
        Document::new(Source::Stdin, None, None, Vec::new()),
        settings.clone(),
        guard.size(),
    );
    app.ui.loading = Some(startup::Loading {
        what: opening_what(&args),
        step: "starting".to_owned(),
    });
    runtime::draw(&app, &mut guard)?;
    let load_args = args.clone();
    let net = runner.worker.net();
    let ended = startup::wait_for(
        &tx,
        &rx,
        move |step| open_all(&load_args, &net, step),
        |msg| {
            if let Msg::Resize(w, h) = msg {
                guard.resize(w, h)?;
            }
            if let Some(message::Effect::Suspend) = startup::update(&mut app, msg) {
                let resumed = jobs::suspend::stop_and_continue(&mut guard);
                if let Msg::Resumed(w, h) = resumed {
                    guard.resize(w, h)?;
                }
                startup::update(&mut app, resumed);
            }
            if app.ui.quit {
                return Ok(false);
            }
            runtime::draw(&app, &mut guard)?;
            Ok(true)
        },
    )?;
    let opened = match ended {
        startup::Ended::Quit => return Ok(exit_code(runtime::signal_seen(&signal))),
        startup::Ended::Loaded(result) => result?,
    };
    let Opened {
        doc,
        live: (threads_unavailable, orphans),
        checkout,
        result_path,
    } = opened;
    runner.context.source = match &doc.source {
        Source::File(name) => Some(name.clone()),
        _ => None,
    };
    runner.attach_checkout(checkout)?;
    let mut app = App::new(doc, settings, guard.size());
    app.decide.result_path = result_path;
    app.decide.api = crate::github::ApiBase::resolve(args.pr.api_url.as_deref())
        .ok()
        .filter(|api| !api.is_public())
        .map(|api| api.url());
    // Context comes from the checkout, or from GitHub for a pull request.
    app.evidence.checkout = runner.checkout.is_some() || diff::pull_of(&app).is_some();
    if let Some(hl) = &runner.highlighter {
        app.evidence.highlights = highlight::Highlights::new(hl.is_styled());
    }
    app.evidence.head = runner.start(app.doc.set.as_ref());
    app.live.pr = args.pr.pr.is_some();
    app.live.threads_unavailable = threads_unavailable;
    app.live.orphans = orphans;
    if let Some(w) = warnings.into_iter().next() {
        app.ui.flash = Some(Flash {
            level: Level::Warning,
            text: w,
        });
    }
    // One screen per review keeps its drafts; a second one says so. The
    // claim is held until this screen closes.
    // Without a state directory no claim is made; the drafts say why.
    let _review = drafts::origin(&app).and_then(|origin| match jobs::files::claim_review(&origin) {
        Ok(claim) => Some(claim),
        Err(e) => {
            let busy = matches!(e, crate::outbox::OutboxError::Busy { .. });
            app.decide.open_elsewhere = busy.then(screen_token);
            None
        }
    });
    let ledger = recorded::load(&mut app);
    for effect in offer::startup(&app)
        .into_iter()
        .chain(drafts::startup(&app))
        .chain(ledger)
    {
        runner.run(effect, &mut guard);
    }
    let ended_by = runtime::event_loop(&mut app, &mut guard, &mut runner, &rx, &signal);
    // Drafts asked to be written on the way out are on disk before the
    // exit, and sends under way get their grace. The runner goes while the
    // screen still owns the terminal: a job cut by the runtime's end is
    // reported to no one rather than printed over the restored terminal.
    runner.finish();
    drop(runner);
    drop(guard);
    Ok(exit_code(ended_by?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::finding::ThreadTransition;

    #[test]
    fn the_demo_is_a_valid_agent_result_with_every_thread_state() {
        let doc = demo_document();
        assert!(doc.is_valid(), "{:#?}", doc.problems);
        assert_eq!(doc.source, Source::Demo);
        assert_eq!(doc.read_only_reason(), Some("this is the bundled demo"));
        let findings = doc.findings();
        assert!(findings.len() >= 10);
        let transitions: Vec<ThreadTransition> = findings
            .iter()
            .filter_map(|f| f.reviewgate())
            .map(|r| r.thread.transition)
            .collect();
        for t in [
            ThreadTransition::ResolvedExternally,
            ThreadTransition::Reopened,
            ThreadTransition::ResolutionPending,
            ThreadTransition::Unknown,
            ThreadTransition::Retained,
            ThreadTransition::NotPublished,
        ] {
            assert!(transitions.contains(&t), "demo lacks {t:?}");
        }
        assert!(
            findings
                .iter()
                .any(|f| f.reviewgate().is_some_and(|r| r.thread.outdated))
        );
        assert!(
            findings
                .iter()
                .any(|f| f.reviewgate().is_some_and(|r| !r.history.is_empty()))
        );
        let ranks: std::collections::HashSet<_> = findings.iter().map(|f| f.rank).collect();
        assert_eq!(ranks.len(), 5, "P0 to P4 all present");
    }
}
