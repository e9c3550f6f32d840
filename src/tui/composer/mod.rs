//! The decision composer: choose a status, write the evidence, read the exact
//! comment (or River entries), confirm. Nothing typed is lost: leaving it
//! keeps the draft, and reopening restores it.
//!
//! - [`choice`]: statuses per system, guidance, templates;
//! - [`editor`]: the evidence buffer and its sanitised rows;
//! - [`flow`]: what keys do at each [`Stage`] (pure, called from `update`);
//! - [`preview`]: the exact comment body or River entries, as display lines;
//! - [`view`]: drawing the composer overlay.

pub mod choice;
pub mod editor;
pub mod flow;
pub mod present;
pub mod preview;
pub mod river_gate;
pub mod river_options;
pub mod view;

use crate::model::text::is_blank;
use choice::{Choice, System};
use editor::Editor;

/// Where the composer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Choosing the status; the highlighted row.
    Status { cursor: usize },
    /// Writing the evidence.
    Evidence,
    /// Reading the exact comment; `yes` is the highlighted answer (it starts at No).
    Confirm { scroll: usize, yes: bool },
}

/// One decision being written, for one finding or for every marked one.
#[derive(Debug, Clone)]
pub struct Composer {
    /// Finding indices the decision is for, in rank order.
    pub targets: Vec<usize>,
    /// Where it will be recorded.
    pub system: System,
    /// The chosen status, once picked.
    pub choice: Option<Choice>,
    /// The evidence.
    pub editor: Editor,
    /// The template the text was last filled from (untouched text can be swapped).
    pub template: Option<String>,
    /// The evidence item whose permalink the next insert uses.
    pub next_link: usize,
    /// The stale outbox entry this decision replaces once confirmed (re-binding).
    pub replaces: Option<String>,
    /// A sanitised line shown above everything (why this composer opened).
    pub note: Option<String>,
    /// The id of the draft file on disk this composer was last kept in.
    pub saved_as: Option<String>,
    /// Other draft files that hold (part of) this draft's text: ones it was
    /// kept in before and drafts of the same findings joined into it when
    /// restored. Removed with it once its decision is confirmed, and once
    /// it is kept, by a screen that holds the review.
    pub also_in: Vec<String>,
    /// Restored from a draft written for another head (this one, as written):
    /// it is kept under that head until confirmed against the loaded result.
    pub stale_sha: Option<String>,
    /// River only: the suppression's fingerprint algorithm and expiry.
    pub river: river_options::RiverOptions,
}

/// How the evidence fits its limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Nothing but white space yet.
    Blank { bytes: usize, limit: usize },
    /// Within the limit.
    Fits { bytes: usize, limit: usize },
    /// Over the limit: confirming is blocked.
    Over { bytes: usize, limit: usize },
}

impl Budget {
    /// The counter text, e.g. `123 / 4096 bytes`.
    pub fn text(self) -> String {
        match self {
            Budget::Blank { bytes, limit } => {
                format!("{bytes} / {limit} bytes · evidence required")
            }
            Budget::Fits { bytes, limit } => format!("{bytes} / {limit} bytes"),
            Budget::Over { bytes, limit } => {
                format!("{bytes} / {limit} bytes · {} over the limit", bytes - limit)
            }
        }
    }
}

impl Composer {
    /// An empty composer for `targets`.
    pub fn new(targets: Vec<usize>, system: System) -> Composer {
        Composer {
            targets,
            system,
            choice: None,
            editor: Editor::default(),
            template: None,
            next_link: 0,
            replaces: None,
            note: None,
            saved_as: None,
            also_in: Vec::new(),
            stale_sha: None,
            river: river_options::RiverOptions::default(),
        }
    }

    /// The evidence exactly as entered.
    pub fn evidence(&self) -> String {
        self.editor.text()
    }

