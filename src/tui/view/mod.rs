//! Drawing: a function of `&App` only. Nothing here changes state, reads
//! files or the environment, or touches unsanitised text: rows and pane text
//! were prepared (and sanitised) before the frame.

pub mod ask;
pub mod banner;
pub mod detail;
pub mod diff;
pub mod evidence;
pub mod filter_menu;
pub mod header;
pub mod list;
pub mod list_match;
pub mod loading;
pub mod orphans;
pub mod outbox;
pub mod status;

use super::app::{App, Mode, Pane};
use super::layout;
// The overlays' lines live in `present` (update counts them); the old paths stay.
pub use super::present::{help, problems};
use super::text::{TextLine, Tone};
use super::theme::Theme;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

/// The help overlay's title.
const HELP_TITLE: &str = " Keys (generated from the key table) ";
/// The problems overlay's title.
const PROBLEMS_TITLE: &str = " Problems and angle errors ";

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App) {
    if let Some(l) = &app.ui.loading {
        return loading::render(frame, app, l);
    }
    let areas = layout::areas(app);
    header::render(frame, areas.header, app);
    banner::render(frame, areas.banner, app);
    list::render(frame, areas.list, app);
    detail::render(frame, areas.detail, app);
    detail::render_evidence(frame, areas.evidence, app);
    status::render(frame, areas.status, app);
    match app.ui.mode {
        Mode::Help(open) => overlay(frame, app, HELP_TITLE, &help::shown(app), open.scroll),
        Mode::Problems(open) => overlay(frame, app, PROBLEMS_TITLE, &problems::shown(app), open.scroll),
        Mode::Filter(menu) | Mode::PathInput(menu) => filter_menu::render(frame, app, menu.cursor),
        Mode::Compose(stage) => super::composer::view::render(frame, app, stage),
        Mode::Outbox { cursor } => outbox::render(frame, app, cursor),
        Mode::Ask(q) => ask::render(frame, app, q),
        Mode::ThreadReply { finding } => ask::render_reply(frame, app, finding),
        Mode::Diff { scroll } => diff::render(frame, app, scroll),
        Mode::Normal | Mode::Search => {}
    }
}

/// The theme style of a tone.
pub fn tone_style(theme: &Theme, tone: Tone) -> Style {
    match tone {
        Tone::Plain => Style::new(),
        Tone::Heading => theme.heading,
        Tone::Label => theme.label,
        Tone::Dim => theme.dim,
        Tone::Warning => theme.warning,
        Tone::Error => theme.error,
        Tone::Code => theme.code,
        Tone::Accent => theme.accent,
        Tone::Severity(n) => theme.severity.get(usize::from(n)).copied().unwrap_or_default(),
    }
}

/// A prepared line as a ratatui line (borrows the text).
pub fn to_line<'a>(line: &'a TextLine, theme: &Theme) -> Line<'a> {
    Line::from(
        line.spans
            .iter()
            .map(|(tone, text)| Span::styled(text.as_str(), tone_style(theme, *tone)))
            .collect::<Vec<_>>(),
    )
}

/// A bordered pane block; the focused pane's border stands out.
pub fn pane_block<'a>(title: Line<'a>, app: &App, pane: Pane) -> Block<'a> {
    let focused = app.ui.focus == pane && matches!(app.ui.mode, Mode::Normal);
    let style = if focused {
        app.settings.theme.focus
    } else {
        app.settings.theme.dim
    };
    Block::default().borders(Borders::ALL).border_style(style).title(title)
}

/// Draws `lines` from `scroll` in a centred, bordered overlay.
fn overlay(frame: &mut Frame, app: &App, title: &str, lines: &[TextLine], scroll: usize) {
    let area = layout::overlay(app);
    let theme = &app.settings.theme;
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.focus)
        .title(Span::styled(title, theme.heading));
    let inner = layout::Areas::inner(area);
    let shown: Vec<Line> = lines
        .iter()
        .skip(scroll)
        .take(usize::from(inner.height))
        .map(|l| to_line(l, theme))
        .collect();
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(shown).block(block), area);
}

/// Draws prepared lines from `scroll` into the inside of `block`.
pub fn text_pane(frame: &mut Frame, area: Rect, block: Block<'_>, lines: &[TextLine], scroll: usize, theme: &Theme) {
    let height = usize::from(layout::Areas::inner(area).height);
    let shown: Vec<Line> = lines
        .iter()
        .skip(scroll)
        .take(height)
        .map(|l| to_line(l, theme))
        .collect();
    frame.render_widget(Paragraph::new(shown).block(block), area);
}
