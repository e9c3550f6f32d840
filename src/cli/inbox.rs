//! `triage inbox`: every open pull request of a repository, ranked by what
//! needs a human. With `--format json`, one JSON object per line (the
//! fields the README lists); with `--format table`, an aligned table sized
//! like `list`'s; without `--format`, the screen.
//!
//! Rows that could not be read are rows (`state: "unknown"` with a
//! `reason`), not failures: the exit code is 0 whenever the pull requests
//! could be listed. Listing them failing is 4 (GitHub, network, token) or 3
//! (GitHub refused: no such repository); a bad `--repo` is 2.

use super::args::{InboxArgs, InboxFormat};
use super::exit;
use super::list::table::{table_width, truncate_end};
use crate::inbox::row::CELL_NAMES;
use crate::inbox::{Inbox, Row};
use crate::sanitize::clean_line;
use serde_json::{Value, json};
use std::io::{BufWriter, Write};
use std::process::ExitCode;
use unicode_width::UnicodeWidthStr;

/// Runs `triage inbox`.
pub fn run(args: &InboxArgs) -> anyhow::Result<ExitCode> {
    let Some(format) = args.format else {
        return crate::tui::inbox::run(args.target());
    };
    let inbox = crate::inbox::read_blocking(&args.target())?;
    let stdout = std::io::stdout();
    let terminal = std::io::IsTerminal::is_terminal(&stdout);
    let mut out = BufWriter::new(stdout.lock());
    match format {
        InboxFormat::Json => {
            for (i, row) in inbox.rows.iter().enumerate() {
                super::out::write_json_line(&mut out, &json_line(row, i + 1).to_string(), terminal)?;
            }
        }
        InboxFormat::Table => {
            let size = if terminal {
                crossterm::terminal::size().ok().map(|(w, _)| w)
            } else {
                None
            };
            let width = table_width(std::env::var("COLUMNS").ok().as_deref(), size);
            write_table(&mut out, &inbox.rows, width)?;
        }
    }
    out.flush()?;
    eprintln!("{}", summary(&inbox));
    for note in &inbox.notes {
        eprintln!("triage: {}", clean_line(note));
    }
    if let Some(notice) = crate::session::rate::rate_notice(inbox.rate_remaining) {
        eprintln!("triage: {notice}");
    }
    Ok(ExitCode::from(exit::OK))
}

/// The closing line on stderr: what was listed and what it cost.
pub fn summary(inbox: &Inbox) -> String {
    let rate = inbox.rate_remaining.map_or_else(
        || "rate limit not told".to_owned(),
        |left| format!("rate limit {left} left"),
    );
    let s = inbox.stats;
    format!(
        "inbox {}: {} shown of {} open; {} request(s), {} conditional, {} not modified, at most {} in flight; {rate}",
        inbox.repo,
        inbox.rows.len(),
        inbox.total_open,
        s.sent,
        s.conditional,
        s.not_modified,
        s.most_in_flight
    )
}

/// One row as the JSON line (`rank` from 1), every text sanitised.
pub fn json_line(row: &Row, rank: usize) -> Value {
    let clean = |s: &str| clean_line(s);
    json!({
        "rank": rank,
        "number": row.number,
        "title": clean(&row.title),
        "author": row.author.as_deref().map(clean),
        "head_sha": clean(&row.head_sha),
        "head_ref": clean(&row.head_ref),
        "base_ref": clean(&row.base_ref),
        "draft": row.draft,
        "labels": row.labels.iter().map(|l| clean(l)).collect::<Vec<_>>(),
        "created_at": clean(&row.created_at),
        "updated_at": clean(&row.updated_at),
        "age_seconds": row.age_seconds,
        "state": row.state.as_str(),
        "reason": row.reason.as_deref().map(clean),
        "score": row.score,
        "repair_set": row.repair_set,
        "findings": row.findings,
        "undecided": row.undecided,
        "drift": row.drift,
        "needs_human": row.needs_human,
        "awaiting": row.awaiting,
        "run_id": row.run_id,
        "newer_run_id": row.newer_run_id,
        "artifact_id": row.artifact_id,
        "river_artifacts": row.river_artifacts.iter().map(|l| clean(l)).collect::<Vec<_>>(),
    })
}

/// The fixed columns of a row (everything but the title); the author cut
/// to 16 cells.
fn cells(row: &Row) -> [String; 10] {
    let mut cells = row.cells();
    cells[9] = truncate_end(&cells[9], 16);
    cells
}

/// The fewest cells `TITLE` is given.
const MIN_TITLE: usize = 10;

/// The table: fixed columns sized to their content, the title gets the rest
/// of `width` (at least [`MIN_TITLE`]); an `unknown` row's reason follows on
/// a line of its own, indented.
pub fn write_table(out: &mut impl Write, rows: &[Row], width: usize) -> std::io::Result<()> {
    let all: Vec<[String; 10]> = rows.iter().map(cells).collect();
    let mut widths = [0usize; 10];
    for (i, w) in widths.iter_mut().enumerate() {
        *w = all
            .iter()
            .map(|c| c[i].width())
            .chain(std::iter::once(CELL_NAMES[i].width()))
            .max()
            .unwrap_or(0);
    }
    let fixed: usize = widths.iter().map(|w| w + 2).sum();
    let title_width = width.saturating_sub(fixed).max(MIN_TITLE);
    let line = |cols: &[String], title: &str| {
        let mut text = String::new();
        for (i, c) in cols.iter().enumerate() {
            text.push_str(c);
            text.extend(std::iter::repeat_n(' ', widths[i] + 2 - c.width()));
        }
        text.push_str(&truncate_end(title, title_width));
        text.trim_end().to_owned()
    };
    let header: Vec<String> = CELL_NAMES.iter().map(|h| (*h).to_owned()).collect();
    writeln!(out, "{}", line(&header, "TITLE"))?;
    for (row, cols) in rows.iter().zip(&all) {
        writeln!(out, "{}", line(cols, &clean_line(&row.title)))?;
        if let Some(reason) = row
            .reason
            .as_deref()
            .filter(|_| row.state == crate::inbox::ReviewState::Unknown)
        {
            writeln!(
                out,
                "    {}",
                truncate_end(&clean_line(reason), width.saturating_sub(4).max(20))
            )?;
        } else if let Some(newer) = row.newer_run_text() {
            writeln!(out, "    {}", truncate_end(&newer, width.saturating_sub(4).max(20)))?;
        }
    }
    if rows.is_empty() {
        writeln!(out, "(no open pull requests match)")?;
    }
    Ok(())
}
