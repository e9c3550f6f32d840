//! The headless `list` table: columns sized to their content and to the
//! output width, measured in terminal cells (wide CJK characters count two).
//!
//! Columns: `SEV`, `B` (in the repair set), `DISPOSITION`, `THREAD` (only
//! when a row has them: not for River Review), `WHERE`, `TITLE` and
//! `FINGERPRINT`. The short columns take the width their longest
//! value needs (`resolved_intentional_contract`, River's `critical`), so no
//! value spills into its neighbour; only when the width cannot hold them do
//! `THREAD`, then `DISPOSITION`, give up cells (down to 12), their values cut
//! with `…` (the TSV and JSON outputs keep them whole). `FINGERPRINT` comes last and is never
//! cut: it is what `submit --finding` takes, so it must be copyable whole.
//! When it does not fit beside the other columns (ReviewGate's semantic
//! fingerprints are often 60 to 100 characters), the header leaves it out
//! and each row is followed by its fingerprint on a line of its own,
//! indented by four spaces.
//! `WHERE` and `TITLE` share what is left: a path is shortened from the
//! middle so its file name and `:line` stay (`WHERE` is never narrower than
//! the widest `…/name:line`), a title is cut with `…`. When
//! the output is too narrow even for the fixed columns and the minimum
//! `WHERE`/`TITLE`, a row is longer than the width rather than lose them.
//!
//! The width is `COLUMNS` when set to a positive number, else the
//! terminal's width when standard output is a terminal, else 120.

use crate::model::finding::Finding;
use crate::model::review::ReviewSet;
use crate::sanitize::clean_line;
pub use crate::tui::text::truncate_end;
use std::io::Write;
use unicode_width::UnicodeWidthStr;

/// The width used when standard output is not a terminal and `COLUMNS` is unset.
pub const DEFAULT_WIDTH: usize = 120;
/// The fewest cells `WHERE` is given (room for `…/name.rs:12`).
const MIN_WHERE: usize = 14;
/// The fewest cells a cut `DISPOSITION` or `THREAD` column keeps.
const MIN_CODE: usize = 12;
/// The fewest cells `TITLE` is given.
const MIN_TITLE: usize = 10;
/// The share of the free room `WHERE` gets when both cannot be whole, in fifths.
const WHERE_FIFTHS: usize = 2;

/// The table width from `COLUMNS` and the terminal's width (`None` when
/// standard output is not a terminal or its size is unknown).
pub fn table_width(columns: Option<&str>, terminal: Option<u16>) -> usize {
    columns
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c > 0)
        .or_else(|| terminal.filter(|t| *t > 0).map(usize::from))
        .unwrap_or(DEFAULT_WIDTH)
}

/// One row's cells, already sanitised for the terminal.
struct Row {
    sev: &'static str,
    blocking: &'static str,
    disposition: &'static str,
    thread: &'static str,
    path: Option<String>,
    line: Option<u32>,
    title: String,
    fingerprint: String,
}

impl Row {
    fn of(f: &Finding) -> Row {
        let rg = f.reviewgate();
        Row {
            sev: f.severity_label(),
            blocking: if f.in_repair_set() { "!" } else { " " },
            disposition: rg.map_or("-", |r| r.disposition.as_str()),
            thread: rg.map_or("-", |r| r.thread.transition.as_str()),
            path: f.path.as_deref().map(clean_line),
            line: f.line,
            title: clean_line(f.headline()),
            fingerprint: clean_line(f.key.as_str()),
        }
    }

    fn place(&self) -> String {
        match (&self.path, self.line) {
            (Some(p), Some(l)) => format!("{p}:{l}"),
            (Some(p), None) => p.clone(),
            (None, _) => "PR".to_owned(),
        }
    }
}

/// The widths of the columns; `disposition` and `thread` are `None` when no
/// row has one (a River result), so their room goes to `WHERE` and `TITLE`.
struct Widths {
    sev: usize,
    disposition: Option<usize>,
    thread: Option<usize>,
    place: usize,
    title: usize,
    /// The fingerprint is the last column; `false`: it does not fit beside
    /// the others, so it goes on a line of its own under each row.
    fingerprint_inline: bool,
}

