//! Draw first, load after: the screen is entered and a frame with the header
//! and a progress line is on it before any file is parsed or any request is
//! made; the review is read (or the pull request fetched) on a thread of its
//! own while the screen keeps answering keys, so `q` (or `ctrl-c`) quits at
//! any moment and a signal ends it as it ends the full screen.
//!
//! Steps arrive as [`Msg::Progress`]: a `--pr` fetch names each of its steps
//! (the head, the runs, the artifact, the threads) as it starts. That fetch
//! runs on the session worker's runtime and builds the session's one GitHub
//! client, which every later job uses.

use super::app::App;
use super::message::Effect;
use super::update::Msg;
use std::sync::mpsc::{Receiver, Sender};

/// What the loading frame shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loading {
    /// What is being opened (a sanitised file name, `stdin`, `pull request #N`).
    pub what: String,
    /// The step in progress ("reading", "validating", "fetching the pull request").
    pub step: String,
}

/// How the loading phase ended.
pub enum Ended<T> {
    /// The loader finished (its result, good or bad).
    Loaded(T),
    /// The user quit (or a signal came) before it did.
    Quit,
}

/// Runs `load` on a thread of its own, telling its steps through `progress`,
/// and waits for it while the screen draws the loading frame and answers
/// keys. `on_msg` applies every other message (keys, resizes, ticks) and
/// draws; it returns false once the screen must end.
pub fn wait_for<T, L, F>(tx: &Sender<Msg>, rx: &Receiver<Msg>, load: L, mut on_msg: F) -> anyhow::Result<Ended<T>>
where
    T: Send + 'static,
    L: FnOnce(&(dyn Fn(&str) + Sync)) -> T + Send + 'static,
    F: FnMut(Msg) -> anyhow::Result<bool>,
{
    let (done_tx, done_rx) = std::sync::mpsc::channel::<T>();
    let to_screen = tx.clone();
    std::thread::Builder::new().name("load".into()).spawn(move || {
        let step = |s: &str| {
            let _ = to_screen.send(Msg::Progress(s.to_owned()));
        };
        let result = load(&step);
        let _ = done_tx.send(result);
        // Wakes the screen: the result is waiting.
        let _ = to_screen.send(Msg::Progress(String::new()));
    })?;
    loop {
        if let Ok(result) = done_rx.try_recv() {
            return Ok(Ended::Loaded(result));
        }
        let msg = match rx.recv_timeout(super::runtime::TICK) {
            Ok(msg) => msg,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => Msg::Tick,
            Err(e) => anyhow::bail!("the screen's message channel closed: {e}"),
        };
        if let Ok(result) = done_rx.try_recv() {
            return Ok(Ended::Loaded(result));
        }
        if !on_msg(msg)? {
            return Ok(Ended::Quit);
        }
    }
}

/// The state change of a message while loading: steps and ticks move the
/// progress line, a resize is kept, `q`, `ctrl-c` and a signal quit,
/// `ctrl-z` asks for [`Effect::Suspend`] (the shell gets the terminal while
/// the load goes on; `fg` brings the loading frame back); other keys do
/// nothing.
pub fn update(app: &mut App, msg: Msg) -> Option<Effect> {
    use ratatui::crossterm::event::{KeyCode, KeyModifiers};
    match msg {
        Msg::Progress(step) if !step.is_empty() => {
            if let Some(loading) = app.ui.loading.as_mut() {
                loading.step = step;
            }
        }
        Msg::Tick => app.decide.spinner = app.decide.spinner.wrapping_add(1),
        Msg::Resize(w, h) | Msg::Resumed(w, h) => app.ui.size = (w, h),
        Msg::Key(k) if k.code == KeyCode::Char('q') => app.ui.quit = true,
        Msg::Key(k) if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) => {
            app.ui.quit = true
        }
        Msg::Key(k) if k.code == KeyCode::Char('z') && k.modifiers.contains(KeyModifiers::CONTROL) => {
            return Some(Effect::Suspend);
        }
        Msg::Terminate | Msg::InputLost(_) => app.ui.quit = true,
        _ => {}
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn loading_app() -> App {
        let mut app = crate::tui::fixture::app(crate::tui::fixture::scaled(0), (80, 24));
        app.ui.loading = Some(Loading {
            what: "review.json".into(),
            step: "reading".into(),
        });
        app
    }

    #[test]
    fn steps_move_the_progress_line_and_q_quits() {
        let mut app = loading_app();
        update(&mut app, Msg::Progress("validating".into()));
        assert_eq!(app.ui.loading.as_ref().map(|l| l.step.as_str()), Some("validating"));
        update(
            &mut app,
            Msg::Key(KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE)),
        );
        assert!(!app.ui.quit, "other keys wait for the review");
        update(
            &mut app,
            Msg::Key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE)),
        );
        assert!(app.ui.quit);
    }

    #[test]
    fn ctrl_z_while_loading_asks_to_suspend_and_nothing_else_does() {
        let mut app = loading_app();
        let ctrl = |c| Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
        assert!(matches!(update(&mut app, ctrl('z')), Some(Effect::Suspend)));
        assert!(!app.ui.quit, "a suspended load goes on");
        assert!(update(&mut app, Msg::Resumed(100, 30)).is_none());
        assert_eq!(app.ui.size, (100, 30), "the size after fg is kept");
        for msg in [
            Msg::Key(KeyEvent::new(KeyCode::Char('z'), KeyModifiers::NONE)),
            Msg::Progress("validating".into()),
            ctrl('c'),
        ] {
            assert!(update(&mut app, msg).is_none());
        }
        assert!(app.ui.quit);
    }

    #[test]
    fn the_screen_answers_while_the_loader_works_and_quits_before_it_ends() {
        let (tx, rx) = std::sync::mpsc::channel();
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let keys = tx.clone();
        let mut app = loading_app();
        let ended = wait_for(
            &tx,
            &rx,
            move |step| {
                step("fetching the pull request");
                let _ = keys.send(Msg::Key(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE)));
                // Held until the screen has quit: the load is still running then.
                let _ = wait.recv();
                42
            },
            |msg| {
                update(&mut app, msg);
                Ok(!app.ui.quit)
            },
        );
        assert!(matches!(ended, Ok(Ended::Quit)));
        assert_eq!(
            app.ui.loading.as_ref().map(|l| l.step.as_str()),
            Some("fetching the pull request")
        );
        let _ = release.send(());
    }
}
