//! The drift lane's orphan threads: ReviewGate threads on the pull request
//! whose fingerprint matches no finding of the loaded result (ReviewGate
//! leaves such threads when its verifier rejects a finding, and resolves
//! them itself). They have no row of their own to select; each line says
//! how to act on it from the command line.

use crate::model::threads::OrphanThread;
use crate::sanitize::clean_line;
use crate::tui::app::App;
use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// The lines below the lane's findings: a heading and two lines per thread,
/// at most `room` lines in all.
pub fn lines(app: &App, room: usize) -> Vec<Line<'static>> {
    let orphans = &app.live.orphans;
    if orphans.is_empty() || room == 0 {
        return Vec::new();
    }
    let theme = &app.settings.theme;
    let mut out = vec![Line::styled(
        format!(
            " Orphan threads ({}): ReviewGate threads of no finding in this result",
            orphans.len()
        ),
        theme.heading,
    )];
    let pr = match app.doc.set.as_ref().map(|s| &s.scope) {
        Some(crate::model::review::Scope::PullRequest {
            repository,
            pull_request_number,
        }) => format!("--repo {} --pr {pull_request_number} ", clean_line(repository)),
        _ => String::new(),
    };
    for o in orphans {
        if out.len() + 2 > room {
            break;
        }
        out.extend(orphan_lines(o, &pr, theme));
    }
    out.truncate(room);
    out
}

fn orphan_lines(o: &OrphanThread, pr: &str, theme: &Theme) -> [Line<'static>; 2] {
    let t = &o.thread;
    let state = if t.resolved { "resolved" } else { "open    " };
    let id = if t.finding_id.is_empty() {
        "(empty finding id)".to_owned()
    } else {
        format!("finding id {}", clean_line(&t.finding_id))
    };
    let mut first = vec![
        Span::styled("   ◌ ", theme.dim),
        Span::styled(format!("{state} "), if t.resolved { theme.dim } else { theme.warning }),
    ];
    if t.outdated {
        first.push(Span::styled("~ ", theme.dim));
    }
    first.push(Span::styled(clean_line(&o.fingerprint), theme.label));
    first.push(Span::styled(format!(" · {id}"), theme.dim));
    let advice = if t.resolved {
        "↳ no finding here; the thread is settled (nothing to do)".to_owned()
    } else {
        format!(
            "↳ no finding here; once settled: triage thread resolve {pr}--finding {}",
            clean_line(&o.fingerprint)
        )
    };
    [Line::from(first), Line::styled(format!("     {advice}"), theme.dim)]
}
