//! Whole-screen snapshots of every screen state on a fixed-size TestBackend,
//! a few cell-style checks, and proof that hostile text never reaches a cell.

// A test or benchmark stops at its first surprise: unwrap and panic are its assertions.
#![allow(clippy::unwrap_used, clippy::panic)]

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::KeyCode;
use ratatui::style::{Color, Modifier};
use triage::checkout::{ExcerptMatch, LocalEvidence, Revision};
use triage::github::draft::Draft;
use triage::model::finding::SubmittedDisposition;
use triage::model::finding::{Evidence, Side};
use triage::model::problem::Problem;
use triage::model::review::ReviewSet;
use triage::outbox::{Entry, LastOutcome, OutcomeKind};
use triage::tui::app::{App, Document, Source, SubmitState};
use triage::tui::decision_state::Receipt;
#[path = "support/fixture.rs"]
mod fixture;
#[path = "support/screen.rs"]
mod screen;
use screen::{ctrl, draw, key, keys, screen};
use triage::tui::live::RefreshOutcome;
use triage::tui::message::failure::{SendFailure, Shared};
use triage::tui::theme::Theme;
use triage::tui::update::{Msg, SubmitOutcome, update};
use triage::tui::view::evidence::HeadLine;

fn sample() -> App {
    fixture::app(fixture::sample_set(), (120, 40))
}

#[test]
fn list_repair_set() {
    insta::assert_snapshot!(draw(&sample()).backend());
}

