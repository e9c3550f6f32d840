//! `D`: the pull request's hunk around each evidence line, old and new side,
//! with the evidence lines marked. The change is read in the background
//! ([`Effect::LoadDiff`], answered by [`Msg::DiffLoaded`]): from the local
//! repository when it has the commits, otherwise from GitHub. This module
//! holds the request, the answer and the rows the view draws; the rows are
//! rebuilt here (never while drawing) when highlighting arrives.

use super::app::{App, Level, Mode};
use super::effect::Effect;
use super::highlight::{HighlightKey, Highlights, StyledLine, plain_lines};
use super::message::failure::DiffError;
pub use super::message::{DiffReport, DiffRequest, ItemChange, ItemDiff, PullRef};
use super::update::flash;
use crate::checkout::diff::{Hunk, LineKind};
use crate::model::finding::Side;
use crate::model::review::Scope;
use std::collections::HashSet;

/// The pull request of the loaded review, when GitHub may be asked about
/// it: a pull-request result that is not the bundled demo.
pub fn pull_of(app: &App) -> Option<PullRef> {
    if app.doc.source == super::app::Source::Demo {
        return None;
    }
    match &app.doc.set.as_ref()?.scope {
        Scope::PullRequest {
            repository,
            pull_request_number,
        } => Some(PullRef {
            repository: repository.clone(),
            number: *pull_request_number,
        }),
        Scope::Local => None,
    }
}

/// A drawn line of the view.
#[derive(Debug, Clone, PartialEq)]
pub enum RowKind {
    /// The item's path and side.
    Heading,
    /// A remark (no hunk, renamed, cut).
    Note,
    /// The hunk header.
    Section,
    /// A hunk line; `marked` when it is an evidence line.
    Line {
        kind: LineKind,
        old: Option<u32>,
        new: Option<u32>,
        marked: bool,
    },
    /// Empty separator.
    Blank,
}

/// One row: what it is and its (sanitised, maybe highlighted) text.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub kind: RowKind,
    pub text: StyledLine,
}

/// The diff view's state.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum DiffView {
    /// Nothing asked for.
    #[default]
    Closed,
    /// Being read (this generation, for this finding).
    Loading { generation: u64, finding: usize },
    /// Read: the report (or why there is none) and its rows.
    Shown {
        finding: usize,
        report: Result<DiffReport, DiffError>,
        rows: Vec<Row>,
        /// Hunks still shown plain, waiting for highlighting.
        waiting: HashSet<HighlightKey>,
    },
}

impl DiffView {
    /// Rows to draw (none while loading).
    pub fn rows(&self) -> &[Row] {
        match self {
            DiffView::Shown { rows, .. } => rows,
            _ => &[],
        }
    }

    /// True when shown rows are plain until the block `key` arrives.
    pub fn waits_for(&self, key: HighlightKey) -> bool {
        matches!(self, DiffView::Shown { waiting, .. } if waiting.contains(&key))
    }
}

/// `D`: opens the view and asks for the selected finding's change.
pub fn open(app: &mut App) -> Vec<Effect> {
    let Some((finding, f)) = app.selected().zip(app.selected_finding()) else {
        flash(app, Level::Warning, "No finding selected.");
        return Vec::new();
    };
    let evidence = super::river_evidence::items(f).into_owned();
    if evidence.is_empty() {
        flash(
            app,
            Level::Info,
            "This finding has no evidence lines to show a change for.",
        );
        return Vec::new();
    }
    let set = app.doc.set.as_ref();
    let request = DiffRequest {
        finding,
        evidence,
        reviewed_sha: set.and_then(|s| s.reviewed_sha.clone()),
        base_sha: set.and_then(|s| s.river.as_ref()).and_then(|r| r.merge_base.clone()),
        pull: pull_of(app),
    };
    let generation = app.next_generation;
    app.next_generation += 1;
    app.diff = DiffView::Loading { generation, finding };
    app.ui.mode = Mode::Diff { scroll: 0 };
    vec![Effect::LoadDiff { generation, request }]
}

