//! What confirming will do, as sanitised display lines, in the order a
//! reviewer checks them: the evidence as it will be sent first, then every
//! target (a batch lists each one, with a count), the disposition and where
//! it goes, the receipt, and last the raw text: for ReviewGate the exact
//! comment body ([`protocol::render`]) and the payload it encodes; for River
//! the feedback entry and the suppression, or why none is written.

use super::Composer;
use super::choice::Choice;
use super::river_gate;
use crate::github::draft::Draft;
use crate::github::protocol;
use crate::model::review::{ReviewSet, Scope};
use crate::river_store::decide::suppression_for;
use crate::river_store::{DecisionInput, DecisionStatus, FindingFacts, Note};
use crate::sanitize::clean_line;
use crate::tui::app::App;
use crate::tui::decision_state::Actor;
use crate::tui::text::{TextLine, Tone, lines_of};

/// The actor shown while the real login is not known.
const ACTOR_PLACEHOLDER: &str = "your-github-login";

/// The preview of the open composer (empty when none is open).
pub fn lines(app: &App) -> Vec<TextLine> {
    let (Some(c), Some(set)) = (app.decide.composer.as_ref(), app.doc.set.as_ref()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Some(note) = &c.note {
        out.push(TextLine::one(Tone::Warning, note.clone()));
        out.push(TextLine::blank());
    }
    out.push(TextLine::one(Tone::Heading, "Evidence, as it will be sent"));
    body(&c.evidence(), Tone::Plain, &mut out);
    out.push(TextLine::blank());
    targets(app, c, &mut out);
    match c.choice {
        Some(Choice::ReviewGate(status)) => reviewgate(app, set, c, status, &mut out),
        Some(Choice::River(status)) => river(app, set, c, status, &mut out),
        None => {}
    }
    out
}

/// Why Yes cannot be taken yet, if so: a ReviewGate comment names its actor
/// (the GitHub login the token belongs to), so it waits for the login and
/// is refused while no login can be had.
pub fn yes_blocked(app: &App) -> Option<String> {
    let c = app.decide.composer.as_ref()?;
    if c.system != super::choice::System::ReviewGate {
        return None;
    }
    match &app.decide.actor {
        Actor::Known(_) => None,
        Actor::Unknown | Actor::LookingUp => Some("looking up your GitHub login".into()),
        Actor::Unavailable(why) => Some(format!(
            "actor unknown ({}); set GH_TOKEN or log in with gh, then preview again",
            clean_line(&why.to_string())
        )),
    }
}

fn body(text: &str, tone: Tone, out: &mut Vec<TextLine>) {
    out.extend(
        lines_of(text)
            .into_iter()
            .map(|l| TextLine::one(tone, format!("  {l}"))),
    );
}

fn actor_line(actor: &Actor) -> (String, TextLine) {
    match actor {
        Actor::Known(login) => (
            login.clone(),
            TextLine::one(Tone::Label, "actor: ").push(Tone::Plain, clean_line(login)),
        ),
        Actor::Unavailable(why) => (
            ACTOR_PLACEHOLDER.into(),
            TextLine::one(
                Tone::Warning,
                format!(
                    "actor unknown: {}. Nothing can be sent until the login is known: set GH_TOKEN or log in with gh, then preview again.",
                    clean_line(&why.to_string())
                ),
            ),
        ),
        Actor::Unknown | Actor::LookingUp => (
            ACTOR_PLACEHOLDER.into(),
            TextLine::one(
                Tone::Dim,
                "actor: looking up your GitHub login… (the body below uses a placeholder until then)",
            ),
        ),
    }
}

fn reviewgate(
    app: &App,
    set: &ReviewSet,
    c: &Composer,
    status: crate::model::finding::SubmittedDisposition,
    out: &mut Vec<TextLine>,
) {
    let Some(f) = c.targets.first().and_then(|&i| set.findings.get(i)) else {
        return;
    };
    let checked = Draft::for_finding(set, f.key.as_str(), status, &c.evidence()).and_then(Draft::check);
    let checked = match checked {
        Ok(d) => d,
        Err(problems) => {
            for p in problems {
                out.push(TextLine::one(Tone::Error, clean_line(&p.to_string())));
            }
            return;
        }
    };
    let target = match &set.scope {
        Scope::PullRequest {
            repository,
            pull_request_number,
        } => format!("{}#{pull_request_number}", clean_line(repository)),
        Scope::Local => "(local)".into(),
    };
    let sha: String = checked.draft().reviewed_sha.chars().take(12).collect();
    out.push(TextLine::one(
        Tone::Heading,
        format!("One comment on {target} for head {}", clean_line(&sha)),
    ));
    out.push(TextLine::one(Tone::Label, "ReviewGate records: ").push(
        Tone::Plain,
        format!("{} (submitted {})", status.canonical().as_str(), status.as_str()),
    ));
    let (actor, line) = actor_line(&app.decide.actor);
    out.push(line);
    let rendered = protocol::render(&checked, &actor);
    out.push(TextLine::one(Tone::Label, "receipt: ").push(Tone::Dim, rendered.digest));
    out.push(TextLine::blank());
    out.push(TextLine::one(Tone::Heading, "Comment body (exact)"));
    body(&rendered.body, Tone::Code, out);
    out.push(TextLine::one(Tone::Heading, "The payload it encodes"));
    let payload = checked.draft().payload(&actor).canonical_bytes();
    // Unindented: the wrapper breaks long unspaced text inside words.
    out.extend(
        lines_of(&String::from_utf8_lossy(&payload))
            .into_iter()
            .map(|l| TextLine::one(Tone::Dim, l)),
    );
}

fn river(app: &App, set: &ReviewSet, c: &Composer, status: DecisionStatus, out: &mut Vec<TextLine>) {
    let Some(&first) = c.targets.first() else {
        return;
    };
    let facts = match FindingFacts::of(set, first) {
        Ok(facts) => facts,
        Err(e) => {
            out.push(TextLine::one(Tone::Error, clean_line(&e.to_string())));
            return;
        }
    };
    let evidence = c.evidence();
    let input = DecisionInput {
        status,
        note: Note {
            evidence: &evidence,
            author: "",
            pr: None,
        },
        suppress: true,
        algo: c.river.algo,
        expires_at: None,
    };
    out.push(TextLine::one(Tone::Heading, "Written to River Review's files"));
    out.push(river_gate::target_line(app));
    out.extend(super::river_options::lines(app, c));
    let rule = facts
        .rule_id
        .as_deref()
        .map(clean_line)
        .unwrap_or_else(|| "(none: River needs a ruleId)".into());
    out.push(TextLine::one(Tone::Label, "feedback log: ").push(
        Tone::Plain,
        format!(
            "feedbackType {}, skillId {rule}, finding {}",
            status.feedback_type().as_str(),
            clean_line(&facts.fingerprint)
        ),
    ));
    match suppression_for(&facts, &input) {
        Ok((kind, s)) => out.push(TextLine::one(Tone::Label, "suppression: ").push(
            Tone::Plain,
            format!(
                "{}, file {}, phase {}, fingerprint {} {}",
                kind.as_str(),
                clean_line(s.file),
                clean_line(s.phase),
                s.algo.as_str(),
                clean_line(s.fingerprint)
            ),
        )),
        Err(why) => out.push(TextLine::one(
            Tone::Warning,
            format!("no suppression: {}", clean_line(&why.to_string())),
        )),
    }
    let gate = river_gate::gate_warnings(app, c, status);
    if !gate.is_empty() {
        out.push(TextLine::one(
            Tone::Heading,
            "What River's gate will do with it (written anyway when you confirm)",
        ));
        out.extend(river_gate::lines(&gate, true));
    }
}

/// Every finding of a batch, with a count (one target is named in the
/// composer's header already).
fn targets(app: &App, c: &Composer, out: &mut Vec<TextLine>) {
    let n = c.targets.len();
    if n < 2 {
        return;
    }
    out.push(TextLine::one(
        Tone::Heading,
        format!("{n} targets, the same status and evidence for each, sent one after another"),
    ));
    for &i in &c.targets {
        let (Some(f), Some(row)) = (app.doc.findings().get(i), app.doc.row(i)) else {
            continue;
        };
        out.push(
            TextLine::one(Tone::Plain, format!("  {} ", row.rank.as_str()))
                .push(Tone::Label, format!("{} ", row.location))
                .push(Tone::Plain, row.headline.clone())
                .push(Tone::Dim, format!("  {}", clean_line(f.key.as_str()))),
        );
    }
    out.push(TextLine::blank());
}
