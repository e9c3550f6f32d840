//! The escalation packet of a finding: for a `needs_human` decision (drafted,
//! sent or recorded) or a drift finding, a bounded Markdown summary for the
//! person who has to decide (built by [`crate::model::escalation`]).

use super::app::App;
use super::composer::choice::Choice;
use super::decision_state::{Packet, SentDecision};
use super::drift::Drift;
use crate::model::escalation::{EscalationInput, EscalationReason, escalation_packet};
use crate::model::finding::SubmittedDisposition;
use sha2::{Digest, Sha256};

/// The reviewer's needs_human note for finding `i`: the open composer, a
/// draft, or the decision sent; `None` when no needs_human decision exists.
fn needs_human_note(app: &App, i: usize) -> Option<Option<String>> {
    let nh = Some(Choice::ReviewGate(SubmittedDisposition::NeedsHuman));
    let open = app.decide.composer.iter();
    let drafts = app.decide.drafts.values();
    for c in open.chain(drafts) {
        if c.targets.contains(&i) && c.choice == nh {
            let text = c.evidence();
            return Some((!text.trim().is_empty()).then_some(text));
        }
    }
    match app.decide.sent.get(&i) {
        Some(SentDecision::ReviewGate(d)) if d.status == SubmittedDisposition::NeedsHuman => {
            Some(Some(d.evidence.clone()))
        }
        _ => None,
    }
}

/// The file name a packet is written to: `triage-escalation-<12 hex>.md`,
/// the hex from a digest of the fingerprint (fingerprints hold `:` and other
/// characters a file name should not).
pub fn file_name(fingerprint: &str) -> String {
    let digest = Sha256::digest(fingerprint.as_bytes());
    let short: String = digest.iter().take(6).map(|b| format!("{b:02x}")).collect();
    format!("triage-escalation-{short}.md")
}

/// The packet of finding `i`, or why it has none.
pub fn packet(app: &App, i: usize) -> Result<Packet, String> {
    let set = app.doc.set.as_ref().ok_or("no review is loaded")?;
    let finding = set.findings.get(i).ok_or("no finding selected")?;
    let reason = match needs_human_note(app, i) {
        Some(note) => EscalationReason::NeedsHuman { note },
        None if Drift::of(finding).is_some() => EscalationReason::Drift,
        None => {
            return Err("x escalates a finding with a needs_human decision (draft or sent) or thread drift".into());
        }
    };
    let input = EscalationInput {
        finding,
        reason: &reason,
        scope: &set.scope,
        reviewed_sha: set.reviewed_sha.as_deref(),
        threads_unavailable: app.live.threads_unavailable.as_deref(),
    };
    Ok(Packet {
        file_name: file_name(finding.key.as_str()),
        text: escalation_packet(&input),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tui::fixture;

    #[test]
    fn drift_findings_have_a_packet_and_others_say_why_not() {
        let app = fixture::app(fixture::sample_set(), (120, 40));
        let drift = app
            .doc
            .findings()
            .iter()
            .position(|f| Drift::of(f).is_some())
            .unwrap_or_default();
        let p = packet(&app, drift).unwrap_or_else(|e| panic!("{e}"));
        assert!(p.text.len() < 4096 && p.text.contains("Escalation"));
        assert!(p.file_name.starts_with("triage-escalation-") && p.file_name.ends_with(".md"));
        assert_eq!(p.file_name.len(), "triage-escalation-".len() + 12 + 3);
        let calm = app
            .doc
            .findings()
            .iter()
            .position(|f| Drift::of(f).is_none())
            .unwrap_or_default();
        assert!(packet(&app, calm).is_err());
    }
}