    /// The live byte counter.
    pub fn budget(&self) -> Budget {
        let text = self.evidence();
        let (bytes, limit) = (text.len(), self.system.evidence_limit());
        if is_blank(&text) {
            Budget::Blank { bytes, limit }
        } else if bytes > limit {
            Budget::Over { bytes, limit }
        } else {
            Budget::Fits { bytes, limit }
        }
    }

    /// True when the text is still exactly the last template.
    pub fn untouched_template(&self) -> bool {
        self.template.as_deref().is_some_and(|t| t == self.editor.text())
    }

    /// Chooses a status. An empty text, or one still equal to the previous
    /// template, is replaced by the new status's template (`link` fills its
    /// permalink slot); written text is never replaced.
    pub fn pick(&mut self, choice: Choice, link: Option<&str>) {
        let replace = self.editor.is_empty() || self.untouched_template();
        self.choice = Some(choice);
        if replace {
            let template = choice.template(link);
            self.editor.set_text(&template);
            self.template = Some(template);
        }
    }

    /// True when there is something worth keeping as a draft.
    pub fn has_content(&self) -> bool {
        self.choice.is_some() || !self.editor.is_empty()
    }

    /// Why the decision cannot be confirmed yet, if so.
    pub fn not_ready(&self) -> Option<String> {
        if self.choice.is_none() {
            return Some("choose a status first".to_string());
        }
        match self.budget() {
            Budget::Blank { .. } => Some("the evidence is blank: say what supports this decision".to_string()),
            Budget::Over { bytes, limit } => Some(format!(
                "the evidence is {bytes} UTF-8 bytes; at most {limit} are allowed"
            )),
            Budget::Fits { .. } if self.untouched_template() => {
                Some("the evidence is still the template: fill in the <…> parts".to_string())
            }
            Budget::Fits { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::finding::SubmittedDisposition as S;

    #[test]
    fn picking_fills_the_template_only_over_untouched_text() {
        let mut c = Composer::new(vec![0], System::ReviewGate);
        c.pick(Choice::ReviewGate(S::Fixed), Some("a.rs@abc#L1"));
        assert!(c.evidence().starts_with("Fixed on the reviewed head"));
        assert!(c.untouched_template());
        c.pick(Choice::ReviewGate(S::Accepted), None);
        assert!(c.evidence().starts_with("Valid finding"), "untouched: swapped");
        c.editor.insert(" mine");
        c.pick(Choice::ReviewGate(S::NeedsHuman), None);
        assert!(c.evidence().ends_with(" mine"), "written text is kept");
        assert_eq!(c.choice, Some(Choice::ReviewGate(S::NeedsHuman)));
    }

    #[test]
    fn the_budget_counts_utf8_bytes_against_the_limit() {
        let mut c = Composer::new(vec![0], System::ReviewGate);
        assert!(matches!(c.budget(), Budget::Blank { .. }));
        c.editor.insert(&"é".repeat(2048));
        assert_eq!(
            c.budget(),
            Budget::Fits {
                bytes: 4096,
                limit: 4096
            }
        );
        c.editor.insert("x");
        assert_eq!(
            c.budget(),
            Budget::Over {
                bytes: 4097,
                limit: 4096
            }
        );
        assert!(c.budget().text().contains("1 over the limit"));
        c.choice = Some(Choice::ReviewGate(S::Fixed));
        assert!(c.not_ready().is_some_and(|w| w.contains("4097")));
    }

    #[test]
    fn not_ready_until_status_and_real_evidence() {
        let mut c = Composer::new(vec![0], System::ReviewGate);
        c.editor.insert("because");
        assert!(c.not_ready().is_some_and(|w| w.contains("status")));
        c.template = None;
        c.choice = Some(Choice::ReviewGate(S::Fixed));
        assert_eq!(c.not_ready(), None);
        let mut t = Composer::new(vec![0], System::ReviewGate);
        t.pick(Choice::ReviewGate(S::Fixed), None);
        assert!(t.not_ready().is_some_and(|w| w.contains("template")));
    }
}