/// The indent of a fingerprint on its own line.
const FINGERPRINT_INDENT: &str = "    ";

fn widths(rows: &[Row], total: usize) -> Widths {
    let max = |header: &str, cell: &dyn Fn(&Row) -> usize| rows.iter().map(cell).fold(header.width(), usize::max);
    let reviewgate = rows.iter().any(|r| r.disposition != "-" || r.thread != "-");
    let sev = max("SEV", &|r| r.sev.width());
    let mut disposition = reviewgate.then(|| max("DISPOSITION", &|r| r.disposition.width()));
    let mut thread = reviewgate.then(|| max("THREAD", &|r| r.thread.width()));
    let place_need = max("WHERE", &|r| r.place().width());
    let title_need = max("TITLE", &|r| r.title.width());
    // `…/name:line`: the least a path may be shortened to.
    let tail_need = rows.iter().map(|r| tail_width(r) + 2).fold(MIN_WHERE, usize::max);
    // Too narrow for the codes at full length: the thread, then the
    // disposition column give up cells down to MIN_CODE (cut with `…`).
    let least = |d: Option<usize>, t: Option<usize>| {
        sev + 3 + d.map_or(0, |w| w + 1) + t.map_or(0, |w| w + 1) + 1 + tail_need.min(place_need) + MIN_TITLE
    };
    let excess = least(disposition, thread).saturating_sub(total);
    if let Some(t) = thread.as_mut() {
        *t -= excess.min(t.saturating_sub(MIN_CODE));
    }
    let excess = least(disposition, thread).saturating_sub(total);
    if let Some(d) = disposition.as_mut() {
        *d -= excess.min(d.saturating_sub(MIN_CODE));
    }
    let fingerprint = max("FINGERPRINT", &|r| r.fingerprint.width());
    // Single-space separators; B is one cell and the fingerprint, last, is
    // not padded.
    let optional = disposition.map_or(0, |w| w + 1) + thread.map_or(0, |w| w + 1);
    let without_fingerprint = sev + 3 + optional + 1;
    let fingerprint_inline = without_fingerprint + fingerprint + 1 + tail_need.min(place_need) + MIN_TITLE <= total;
    let fixed = without_fingerprint + if fingerprint_inline { fingerprint + 1 } else { 0 };
    let room = total.saturating_sub(fixed);
    let (place, title) = if place_need + title_need <= room {
        (place_need, title_need)
    } else {
        let place = place_need.min((room * WHERE_FIFTHS / 5).max(tail_need));
        let title = room.saturating_sub(place).max(MIN_TITLE).min(title_need);
        (place, title)
    };
    Widths {
        sev,
        disposition,
        thread,
        place,
        title,
        fingerprint_inline,
    }
}

/// Cells of a row's file name and `:line`.
fn tail_width(r: &Row) -> usize {
    let name = r.path.as_deref().map_or("PR", |p| p.rsplit('/').next().unwrap_or(p));
    name.width() + r.line.map_or(0, |l| l.to_string().len() + 1)
}

