//! The frame shown while the review is read or fetched: the header line with
//! what is being opened, one progress line with the step and a spinner, and
//! how to quit. Drawn before any file is parsed or any request is made.

use crate::tui::app::App;
use crate::tui::startup::Loading;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// Spinner frames (one per tick while loading).
const SPINNER: [&str; 4] = ["|", "/", "-", "\\"];

/// Draws the loading frame.
pub fn render(frame: &mut Frame, app: &App, loading: &Loading) {
    let theme = &app.settings.theme;
    let area = frame.area();
    let spin = SPINNER[app.decide.spinner % SPINNER.len()];
    let lines = vec![
        Line::from(vec![
            Span::styled("triage ", theme.heading),
            Span::raw(loading.what.as_str()),
        ]),
        Line::from(""),
        Line::from(vec![
            Span::styled(format!("{spin} "), theme.accent),
            Span::raw(format!("{}…", loading.step)),
        ]),
    ];
    frame.render_widget(
        Paragraph::new(lines),
        Rect {
            height: area.height.saturating_sub(1),
            ..area
        },
    );
    if area.height > 0 {
        let status = Rect {
            y: area.y + area.height - 1,
            height: 1,
            ..area
        };
        let hint = Line::from(vec![Span::styled("q", theme.label), Span::styled(" quit", theme.dim)]);
        frame.render_widget(Paragraph::new(hint), status);
    }
}
