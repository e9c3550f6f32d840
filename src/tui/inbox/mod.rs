//! The inbox screen: every open pull request of a repository, ranked by
//! what needs a human ([`crate::inbox`]). `Enter` opens the selected pull
//! request's triage screen (the same screen `triage --pr N` opens); `Esc`
//! in its list (or quitting it) shows the inbox again with its place kept; `R` reads the
//! inbox again (every REST answer revalidated from the on-disk cache).
//!
//! [`state::update`] is pure; this module is the runtime: it owns the
//! terminal, reads keys through the screen's input reader, runs each read
//! of the inbox on a thread of its own, and hands the terminal to the pull
//! request's screen and takes it back.

pub mod state;
pub mod view;

use super::reader::Gate;
use super::terminal::TerminalGuard;
use super::update::Msg;
use crate::inbox::InboxTarget;
use crate::session::OpenOptions;
use crate::session::fetch::PrTarget;
use anyhow::Context as _;
use state::{InboxEffect, InboxMsg, InboxState, update};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender, channel};

/// Opens the inbox screen on `target`; returns when the user quits.
pub fn run(target: InboxTarget) -> anyhow::Result<ExitCode> {
    // Without a terminal the flags are still checked, so a bad --repo keeps its code.
    let (_, repo) = crate::inbox::resolve(&target)?;
    super::tty::check()?;
    let (tx, rx) = channel::<InboxMsg>();
    let mut guard = TerminalGuard::enter()?;
    let gate = start_reader(&mut guard, tx.clone())?;
    let mut state = InboxState::new(repo.to_string(), guard.size());
    spawn_read(&target, &tx);
    loop {
        guard
            .draw(|frame| view::draw(frame, &state))
            .context("drawing the inbox")?;
        let msg = rx.recv().context("the inbox's message channel closed")?;
        if let InboxMsg::Resize(w, h) = &msg {
            guard.resize(*w, *h)?;
        }
        for effect in update(&mut state, msg) {
            match effect {
                InboxEffect::Quit => {}
                InboxEffect::Read => spawn_read(&target, &tx),
                InboxEffect::WritePacket => {
                    let said = packet_written(&state, &target);
                    update(&mut state, InboxMsg::Said(said));
                }
                InboxEffect::Open(number) => {
                    let failed = open_pull_request(&target, number, &mut guard, &gate)?;
                    let (w, h) = guard.reread_size()?;
                    update(&mut state, InboxMsg::Resize(w, h));
                    update(&mut state, InboxMsg::Returned(failed));
                }
            }
        }
        if state.quit {
            break;
        }
    }
    gate.close();
    drop(guard);
    Ok(ExitCode::SUCCESS)
}

/// Writes the escalation packet of the inbox shown; the sentence says where (or why not).
fn packet_written(state: &InboxState, target: &InboxTarget) -> String {
    let Some(inbox) = &state.inbox else {
        return "nothing to write yet: the inbox is still being read".to_owned();
    };
    let web = crate::github::ApiBase::resolve(target.api_url.as_deref())
        .map_or_else(|_| "https://github.com".to_owned(), |api| api.web_base());
    match crate::inbox::write_packet(inbox, &web) {
        Ok((name, count)) => format!("escalation packet written to {name} ({count} pull request(s))"),
        Err(e) => format!("the escalation packet could not be written: {e}"),
    }
}

/// Starts the screen's input reader and forwards what it reads as [`InboxMsg`]s.
fn start_reader(guard: &mut TerminalGuard, tx: Sender<InboxMsg>) -> anyhow::Result<Arc<Gate>> {
    let gate = Arc::new(Gate::default());
    let (term_tx, term_rx) = channel::<Msg>();
    super::reader::spawn(term_tx, Arc::clone(&gate)).context("starting the terminal reader")?;
    guard.attach_input(Arc::clone(&gate));
    std::thread::Builder::new()
        .name("inbox-input".into())
        .spawn(move || forward(&term_rx, &tx))
        .context("starting the inbox input")?;
    Ok(gate)
}

/// Keys and resizes from the reader, as the inbox's messages.
fn forward(term: &Receiver<Msg>, tx: &Sender<InboxMsg>) {
    while let Ok(msg) = term.recv() {
        let out = match msg {
            Msg::Key(key) => InboxMsg::Key(key),
            Msg::Resize(w, h) => InboxMsg::Resize(w, h),
            _ => continue,
        };
        if tx.send(out).is_err() {
            return;
        }
    }
}

/// One read of the inbox on a thread of its own; its result comes back as a message.
fn spawn_read(target: &InboxTarget, tx: &Sender<InboxMsg>) {
    let (target, sender) = (target.clone(), tx.clone());
    let spawned = std::thread::Builder::new().name("inbox-read".into()).spawn(move || {
        let read = crate::inbox::read_blocking(&target).map_err(|e| format!("{e:#}"));
        let _ = sender.send(InboxMsg::Loaded(read));
    });
    if let Err(e) = spawned {
        let _ = tx.send(InboxMsg::Loaded(Err(format!("cannot start the read: {e}"))));
    }
}

/// Hands the terminal to pull request `number`'s triage screen until it
/// ends; says why when it could not open (or ended on an error).
fn open_pull_request(
    target: &InboxTarget,
    number: u64,
    guard: &mut TerminalGuard,
    gate: &Gate,
) -> anyhow::Result<Option<String>> {
    let options = OpenOptions {
        pr: PrTarget {
            pr: Some(number),
            repo: target.repo.clone(),
            workflow: target.workflow.clone(),
            api_url: target.api_url.clone(),
        },
        esc_returns: true,
        ..OpenOptions::default()
    };
    guard.suspend();
    let shown = super::run(options);
    guard.resume().context("returning to the inbox")?;
    gate.open();
    Ok(shown.err().map(|e| format!("#{number} did not open: {e:#}")))
}
