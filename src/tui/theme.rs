//! Colours and text attributes of every screen element.
//!
//! Meaning never rests on colour alone: glyphs and labels carry it, and the
//! `NO_COLOR` theme ([`Theme::plain`]) keeps only bold/reverse/underline. A
//! user `theme.json` in the config directory overrides single elements:
//! `{"p0": "red", "warning": {"fg": "black", "bg": "yellow", "bold": true}}`.

use crate::model::finding::Severity;
use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Styles of the screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Theme {
    /// P0..P4.
    pub severity: [Style; 5],
    /// The blocking marker.
    pub blocking: Style,
    /// Drift and other warnings (resolved externally above all).
    pub warning: Style,
    /// Errors: `review_error`, invalid files.
    pub error: Style,
    /// Secondary text.
    pub dim: Style,
    /// Pane titles and section headings.
    pub heading: Style,
    /// Field labels in the detail pane.
    pub label: Style,
    /// Code excerpts.
    pub code: Style,
    /// The selected row.
    pub selected: Style,
    /// The focused pane's border.
    pub focus: Style,
    /// Marked rows' mark column.
    pub mark: Style,
    /// Matches and accents (DEMO label, search query).
    pub accent: Style,
}

impl Theme {
    /// The coloured default.
    pub fn colored() -> Theme {
        let fg = |c: Color| Style::new().fg(c);
        Theme {
            severity: [
                fg(Color::Red).add_modifier(Modifier::BOLD),
                fg(Color::LightRed),
                fg(Color::Yellow),
                fg(Color::Cyan),
                fg(Color::Gray),
            ],
            blocking: fg(Color::Red).add_modifier(Modifier::BOLD),
            warning: Style::new()
                .fg(Color::Black)
                .bg(Color::Yellow)
                .add_modifier(Modifier::BOLD),
            error: Style::new()
                .fg(Color::White)
                .bg(Color::Red)
                .add_modifier(Modifier::BOLD),
            dim: fg(Color::DarkGray),
            heading: fg(Color::Cyan).add_modifier(Modifier::BOLD),
            label: fg(Color::Blue).add_modifier(Modifier::BOLD),
            code: fg(Color::Green),
            selected: Style::new().bg(Color::DarkGray).add_modifier(Modifier::BOLD),
            focus: fg(Color::Cyan),
            mark: fg(Color::Magenta).add_modifier(Modifier::BOLD),
            accent: fg(Color::Magenta).add_modifier(Modifier::BOLD),
        }
    }

    /// `NO_COLOR`: attributes only.
    pub fn plain() -> Theme {
        let none = Style::new();
        let bold = none.add_modifier(Modifier::BOLD);
        Theme {
            severity: [bold.add_modifier(Modifier::UNDERLINED), bold, none, none, none],
            blocking: bold,
            warning: bold.add_modifier(Modifier::REVERSED),
            error: bold.add_modifier(Modifier::REVERSED),
            dim: none,
            heading: bold,
            label: bold,
            code: none,
            selected: none.add_modifier(Modifier::REVERSED),
            focus: bold,
            mark: bold,
            accent: bold,
        }
    }

    /// The theme for this terminal: plain when `no_color`.
    pub fn for_terminal(no_color: bool) -> Theme {
        if no_color { Theme::plain() } else { Theme::colored() }
    }

    /// The style of a rank.
    pub fn severity(&self, rank: Severity) -> Style {
        self.severity[rank as usize]
    }

    /// Applies a `theme.json` text over this theme.
    pub fn apply_json(&mut self, text: &str) -> Result<(), ThemeError> {
        let file: BTreeMap<String, StyleSpec> = serde_json::from_str(text)?;
        for (name, spec) in file {
            let style = spec.to_style()?;
            *self.slot(&name).ok_or(ThemeError::Element(name))? = style;
        }
        Ok(())
    }

    fn slot(&mut self, name: &str) -> Option<&mut Style> {
        Some(match name {
            "p0" => &mut self.severity[0],
            "p1" => &mut self.severity[1],
            "p2" => &mut self.severity[2],
            "p3" => &mut self.severity[3],
            "p4" => &mut self.severity[4],
            "blocking" => &mut self.blocking,
            "warning" => &mut self.warning,
            "error" => &mut self.error,
            "dim" => &mut self.dim,
            "heading" => &mut self.heading,
            "label" => &mut self.label,
            "code" => &mut self.code,
            "selected" => &mut self.selected,
            "focus" => &mut self.focus,
            "mark" => &mut self.mark,
            "accent" => &mut self.accent,
            _ => return None,
        })
    }
}

/// A theme file that could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ThemeError {
    /// Not JSON of the expected shape.
    #[error("theme is not valid: {0}")]
    Json(#[from] serde_json::Error),
    /// An element name the theme does not have.
    #[error(
        "theme: unknown element {0:?} (p0..p4, blocking, warning, error, dim, heading, label, code, selected, focus, mark, accent)"
    )]
    Element(String),
    /// A colour name that could not be read.
    #[error("theme: unknown colour {0:?} (names like red, light-blue, #ff8800, or 0-255)")]
    Color(String),
}

/// One element in `theme.json`: a foreground colour, or a full style.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum StyleSpec {
    Fg(String),
    Full {
        fg: Option<String>,
        bg: Option<String>,
        #[serde(default)]
        bold: bool,
        #[serde(default)]
        underline: bool,
        #[serde(default)]
        reversed: bool,
    },
}

fn color(name: &str) -> Result<Color, ThemeError> {
    name.parse().map_err(|_| ThemeError::Color(name.to_string()))
}

impl StyleSpec {
    fn to_style(&self) -> Result<Style, ThemeError> {
        match self {
            StyleSpec::Fg(c) => Ok(Style::new().fg(color(c)?)),
            StyleSpec::Full {
                fg,
                bg,
                bold,
                underline,
                reversed,
            } => {
                let mut s = Style::new();
                if let Some(c) = fg {
                    s = s.fg(color(c)?);
                }
                if let Some(c) = bg {
                    s = s.bg(color(c)?);
                }
                for (on, m) in [
                    (bold, Modifier::BOLD),
                    (underline, Modifier::UNDERLINED),
                    (reversed, Modifier::REVERSED),
                ] {
                    if *on {
                        s = s.add_modifier(m);
                    }
                }
                Ok(s)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_theme_has_no_colours() {
        let t = Theme::plain();
        let all = [
            t.blocking, t.warning, t.error, t.dim, t.heading, t.label, t.code, t.selected, t.focus, t.mark, t.accent,
        ];
        for s in all.iter().chain(t.severity.iter()) {
            assert_eq!(s.fg, None);
            assert_eq!(s.bg, None);
        }
        assert!(t.warning.add_modifier.contains(Modifier::REVERSED));
    }

    #[test]
    fn theme_file_overrides_elements() {
        let mut t = Theme::colored();
        t.apply_json(r##"{"p0": "#ff8800", "warning": {"fg": "black", "bg": "light-magenta", "bold": true}}"##)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(t.severity(Severity::P0).fg, Some(Color::Rgb(0xff, 0x88, 0)));
        assert_eq!(t.warning.bg, Some(Color::LightMagenta));
        assert!(matches!(
            t.apply_json(r#"{"nope": "red"}"#),
            Err(ThemeError::Element(_))
        ));
        assert!(matches!(
            t.apply_json(r#"{"p1": "not-a-colour"}"#),
            Err(ThemeError::Color(_))
        ));
    }
}