/// Writes the table of the findings at `order`, `total` cells wide.
pub fn write_table(out: &mut impl Write, set: &ReviewSet, order: &[usize], total: usize) -> std::io::Result<()> {
    let rows: Vec<Row> = order.iter().map(|&i| Row::of(&set.findings[i])).collect();
    let w = widths(&rows, total);
    let cells = |sev: &str, b: &str, disposition: &str, thread: &str, place: &str, title: &str, fp: &str| {
        let mut line = format!("{} {} ", pad(sev, w.sev), pad(b, 1));
        for (text, width) in [(disposition, w.disposition), (thread, w.thread)] {
            if let Some(width) = width {
                line.push_str(&pad(text, width));
                line.push(' ');
            }
        }
        line.push_str(&format!("{} {}", pad(place, w.place), pad(title, w.title)));
        if w.fingerprint_inline {
            line.push(' ');
            line.push_str(fp);
        }
        line
    };
    let header = cells(
        "SEV",
        "B",
        &truncate_end("DISPOSITION", w.disposition.unwrap_or(0)),
        "THREAD",
        "WHERE",
        "TITLE",
        "FINGERPRINT",
    );
    writeln!(out, "{}", header.trim_end())?;
    for r in &rows {
        let place = match &r.path {
            Some(p) => shorten_path(p, r.line, w.place),
            None => "PR".to_owned(),
        };
        let title = truncate_end(&r.title, w.title);
        let disposition = truncate_end(r.disposition, w.disposition.unwrap_or(0));
        let thread = truncate_end(r.thread, w.thread.unwrap_or(0));
        let line = cells(r.sev, r.blocking, &disposition, &thread, &place, &title, &r.fingerprint);
        writeln!(out, "{}", line.trim_end())?;
        if !w.fingerprint_inline {
            writeln!(out, "{FINGERPRINT_INDENT}{}", r.fingerprint)?;
        }
    }
    if order.is_empty() {
        writeln!(out, "(no findings selected; try --all)")?;
    }
    Ok(())
}

/// `s` padded with spaces to `width` cells (it is never wider: callers cut first).
fn pad(s: &str, width: usize) -> String {
    let mut out = s.to_owned();
    out.extend(std::iter::repeat_n(' ', width.saturating_sub(s.width())));
    out
}

/// `path:line` in at most `max` cells, shortened from the middle: the start
/// of the directory part, `…/`, then the file name and `:line`. When even
/// `…/name:line` is too wide, the end of `name:line` is kept after `…`, so
/// the line number is always shown (the screen's list rule,
/// [`crate::tui::view::list::shorten_middle`]).
pub fn shorten_path(path: &str, line: Option<u32>, max: usize) -> String {
    let line_part = line.map(|l| format!(":{l}")).unwrap_or_default();
    crate::tui::view::list::shorten_middle(&format!("{path}{line_part}"), max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_width_comes_from_columns_then_the_terminal_then_120() {
        assert_eq!(table_width(Some("80"), Some(200)), 80);
        assert_eq!(table_width(Some(" 99 "), None), 99);
        assert_eq!(table_width(Some("wide"), Some(200)), 200);
        assert_eq!(table_width(Some("0"), None), DEFAULT_WIDTH);
        assert_eq!(table_width(None, Some(0)), DEFAULT_WIDTH);
        assert_eq!(table_width(None, None), DEFAULT_WIDTH);
    }

    #[test]
    fn paths_keep_the_file_name_and_line() {
        let p = "src/checkout/components/payment/PaymentForm.tsx";
        assert_eq!(shorten_path(p, Some(42), 60), format!("{p}:42"));
        let short = shorten_path(p, Some(42), 30);
        assert_eq!(short, "src/checko…/PaymentForm.tsx:42");
        assert!(short.width() <= 30);
        assert_eq!(shorten_path(p, Some(42), 20), "…/PaymentForm.tsx:42");
        assert_eq!(shorten_path(p, Some(42), 19), "…PaymentForm.tsx:42");
        assert_eq!(shorten_path(p, Some(42), 10), "…rm.tsx:42");
        assert_eq!(shorten_path("a/b.rs", None, 60), "a/b.rs");
        // Wide characters count two cells; the cut never splits one.
        let wide = "サービス/返金/ハンドラ/refunds.py";
        let cut = shorten_path(wide, Some(7), 20);
        assert_eq!(cut, "サービ…/refunds.py:7");
        assert!(cut.width() <= 20, "{cut}");
    }

    #[test]
    fn titles_are_cut_with_an_ellipsis_by_cells() {
        assert_eq!(truncate_end("short", 10), "short");
        assert_eq!(truncate_end("a longer title", 8), "a longe…");
        let cut = truncate_end("返金の再試行が失敗する", 9);
        assert_eq!(cut, "返金の再…");
        assert!(cut.width() <= 9);
    }
}