/// The job answered; a stale generation (the view was closed or reopened) is dropped.
pub fn loaded(app: &mut App, generation: u64, report: Result<DiffReport, DiffError>) {
    let DiffView::Loading { generation: g, finding } = app.diff else {
        return;
    };
    if g != generation {
        return;
    }
    let (rows, waiting) = rows(&app.evidence.highlights, &report);
    app.diff = DiffView::Shown {
        finding,
        report,
        rows,
        waiting,
    };
}

/// A highlighted block is ready: rebuild the rows if they wait for it.
pub fn highlighted(app: &mut App, key: HighlightKey) {
    if let DiffView::Shown {
        report, rows, waiting, ..
    } = &mut app.diff
        && waiting.contains(&key)
    {
        (*rows, *waiting) = self::rows(&app.evidence.highlights, report);
    }
}

/// Esc: closes the view (a late answer is then dropped).
pub fn close(app: &mut App) {
    app.diff = DiffView::Closed;
    app.ui.mode = Mode::Normal;
}

/// The code lines of a hunk, for highlighting (already sanitised).
pub fn hunk_lines(hunk: &Hunk) -> Vec<String> {
    hunk.lines.iter().map(|l| l.text.clone()).collect()
}

/// Builds the rows of a report, using the highlighted blocks that arrived.
fn rows(hl: &Highlights, report: &Result<DiffReport, DiffError>) -> (Vec<Row>, HashSet<HighlightKey>) {
    let mut out = Vec::new();
    let mut waiting = HashSet::new();
    let note = |text: String| Row {
        kind: RowKind::Note,
        text: vec![(Default::default(), text)],
    };
    let report = match report {
        Ok(r) => r,
        Err(why) => {
            out.push(note(format!("No change to show: {why}")));
            return (out, waiting);
        }
    };
    out.push(note(report.origin.clone()));
    for item in &report.items {
        out.push(Row {
            kind: RowKind::Blank,
            text: Vec::new(),
        });
        item_rows(hl, item, &mut out, &mut waiting);
    }
    (out, waiting)
}

