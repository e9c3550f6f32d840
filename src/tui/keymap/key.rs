//! Keys as the table names them: reading them from key names and terminal
//! events, and writing them back as names.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::fmt;

/// A key without the keyboard's details: code plus Ctrl/Alt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeySpec {
    pub code: Code,
    pub ctrl: bool,
    pub alt: bool,
}

/// Key codes the table can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Code {
    Char(char),
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Home,
    End,
    Enter,
    Tab,
    BackTab,
    Esc,
    Backspace,
    Delete,
    F(u8),
}

const NAMED: [(&str, Code); 16] = [
    ("up", Code::Up),
    ("down", Code::Down),
    ("left", Code::Left),
    ("right", Code::Right),
    ("pgup", Code::PageUp),
    ("pgdn", Code::PageDown),
    ("home", Code::Home),
    ("end", Code::End),
    ("enter", Code::Enter),
    ("tab", Code::Tab),
    ("backtab", Code::BackTab),
    ("esc", Code::Esc),
    ("backspace", Code::Backspace),
    ("delete", Code::Delete),
    ("space", Code::Char(' ')),
    ("minus", Code::Char('-')),
];

/// A key name that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown key name {0:?} (examples: j, G, ctrl-d, alt-x, pgdn, enter, space, f1)")]
pub struct BadKey(pub String);

impl KeySpec {
    /// Reads `j`, `G`, `?`, `ctrl-d`, `alt-enter`, `pgdn`, `space`, `f5` ...
    pub fn parse(text: &str) -> Result<KeySpec, BadKey> {
        let bad = || BadKey(text.to_string());
        let (mut ctrl, mut alt, mut rest) = (false, false, text);
        loop {
            if let Some(r) = rest.strip_prefix("ctrl-").filter(|r| !r.is_empty()) {
                (ctrl, rest) = (true, r);
            } else if let Some(r) = rest.strip_prefix("alt-").filter(|r| !r.is_empty()) {
                (alt, rest) = (true, r);
            } else {
                break;
            }
        }
        let mut chars = rest.chars();
        let code = match (chars.next(), chars.next()) {
            (Some(c), None) if !c.is_control() => Code::Char(c),
            _ => match NAMED.iter().find(|(n, _)| *n == rest) {
                Some((_, code)) => *code,
                None => {
                    let n: u8 = rest.strip_prefix('f').and_then(|n| n.parse().ok()).ok_or_else(bad)?;
                    if !(1..=24).contains(&n) {
                        return Err(bad());
                    }
                    Code::F(n)
                }
            },
        };
        Ok(KeySpec { code, ctrl, alt })
    }

    /// The key of a terminal event (Shift is part of the character).
    pub fn from_event(key: &KeyEvent) -> Option<KeySpec> {
        let code = match key.code {
            KeyCode::Char(c) => Code::Char(c),
            KeyCode::Up => Code::Up,
            KeyCode::Down => Code::Down,
            KeyCode::Left => Code::Left,
            KeyCode::Right => Code::Right,
            KeyCode::PageUp => Code::PageUp,
            KeyCode::PageDown => Code::PageDown,
            KeyCode::Home => Code::Home,
            KeyCode::End => Code::End,
            KeyCode::Enter => Code::Enter,
            KeyCode::Tab => Code::Tab,
            KeyCode::BackTab => Code::BackTab,
            KeyCode::Esc => Code::Esc,
            KeyCode::Backspace => Code::Backspace,
            KeyCode::Delete => Code::Delete,
            KeyCode::F(n) => Code::F(n),
            _ => return None,
        };
        Some(KeySpec {
            code,
            ctrl: key.modifiers.contains(KeyModifiers::CONTROL),
            alt: key.modifiers.contains(KeyModifiers::ALT),
        })
    }
}

impl fmt::Display for KeySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("ctrl-")?;
        }
        if self.alt {
            f.write_str("alt-")?;
        }
        if let Some((name, _)) = NAMED.iter().find(|(_, c)| *c == self.code) {
            return f.write_str(name);
        }
        match self.code {
            Code::Char(c) => write!(f, "{c}"),
            Code::F(n) => write!(f, "f{n}"),
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> KeySpec {
        KeySpec::parse(text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn key_names_round_trip() {
        for name in [
            "j",
            "G",
            "?",
            "/",
            "ctrl-d",
            "alt-x",
            "ctrl-alt-k",
            "pgdn",
            "space",
            "enter",
            "f5",
            "minus",
            "backtab",
        ] {
            assert_eq!(key(name).to_string(), name);
        }
        assert!(KeySpec::parse("hyper-x").is_err());
        assert!(KeySpec::parse("f0").is_err());
        assert!(KeySpec::parse("").is_err());
        assert_eq!(key("-"), key("minus"));
    }

    #[test]
    fn events_map_to_specs() {
        let ev = KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT);
        assert_eq!(KeySpec::from_event(&ev), Some(key("G")));
        let ev = KeyEvent::new(KeyCode::Char('d'), KeyModifiers::CONTROL);
        assert_eq!(KeySpec::from_event(&ev), Some(key("ctrl-d")));
    }
}