#[test]
fn list_all_findings() {
    let mut app = sample();
    keys(&mut app, "2jj");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn drift_lane() {
    let mut app = sample();
    keys(&mut app, "3");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn detail_of_a_reopened_finding() {
    let mut app = sample();
    keys(&mut app, "3j");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "G");
    let text = screen(&app);
    assert!(
        text.contains("Prior dispositions") && text.contains("submitted fixed #7"),
        "{text}"
    );
    insta::assert_snapshot!(draw(&app).backend());
}

fn local(found: ExcerptMatch, first: usize, marked: std::ops::RangeInclusive<usize>) -> LocalEvidence {
    LocalEvidence {
        revision: Revision::WorkingTree,
        found,
        first_line: first,
        lines: vec![
            "    for attempt in range(max_attempts):".into(),
            "        try:".into(),
            "            return send(payload)".into(),
            "        except Timeout:".into(),
            "            if attempts >= max_attempts { return Ok(()) }".into(),
            "    log.warning(\"gave up\")".into(),
        ],
        marked,
    }
}

/// The sample on its first finding with the checkout answered (the
/// excerpt is the fifth context line, so `marked` starts at `first + 4`).
fn with_evidence(found: ExcerptMatch, first: usize, head: HeadLine) -> App {
    let mut app = sample();
    app.evidence.checkout = true;
    keys(&mut app, "2");
    let i = app.selected().unwrap_or_default();
    update(&mut app, Msg::Head(head));
    update(
        &mut app,
        Msg::EvidenceLoaded {
            finding: i,
            items: vec![Ok(local(found, first, first + 4..=first + 4))],
        },
    );
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    app
}

#[test]
fn evidence_with_context() {
    let app = with_evidence(ExcerptMatch::AtLine(88), 84, HeadLine::Same);
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn evidence_with_drift() {
    let head = HeadLine::Different {
        head: "0123456789abcdef0123".into(),
        reviewed: fixture::SHA.into(),
    };
    let app = with_evidence(ExcerptMatch::Moved { from: 88, to: 86 }, 82, head);
    let text = screen(&app);
    assert!(text.contains("moved"), "{text}");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn help_overlay() {
    let mut app = sample();
    keys(&mut app, "?");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn filter_menu_and_search() {
    let mut app = sample();
    keys(&mut app, "2f jjjjjj ");
    insta::assert_snapshot!("filter_menu", draw(&app).backend());
    key(&mut app, KeyCode::Esc);
    keys(&mut app, "c/retry");
    insta::assert_snapshot!("search", draw(&app).backend());
}

fn invalid_doc() -> Document {
    let problems = vec![
        Problem::new(
            "R19",
            "/findings/2/thread_transition",
            "thread_transition is \"retained\" but thread_status open with disposition fixed gives \"resolution_pending\"",
        ),
        Problem::new("R13", "/findings/4/evidence/0/excerpt", "evidence excerpt is blank"),
        Problem::new("schema", "/costs", "missing required member \"summary\""),
        Problem::new("R12", "/findings/7/line", "line must be null or at least 1"),
    ];
    let set = fixture::sample_set();
    Document::new(
        Source::File("result.json".into()),
        Some(set.format),
        Some(set),
        problems,
    )
}

#[test]
fn invalid_file_banner() {
    let app = fixture::app_on(invalid_doc(), (120, 40));
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn unreadable_file_banner() {
    let problems = vec![Problem::new(
        "P3",
        "",
        "unexpected end of input at byte 912 (truncated JSON)",
    )];
    let doc = Document::new(Source::File("truncated.json".into()), None, None, problems);
    insta::assert_snapshot!(draw(&fixture::app_on(doc, (100, 20))).backend());
}

#[test]
fn review_error() {
    let app = fixture::app(fixture::review_error_set(), (120, 40));
    let text = screen(&app);
    assert!(
        text.contains("NOT a pass") && text.contains("timeout, retryable"),
        "{text}"
    );
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn problems_overlay() {
    let mut app = fixture::app_on(invalid_doc(), (120, 40));
    keys(&mut app, "!");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn empty_result() {
    let mut set = fixture::sample_set();
    set.findings.clear();
    set.status = triage::model::review::ReviewStatus::Passed;
    set.score = Some(5);
    insta::assert_snapshot!(draw(&fixture::app(set, (100, 20))).backend());
}

#[test]
fn narrow_terminal() {
    let mut app = fixture::app(fixture::sample_set(), (80, 24));
    keys(&mut app, "2j");
    insta::assert_snapshot!("narrow_list", draw(&app).backend());
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    insta::assert_snapshot!("narrow_evidence", draw(&app).backend());
}

#[test]
fn river_artifact() {
    insta::assert_snapshot!(draw(&fixture::app(fixture::river_set(), (120, 30))).backend());
}

/// The cell at the first occurrence of `needle` on the screen (row by row).
fn cell_of<'a>(term: &'a Terminal<TestBackend>, needle: &str) -> &'a ratatui::buffer::Cell {
    let buf = term.backend().buffer();
    for row in buf.content.chunks(usize::from(buf.area.width)) {
        let mut text = String::new();
        let mut starts = Vec::new();
        for (i, cell) in row.iter().enumerate() {
            starts.push((text.len(), i));
            text.push_str(cell.symbol());
        }
        if let Some(at) = text.find(needle)
            && let Some((_, i)) = starts.iter().find(|(byte, _)| *byte == at)
        {
            return &row[*i];
        }
    }
    panic!("{needle:?} not on screen")
}

#[test]
fn severity_and_warning_styles() {
    let mut app = sample();
    keys(&mut app, "3");
    let term = draw(&app);
    let theme = Theme::colored();
    // The P0 label in the header counts is red and bold.
    let p0 = cell_of(&term, "P0 1");
    assert_eq!(p0.fg, Color::Red);
    assert!(p0.modifier.contains(Modifier::BOLD));
    // The resolved-externally advice line carries the warning style.
    let warn = cell_of(&term, "↳ resolved externally");
    assert_eq!(warn.bg, theme.warning.bg.unwrap_or(Color::Reset));
    assert_eq!(warn.fg, theme.warning.fg.unwrap_or(Color::Reset));
}

#[test]
fn no_color_uses_attributes_only() {
    let mut app = sample();
    app.settings.theme = Theme::plain();
    app.settings.color = false;
    keys(&mut app, "3");
    let term = draw(&app);
    let warn = cell_of(&term, "↳ resolved externally");
    assert!(warn.modifier.contains(Modifier::REVERSED));
    for cell in &term.backend().buffer().content {
        assert_eq!((cell.fg, cell.bg), (Color::Reset, Color::Reset), "{:?}", cell.symbol());
    }
}

/// Every kind of text a terminal could act on.
const HOSTILE: &str = "evil\u{1b}[31mred\u{1b}]0;title\u{7}\u{202e}gnp.exe\r\ttab\u{9b}2J\u{200f}\u{2066}";

fn hostile_set() -> ReviewSet {
    let mut set = fixture::sample_set();
    for f in &mut set.findings {
        f.title = Some(format!("title {HOSTILE}"));
        f.claim = Some(format!("claim {HOSTILE}\nline two {HOSTILE}"));
        f.suggested_fix = Some(HOSTILE.to_string());
        f.path = Some(format!("src/{HOSTILE}.rs"));
        f.key = triage::model::finding::FindingKey::Semantic(format!("defect:{HOSTILE}"));
        f.evidence = vec![Evidence {
            path: format!("src/{HOSTILE}.rs"),
            side: Side::Old,
            line: 3,
            excerpt: format!("let x = \"{HOSTILE}\";"),
            reason: HOSTILE.to_string(),
        }];
        if let triage::model::finding::Origin::ReviewGate(rg) = &mut f.origin {
            rg.causal_evidence = Some(HOSTILE.to_string());
            rg.reopening_evidence = Some(HOSTILE.to_string());
            for h in &mut rg.history {
                h.actor = HOSTILE.to_string();
                h.evidence_summary = HOSTILE.to_string();
            }
        }
    }
    set.scope = triage::model::review::Scope::PullRequest {
        repository: format!("acme/{HOSTILE}"),
        pull_request_number: 1,
    };
    set.reviewed_sha = Some(HOSTILE.to_string());
    set
}

fn assert_clean(app: &App, what: &str) {
    let term = draw(app);
    for cell in &term.backend().buffer().content {
        assert!(
            !cell.symbol().chars().any(triage::sanitize::is_forbidden),
            "{what}: raw control in cell {:?}",
            cell.symbol()
        );
    }
}

#[test]
fn hostile_text_never_reaches_a_cell() {
    let mut set = hostile_set();
    set.angle_errors = fixture::review_error_set().angle_errors;
    for e in &mut set.angle_errors {
        e.message = HOSTILE.to_string();
        e.angle_name = HOSTILE.to_string();
    }
    set.status = triage::model::review::ReviewStatus::ReviewError;
    let problems = vec![Problem::new(HOSTILE, HOSTILE, HOSTILE)];
    let doc = Document::new(
        Source::File(triage::sanitize::clean_line(HOSTILE)),
        Some(set.format),
        Some(set),
        problems,
    );
    let mut app = fixture::app_on(doc, (120, 40));
    assert_clean(&app, "list");
    keys(&mut app, "2");
    let i = app.selected().unwrap_or_default();
    app.evidence.checkout = true;
    update(
        &mut app,
        Msg::Head(HeadLine::Different {
            head: HOSTILE.into(),
            reviewed: HOSTILE.into(),
        }),
    );
    update(
        &mut app,
        Msg::EvidenceLoaded {
            finding: i,
            items: vec![Err(triage::tui::message::failure::Shared::new(
                triage::checkout::source::ContextError::Read(triage::checkout::CheckoutError::Git(HOSTILE.to_string())),
            ))],
        },
    );
    assert_clean(&app, "all view, detail and evidence");
    keys(&mut app, "3");
    assert_clean(&app, "drift lane");
    key(&mut app, KeyCode::Enter);
    for _ in 0..40 {
        keys(&mut app, "j");
        assert_clean(&app, "detail scrolled");
    }
    key(&mut app, KeyCode::Esc);
    keys(&mut app, "?");
    assert_clean(&app, "help");
    key(&mut app, KeyCode::Esc);
    keys(&mut app, "!");
    assert_clean(&app, "problems");
    key(&mut app, KeyCode::Esc);
    keys(&mut app, "/");
    update(&mut app, Msg::Paste(HOSTILE.to_string()));
    assert_clean(&app, "search");
    update(
        &mut app,
        Msg::Notice(triage::tui::message::notice::Notice::Opened {
            program: HOSTILE.to_string(),
            url: HOSTILE.to_string(),
        }),
    );
    assert_clean(&app, "status message");
    let mut narrow = fixture::app(hostile_set(), (80, 24));
    keys(&mut narrow, "2");
    key(&mut narrow, KeyCode::Tab);
    key(&mut narrow, KeyCode::Tab);
    assert_clean(&narrow, "narrow evidence");
}

#[test]
fn bundled_demo_is_labelled() {
    let doc = triage::tui::demo_document();
    assert!(doc.is_valid(), "{:?}", doc.problems);
    let app = fixture::app_on(doc, (120, 40));
    let text = screen(&app);
    assert!(text.contains(" DEMO "), "{text}");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn valid_file_without_findings_explains_itself() {
    let doc = Document::new(
        Source::File("payload.json".into()),
        Some(triage::model::review::Format::Disposition),
        None,
        Vec::new(),
    );
    assert_eq!(doc.read_only_reason(), Some("the file holds no review findings"));
    let text = screen(&fixture::app_on(doc, (120, 20)));
    assert!(
        text.contains("Nothing to triage: ReviewGate agent disposition v1 holds no review findings"),
        "{text}"
    );
    assert!(!text.contains("INVALID"), "{text}");
}

/// Every conformance and reference file opens, and every finding of it can
/// be selected and drawn (detail and evidence), wide and narrow, with no
/// raw control character on screen.
#[test]
fn every_fixture_file_can_be_browsed() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files = Vec::new();
    let mut dirs = vec![root];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{e}")).flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 100, "found only {} fixture files", files.len());
    for path in files {
        let loaded = triage::model::load::load_path(&path, None).unwrap_or_else(|e| panic!("{e}"));
        let name = path.display().to_string();
        let doc = triage::tui::document(Source::File(name.clone()), loaded);
        for size in [(120, 40), (80, 24)] {
            let mut app = fixture::app_on(doc.clone(), size);
            keys(&mut app, "2");
            for _ in 0..app.browse.visible.len().max(1) {
                assert_clean(&app, &name);
                keys(&mut app, "j");
            }
            keys(&mut app, "3");
            assert_clean(&app, &name);
        }
    }
}

// ---- Decisions: composer, sending, outbox, stale results ----

/// The sample with the composer open on the P0 finding, status `fixed`
/// picked, and `text` as the evidence.
fn composing(text: &str) -> App {
    let mut app = sample();
    keys(&mut app, "dj");
    key(&mut app, KeyCode::Enter);
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.set_text("");
    }
    update(&mut app, Msg::Paste(text.to_string()));
    app
}

#[test]
fn composer_status_picker() {
    let mut app = sample();
    keys(&mut app, "dj");
    let text = screen(&app);
    assert!(
        text.contains("rejected_with_evidence") && text.contains("ReviewGate records still_open"),
        "{text}"
    );
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn composer_evidence_editor_with_counter() {
    let app = composing(
        "Fixed on the reviewed head: the comparison now uses constant_time_eq.\nVerified by cargo test session_token_timing.",
    );
    let text = screen(&app);
    assert!(text.contains("114 / 4096 bytes"), "{text}");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn composer_counter_over_the_limit() {
    let app = composing(&"x".repeat(4100));
    let text = screen(&app);
    assert!(text.contains("4100 / 4096 bytes · 4 over the limit"), "{text}");
    let term = draw(&app);
    let counter = cell_of(&term, "4100 / 4096");
    assert_eq!(counter.bg, Theme::colored().error.bg.unwrap_or(Color::Reset));
}

#[test]
fn composer_preview_and_confirmation() {
    let mut app = composing("Fixed on the reviewed head: constant-time comparison.");
    update(&mut app, Msg::Actor(Ok("octo-reviewer".into())));
    ctrl(&mut app, 's');
    let text = screen(&app);
    assert!(
        text.contains("<!-- reviewgate-agent-dispositions") && text.contains("[ No ]"),
        "{text}"
    );
    insta::assert_snapshot!(draw(&app).backend());
}

fn finish(app: &mut App, finding: usize, outcome: SubmitOutcome) {
    if let Some(SubmitState::Pending { generation }) = app.submit.get(finding).cloned() {
        update(
            app,
            Msg::SubmitFinished {
                finding,
                generation,
                outcome,
            },
        );
    }
}

#[test]
fn pending_recorded_and_rejected_rows() {
    let mut app = sample();
    keys(&mut app, "2    ");
    keys(&mut app, "d");
    key(&mut app, KeyCode::Enter);
    // The template's placeholder is filled in (evidence holding one is refused).
    if let Some(c) = app.decide.composer.as_mut() {
        let text = c.editor.text().replace("<where and when>", "the next release");
        c.editor.set_text(&text);
    }
    update(&mut app, Msg::Paste(" (constant-time compare)".into()));
    ctrl(&mut app, 's');
    update(&mut app, Msg::Actor(Ok("octo-reviewer".into())));
    keys(&mut app, "y");
    let pending: Vec<usize> = (0..app.submit.len())
        .filter(|&i| matches!(app.submit[i], SubmitState::Pending { .. }))
        .collect();
    assert_eq!(pending.len(), 4);
    let receipt = Receipt {
        summary: "accepted recorded by octo-reviewer".into(),
        link: Some("https://github.com/acme/webhooks/pull/42#issuecomment-99".into()),
        shown_as: Some("open"),
        suppressed: false,
    };
    finish(&mut app, pending[0], SubmitOutcome::Recorded(receipt));
    finish(
        &mut app,
        pending[1],
        SubmitOutcome::Rejected {
            reason: says("octo-reviewer has read permission"),
            stale_head: None,
        },
    );
    finish(
        &mut app,
        pending[2],
        SubmitOutcome::Failed {
            reason: says("GitHub timed out"),
        },
    );
    keys(&mut app, "g");
    let text = screen(&app);
    assert!(text.contains("✓") && text.contains("✗") && text.contains("⟳"), "{text}");
    insta::assert_snapshot!(draw(&app).backend());
}

fn kept(app: &App, finding: usize, sha: Option<&str>) -> Entry {
    let set = app.doc.set.as_ref().unwrap_or_else(|| panic!("no set"));
    let fp = set.findings[finding].key.as_str();
    let mut draft = Draft::for_finding(set, fp, SubmittedDisposition::Fixed, "Fixed by the retry rewrite.")
        .unwrap_or_else(|e| panic!("{e:?}"));
    if let Some(sha) = sha {
        draft.reviewed_sha = sha.to_string();
    }
    let mut entry = Entry::new(draft, Some("review.json".into()));
    entry.created_at = "2026-11-28T10:00:00Z".into();
    entry
}

#[test]
fn outbox_offer_overlay() {
    let mut app = sample();
    let mut failed = kept(&app, 0, None);
    failed.attempts = 1;
    failed.last_outcome = Some(LastOutcome {
        kind: OutcomeKind::Failed,
        message: "failed while posting the comment: GitHub answered 502".into(),
        comment_id: None,
        stale_head: false,
    });
    let stale = kept(&app, 3, Some("0123456789abcdef0123456789abcdef01234567"));
    update(
        &mut app,
        Msg::OutboxLoaded {
            entries: vec![stale, failed],
            unreadable: 0,
        },
    );
    let text = screen(&app);
    assert!(text.contains("STALE: made for 0123456789ab"), "{text}");
    insta::assert_snapshot!(draw(&app).backend());
}

/// The overlay lists this pull request's kept thread actions after its
/// decisions: verb, fingerprint, attempts, last outcome, the reply's words,
/// and a STALE mark on one bound to another head.
#[test]
fn outbox_offer_overlay_with_kept_thread_actions() {
    use triage::github::thread_action::{ThreadRequest, ThreadVerb};
    use triage::outbox::thread_actions::ThreadEntry;
    let mut app = sample();
    let entry = kept(&app, 0, None);
    let thread = |verb: ThreadVerb, head: Option<&str>| {
        let mut kept = ThreadEntry::new(ThreadRequest {
            repository: entry.draft.repository.clone(),
            pull_request: entry.draft.pull_request,
            fingerprint: entry.draft.fingerprint.clone(),
            expected_head: head.map(str::to_owned),
            verb,
        });
        kept.created_at = "2026-11-30T10:00:00Z".into();
        kept.attempts = 2;
        kept.last_outcome = Some("failed: GitHub answered 502 Bad Gateway".into());
        kept
    };
    let reply = thread(
        ThreadVerb::Reply {
            body: "Fixed in 4f2c: the retry loop now backs off.\nSecond line.".into(),
        },
        Some(entry.draft.reviewed_sha.as_str()),
    );
    let stale = thread(ThreadVerb::Resolve, Some("0123456789abcdef0123456789abcdef01234567"));
    update(&mut app, Msg::ThreadsKept(vec![reply, stale]));
    update(
        &mut app,
        Msg::OutboxLoaded {
            entries: vec![entry],
            unreadable: 0,
        },
    );
    let text = screen(&app);
    assert!(text.contains("1 kept decision(s), 2 thread action(s)"), "{text}");
    assert!(
        text.contains("thread reply") && text.contains("Fixed in 4f2c"),
        "{text}"
    );
    assert!(text.contains("STALE: made for 0123456789ab"), "{text}");
    assert!(!text.contains("Second line"), "{text}");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn stale_result_banner() {
    let mut app = sample();
    app.live.pr = true;
    keys(&mut app, "R");
    let generation = app.live.refreshing.unwrap_or_default();
    update(
        &mut app,
        Msg::Refreshed {
            generation,
            outcome: RefreshOutcome::HeadMoved {
                head: "77aa0000bbbb1111cccc2222dddd3333eeee4444".into(),
                reason: Shared::new(triage::github::fetch::FetchError::NoRun {
                    workflow: "reviewgate.yml".into(),
                    head: "77aa0000bbbb1111cccc2222dddd3333eeee4444".into(),
                }),
            },
        },
    );
    let text = screen(&app);
    assert!(text.contains("STALE RESULT") && text.contains("77aa0000bbbb"), "{text}");
    insta::assert_snapshot!(draw(&app).backend());
}

/// A second screen on the same pull request says so under the header:
/// both keep drafts in the same files.
#[test]
fn banner_of_a_review_open_in_another_screen() {
    let mut app = sample();
    app.decide.open_elsewhere = Some("1234-5678".into());
    let text = screen(&app);
    assert!(text.contains("Open in another triage screen too."), "{text}");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn river_composer_with_the_major_note() {
    let mut app = fixture::app(fixture::river_set(), (120, 30));
    keys(&mut app, "d");
    let text = screen(&app);
    assert!(
        text.contains("This finding is major")
            && text.contains("only with accepted_risk")
            && text.contains("other status writes feedback only"),
        "{text}"
    );
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn typed_and_pasted_text_never_reaches_a_cell_raw() {
    let mut app = composing(HOSTILE);
    assert_clean(&app, "editor");
    assert_eq!(
        app.decide.composer.as_ref().map(|c| c.evidence()),
        Some(HOSTILE.replace('\r', "\n")),
        "the text itself is kept as entered"
    );
    update(&mut app, Msg::Actor(Ok(HOSTILE.into())));
    ctrl(&mut app, 's');
    assert_clean(&app, "preview");
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Esc);
    assert_clean(&app, "draft row and detail");
    let mut hostile = kept(&app, 0, None);
    hostile.draft.evidence = HOSTILE.into();
    hostile.draft.fingerprint = HOSTILE.into();
    hostile.last_outcome = Some(LastOutcome {
        kind: OutcomeKind::Rejected,
        message: HOSTILE.into(),
        comment_id: None,
        stale_head: false,
    });
    let mut offer = sample();
    let plain = kept(&offer, 0, None);
    update(
        &mut offer,
        Msg::OutboxLoaded {
            entries: vec![plain, hostile],
            unreadable: 0,
        },
    );
    assert_clean(&offer, "outbox");
}

#[test]
fn drift_lane_with_live_thread_facts() {
    use triage::model::finding::{Origin, ThreadFacts, ThreadReply};
    let mut set = fixture::sample_set();
    if let Origin::ReviewGate(rg) = &mut set.findings[2].origin {
        rg.thread.outdated = true;
        rg.thread.facts = Some(ThreadFacts {
            resolved_by: Some("octocat".into()),
            resolved_at: None,
            last_reply: Some(ThreadReply {
                author: "dev-lead".into(),
                excerpt: "Fixed in a follow-up, resolving.".into(),
                created_at: Some("2026-11-28T09:30:00Z".into()),
            }),
            url: Some("https://github.com/acme/webhooks/pull/42#discussion_r77".into()),
        });
    }
    let mut app = fixture::app(set, (160, 40));
    keys(&mut app, "3");
    key(&mut app, KeyCode::Enter);
    keys(&mut app, "jjjjjjjjjjjjjjjj");
    let text = screen(&app);
    assert!(text.contains("resolved by octocat · last reply by dev-lead"), "{text}");
    assert!(
        text.contains("resolved by: octocat") && text.contains("thread link: https://github.com/acme/webhooks"),
        "{text}"
    );
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn questions_hint_only_their_own_answers() {
    let mut river = fixture::app(fixture::river_set(), (120, 30));
    keys(&mut river, "u");
    let text = screen(&river);
    assert!(
        text.contains("Revoke the River suppression") && text.contains("y yes"),
        "{text}"
    );
    assert!(!text.contains("c clipboard"), "{text}");
    let mut drift = sample();
    keys(&mut drift, "3x");
    let text = screen(&drift);
    assert!(text.contains("c clipboard") && !text.contains("y yes"), "{text}");
    assert_clean(&drift, "escalation question");
}

fn orphan(fp: &str, finding_id: &str, resolved: bool) -> triage::model::threads::OrphanThread {
    triage::model::threads::OrphanThread {
        fingerprint: fp.into(),
        thread: triage::model::threads::ObservedThread {
            id: format!("PRRT_{finding_id}"),
            finding_id: finding_id.into(),
            resolved,
            ..Default::default()
        },
    }
}

#[test]
fn drift_lane_with_orphan_threads() {
    let mut app = fixture::app(fixture::sample_set(), (160, 40));
    app.live.orphans = vec![
        orphan("defect:src.webhooks.rs:rejected-by-verifier", "rg_9", true),
        orphan("reliability_risk:src.retry.rs:gone\u{1b}[31m", "", false),
    ];
    keys(&mut app, "3");
    let text = screen(&app);
    assert!(text.contains("Orphan threads (2)"), "{text}");
    assert!(text.contains("(empty finding id)"), "{text}");
    assert_clean(&app, "orphan threads");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn thread_action_confirmation() {
    let mut app = sample();
    keys(&mut app, "3jj");
    keys(&mut app, "t");
    let text = screen(&app);
    assert!(text.contains("r = reply · s = resolve · o = reopen"), "{text}");
    insta::assert_snapshot!("thread_action_menu", draw(&app).backend());
    keys(&mut app, "s");
    let text = screen(&app);
    assert!(
        text.contains("Resolve the thread of") && text.contains("the default is No"),
        "{text}"
    );
    insta::assert_snapshot!("thread_action_confirmation_resolve", draw(&app).backend());
    let mut app = sample();
    keys(&mut app, "3jj");
    keys(&mut app, "tr");
    keys(&mut app, "Fixed in 1a2b; resolving.");
    insta::assert_snapshot!("thread_reply_input", draw(&app).backend());
    key(&mut app, KeyCode::Enter);
    let text = screen(&app);
    assert!(
        text.contains("Reply in the thread of") && text.contains("Fixed in 1a2b; resolving."),
        "{text}"
    );
    insta::assert_snapshot!("thread_action_confirmation_reply", draw(&app).backend());
}

#[test]
fn resolved_externally_remedies_offer() {
    let mut app = sample();
    keys(&mut app, "3t");
    let text = screen(&app);
    assert!(
        text.contains("two honest remedies") && text.contains("o reopen"),
        "{text}"
    );
    insta::assert_snapshot!(draw(&app).backend());
}

/// A River finding's own evidence string, looked for in the checkout at its
/// file:line with the ReviewGate check (here: found two lines lower).
#[test]
fn river_evidence_checked_against_the_checkout() {
    let mut app = fixture::app(fixture::river_set(), (120, 30));
    app.evidence.checkout = true;
    update(&mut app, Msg::Head(HeadLine::NoReviewedSha));
    let i = app.selected().unwrap_or_default();
    let local = LocalEvidence {
        revision: Revision::WorkingTree,
        found: ExcerptMatch::Moved { from: 10, to: 12 },
        first_line: 8,
        lines: vec![
            "import fs from 'node:fs';".into(),
            "".into(),
            "// configuration".into(),
            "export const region = 'eu';".into(),
            "const KEY = \"sk-live\"".into(),
            "export default { KEY };".into(),
        ],
        marked: 12..=12,
    };
    update(
        &mut app,
        Msg::EvidenceLoaded {
            finding: i,
            items: vec![Ok(local)],
        },
    );
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    let text = screen(&app);
    assert!(
        text.contains("Evidence (1)") && text.contains("src/config.mjs:10") && text.contains("moved"),
        "{text}"
    );
    insta::assert_snapshot!(draw(&app).backend());
}

/// The River preview names the absolute repository and says why River's
/// gate will not apply the suppression (changed files, configuration).
#[test]
fn river_preview_names_the_repository_and_warns() {
    use triage::river_store::config::SuppressionSetting;
    let mut set = fixture::river_set();
    if let Some(r) = set.river.as_mut() {
        r.changed_files = vec!["src/other.mjs".into()];
    }
    let mut app = fixture::app(set, (120, 40));
    keys(&mut app, "2j");
    keys(&mut app, "dj");
    key(&mut app, KeyCode::Enter);
    if let Some(c) = app.decide.composer.as_mut() {
        c.editor.set_text("");
    }
    update(
        &mut app,
        Msg::Paste("The handler logs and rethrows; nothing is swallowed.".into()),
    );
    update(
        &mut app,
        Msg::RiverTarget(Ok((
            "/work/repo".into(),
            SuppressionSetting::Disabled("/work/repo/.river-review.yml".into()),
        ))),
    );
    ctrl(&mut app, 's');
    let text = screen(&app);
    assert!(text.contains("repository: /work/repo"), "{text}");
    assert!(text.contains("memory.suppressionEnabled: false"), "{text}");
    assert!(text.contains("not among the review's 1 changed"), "{text}");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn composer_refuses_an_unfilled_template_placeholder() {
    let mut app = sample();
    keys(&mut app, "d");
    key(&mut app, KeyCode::Enter);
    update(&mut app, Msg::Paste(" Tracked in the release plan.".into()));
    ctrl(&mut app, 's');
    let flash = app.ui.flash.as_ref().map(|f| f.text.clone()).unwrap_or_default();
    assert!(flash.contains("<where and when>"), "{flash}");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn evidence_field_cut_to_what_is_shown() {
    let mut set = fixture::sample_set();
    for f in &mut set.findings {
        for e in &mut f.evidence {
            e.reason = "a long reason\n".repeat(1_500);
        }
    }
    let mut app = fixture::app(set, (120, 40));
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    keys(&mut app, "G");
    insta::assert_snapshot!(draw(&app).backend());
}

#[test]
fn y_on_a_hostile_fingerprint_says_why_nothing_was_copied() {
    let mut set = fixture::sample_set();
    for f in &mut set.findings {
        f.key =
            triage::model::finding::FindingKey::Semantic("defect:src.cache.rs:x\u{1b}[201~touch /tmp/PWNED\r".into());
    }
    let mut app = fixture::app(set, (120, 40));
    keys(&mut app, "y");
    insta::assert_snapshot!(draw(&app).backend());
}

/// A failed send that says `words` and nothing else (a River write whose
/// repository could not be found says exactly its reason), so the frame
/// shows only the words the test chose.
fn says(words: &str) -> SendFailure {
    SendFailure::River(Shared::new(triage::river_store::StoreError::RepoRoot(words.into())))
}