fn item_rows(hl: &Highlights, item: &ItemDiff, out: &mut Vec<Row>, waiting: &mut HashSet<HighlightKey>) {
    let side = match item.side {
        Side::New => "new",
        Side::Old => "old",
    };
    let (first, last) = item.lines;
    let at = if first == last {
        format!("{first}")
    } else {
        format!("{first}-{last}")
    };
    let plain = |kind: RowKind, text: String| Row {
        kind,
        text: vec![(Default::default(), text)],
    };
    out.push(plain(RowKind::Heading, format!("{}:{at}  {side} side", item.path)));
    if let Some(from) = &item.renamed_from {
        out.push(plain(RowKind::Note, format!("renamed from {from}")));
    }
    let remark = match &item.change {
        ItemChange::Hunk(_) => None,
        ItemChange::Unchanged { hunks } => Some(format!(
            "line {at} is outside the change of this file ({hunks} hunk{})",
            if *hunks == 1 { "" } else { "s" }
        )),
        ItemChange::NotInChange => Some("the pull request does not change this file".to_string()),
        ItemChange::Binary => Some("binary file: no lines to show".to_string()),
        ItemChange::NoPatch => Some("GitHub sends no patch for this file (binary or too large)".to_string()),
        ItemChange::RefusedPath(problem) => Some(format!("not available: refused path: {problem}")),
    };
    if let Some(text) = remark {
        out.push(plain(RowKind::Note, text));
    }
    if item.truncated {
        out.push(plain(RowKind::Note, "the patch is cut at its size limit".to_string()));
    }
    let ItemChange::Hunk(hunk) = &item.change else {
        return;
    };
    let header = format!(
        "@@ -{},{} +{},{} @@ {}",
        hunk.old_start, hunk.old_len, hunk.new_start, hunk.new_len, hunk.section
    );
    out.push(plain(RowKind::Section, header.trim_end().to_string()));
    let lines = hunk_lines(hunk);
    let styled = match hl.get(&item.path, &lines) {
        Some(done) => done.lines.clone(),
        None => {
            waiting.extend(hl.awaited(&item.path, &lines));
            plain_lines(&lines)
        }
    };
    for (line, text) in hunk.lines.iter().zip(styled) {
        let number = match item.side {
            Side::New => line.new,
            Side::Old => line.old,
        };
        let marked = number.is_some_and(|n| (first..=last).contains(&n));
        out.push(Row {
            kind: RowKind::Line {
                kind: line.kind,
                old: line.old,
                new: line.new,
                marked,
            },
            text,
        });
        if line.no_newline {
            out.push(plain(RowKind::Note, "\\ no newline at end of file".to_string()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::checkout::diff::DiffLine;
    use crate::tui::action::Action;
    use crate::tui::highlight::{Highlighter, ThemeChoice};
    use crate::tui::update::{Msg, update};

    fn report() -> DiffReport {
        let line = |kind, old, new, text: &str| DiffLine {
            kind,
            old,
            new,
            text: text.to_string(),
            no_newline: false,
        };
        DiffReport {
            origin: "local repository".into(),
            items: vec![ItemDiff {
                path: "src/lib.rs".into(),
                renamed_from: None,
                side: Side::New,
                lines: (2, 2),
                truncated: false,
                change: ItemChange::Hunk(Hunk {
                    old_start: 1,
                    old_len: 2,
                    new_start: 1,
                    new_len: 2,
                    section: String::new(),
                    lines: vec![
                        line(LineKind::Context, Some(1), Some(1), "fn a() {}"),
                        line(LineKind::Removed, Some(2), None, "let x = 1;"),
                        line(LineKind::Added, None, Some(2), "let x = \"two\"; // changed"),
                    ],
                }),
            }],
        }
    }

    #[test]
    fn rows_are_plain_until_the_hunk_is_highlighted_then_styled() {
        let mut app = crate::tui::fixture::app(crate::tui::fixture::sample_set(), (100, 30));
        let hl = Highlighter::new(ThemeChoice::Ansi);
        app.evidence.highlights = Highlights::new(true);
        let asked = update(&mut app, Msg::Action(Action::ShowDiff));
        assert!(matches!(asked.first(), Some(Effect::LoadDiff { .. })), "{asked:?}");
        let DiffView::Loading { generation, .. } = app.diff else {
            panic!("loading");
        };
        let answer = |generation| Msg::DiffLoaded {
            generation,
            report: Ok(report()),
        };
        update(&mut app, answer(generation + 1));
        assert!(
            matches!(app.diff, DiffView::Loading { .. }),
            "a stale answer is dropped"
        );
        update(&mut app, answer(generation));
        let styles = |app: &App| -> usize {
            let set: HashSet<_> = app
                .diff
                .rows()
                .iter()
                .flat_map(|r| r.text.iter().map(|(s, _)| *s))
                .collect();
            set.len()
        };
        let marked: Vec<bool> = app
            .diff
            .rows()
            .iter()
            .filter_map(|r| match r.kind {
                RowKind::Line { marked, .. } => Some(marked),
                _ => None,
            })
            .collect();
        assert_eq!(marked, vec![false, false, true], "only the new-side line 2 is evidence");
        assert_eq!(styles(&app), 1, "plain first");
        let DiffView::Shown { waiting, .. } = &app.diff else {
            panic!("shown");
        };
        let key = *waiting.iter().next().unwrap_or_else(|| panic!("waits for the hunk"));
        let lines = vec![
            "fn a() {}".to_string(),
            "let x = 1;".into(),
            "let x = \"two\"; // changed".into(),
        ];
        let block = hl.highlight("src/lib.rs", &lines);
        assert_eq!(block.key(), key);
        assert!(app.diff.waits_for(key), "a redraw is due when it arrives");
        update(&mut app, Msg::Highlighted(block));
        assert!(styles(&app) >= 3, "keywords, strings and comments styled");
        update(&mut app, Msg::Action(Action::Back));
        assert_eq!(app.diff, DiffView::Closed);
    }
}
