use super::*;
use crate::model::disposition::{DispositionPayload, comment_body, receipt_digest, status_context};
use crate::model::finding::SubmittedDisposition;
use std::collections::BTreeMap;

const REPO: &str = "o/r";
const HEAD: &str = "abc";

fn scope() -> LedgerScope {
    LedgerScope {
        repository: REPO.into(),
        pull_request: 7,
        head: HEAD.into(),
    }
}

fn body(sha: &str, status: SubmittedDisposition, actor: &str) -> String {
    comment_body(&DispositionPayload::new(
        REPO,
        7,
        sha,
        "defect:a:b",
        status,
        "why",
        actor,
    ))
}

fn comment(id: u64, author: &str, body: String) -> CommentRecord {
    CommentRecord {
        id,
        author: (!author.is_empty()).then(|| author.to_owned()),
        body,
    }
}

fn receipt_for(c: &CommentRecord, creator: &str) -> StatusRecord {
    StatusRecord {
        context: status_context(c.id),
        description: receipt_digest(&c.body),
        creator: creator.into(),
        state: "success".into(),
    }
}

fn auth(statuses: Result<Vec<StatusRecord>, String>, perms: &[(&str, Result<bool, String>)]) -> Authorisation {
    Authorisation {
        statuses,
        permissions: perms
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect::<BTreeMap<_, _>>(),
    }
}

fn ledger(entries: Vec<Recorded>) -> Ledger {
    Ledger {
        scope: scope(),
        pull_url: "https://github.com/o/r/pull/7".into(),
        entries,
    }
}

#[test]
fn each_class_is_told_apart() {
    use SubmittedDisposition::*;
    let attested = comment(5, "me", body(HEAD, Fixed, "me"));
    let writer = comment(6, "w", body(HEAD, Accepted, "w"));
    let reader = comment(7, "r", body(HEAD, Accepted, "r"));
    let stale = comment(3, "me", body("old", Fixed, "me"));
    let garbage = comment(4, "x", "<!-- reviewgate-agent-dispositions not-base64 -->".into());
    let edited = comment(8, "me", format!("{}\nedited", body(HEAD, Fixed, "me")));
    let impostor = comment(9, "z", body(HEAD, Fixed, "me"));
    let plain = comment(1, "me", "LGTM".into());
    let all = [
        attested.clone(),
        writer,
        reader,
        stale,
        garbage,
        edited,
        impostor,
        plain,
    ];
    let picked = pick(&all);
    assert_eq!(picked.iter().map(|c| c.id).collect::<Vec<_>>(), [3, 4, 5, 6, 7, 8, 9]);
    let receipts = receipted(&picked, &[receipt_for(&attested, "me")]);
    let pending = pending_authors(&picked, &receipts).unwrap();
    assert_eq!(pending.into_iter().collect::<Vec<_>>(), ["me", "r", "w", "x", "z"]);
    let a = auth(
        Ok(vec![receipt_for(&attested, "me")]),
        &[
            ("me", Ok(true)),
            ("r", Ok(false)),
            ("w", Ok(true)),
            ("x", Ok(false)),
            ("z", Ok(false)),
        ],
    );
    let out = classify(&scope(), &picked, &a).unwrap();
    let names: Vec<_> = out.iter().map(|r| (r.comment_id, r.authorised.as_str())).collect();
    assert_eq!(
        names,
        [
            (3, "stale"),
            (4, "malformed"),
            (5, "receipt"),
            (6, "permission"),
            (7, "none"),
            (8, "permission"),
            (9, "none")
        ]
    );
    assert!(
        out[6].authorised.reason().contains("is not the comment's author"),
        "{:?}",
        out[6]
    );
    assert!(out[4].authorised.reason().contains("no write permission"));
}

#[test]
fn receipts_need_context_digest_creator_and_success() {
    let c = comment(5, "me", body(HEAD, SubmittedDisposition::Fixed, "me"));
    let good = receipt_for(&c, "me");
    let picked = [c.clone()];
    assert_eq!(receipted(&picked, std::slice::from_ref(&good)).len(), 1);
    assert_eq!(receipted(&picked, &[receipt_for(&c, "")]).len(), 1, "redacted creator");
    let mut other = good.clone();
    other.creator = "bot".into();
    let mut failing = good.clone();
    failing.state = "failure".into();
    let mut digest = good.clone();
    digest.description.push('0');
    let mut context = good;
    context.context = status_context(6);
    for bad in [other, failing, digest, context] {
        assert!(receipted(&picked, std::slice::from_ref(&bad)).is_empty(), "{bad:?}");
    }
}

#[test]
fn replay_fails_closed_as_upstream() {
    let many: Vec<CommentRecord> = (0..33)
        .map(|i| {
            let who = format!("u{i}");
            comment(i + 1, &who, body(HEAD, SubmittedDisposition::Fixed, &who))
        })
        .collect();
    let err = pending_authors(&many, &Default::default()).unwrap_err();
    assert!(err.contains("33") && err.contains("32"), "{err}");
    assert!(classify(&scope(), &many, &auth(Ok(vec![]), &[])).is_err());
    assert!(pending_authors(&many[..32], &Default::default()).is_ok());

    let one = [comment(1, "me", body(HEAD, SubmittedDisposition::Fixed, "me"))];
    let lookup_failed = auth(Ok(vec![]), &[("me", Err("503".into()))]);
    assert!(classify(&scope(), &one, &lookup_failed).unwrap_err().contains("503"));
    let no_statuses_reader = auth(Err("timeout".into()), &[("me", Ok(false))]);
    assert!(classify(&scope(), &one, &no_statuses_reader).is_err());
    let no_statuses_writer = auth(Err("timeout".into()), &[("me", Ok(true))]);
    let out = classify(&scope(), &one, &no_statuses_writer).unwrap();
    assert_eq!(out[0].authorised, Authorised::Permission);
    let anonymous = [comment(1, "", body(HEAD, SubmittedDisposition::Fixed, "me"))];
    assert!(classify(&scope(), &anonymous, &auth(Err("x".into()), &[])).is_err());
    let out = classify(&scope(), &anonymous, &auth(Ok(vec![]), &[])).unwrap();
    assert_eq!(out[0].authorised.as_str(), "none");
}

fn recorded(id: u64, author: &str, status: SubmittedDisposition, authorised: Authorised) -> Recorded {
    let b = body(HEAD, status, author);
    Recorded {
        comment_id: id,
        author: Some(author.into()),
        decision: Some(RecordedDecision {
            fingerprint: "defect:a:b".into(),
            disposition: status,
            evidence: "why".into(),
            actor: author.into(),
            reviewed_sha: HEAD.into(),
        }),
        body_digest: receipt_digest(&b),
        authorised,
    }
}

#[test]
fn never_twice_and_never_over_another_decision_silently() {
    use SubmittedDisposition::*;
    let mine = receipt_digest(&body(HEAD, Fixed, "me"));
    let empty = ledger(vec![]);
    assert_eq!(prior_for(&empty, "defect:a:b", "me", &mine, &[]), Prior::Nothing);

    let done = ledger(vec![recorded(5, "me", Fixed, Authorised::Receipt)]);
    assert!(matches!(prior_for(&done, "defect:a:b", "me", &mine, &[]), Prior::AlreadyRecorded(r) if r.comment_id == 5));
    assert_eq!(
        prior_for(&done, "defect:a:b", "me", &mine, &[5]),
        Prior::Nothing,
        "a comment being deleted is never reused"
    );
    assert_eq!(prior_for(&done, "defect:other", "me", &mine, &[]), Prior::Nothing);

    let lost = ledger(vec![recorded(5, "me", Fixed, Authorised::Permission)]);
    assert!(matches!(prior_for(&lost, "defect:a:b", "me", &mine, &[]), Prior::Unattested(r) if r.comment_id == 5));

    let other = ledger(vec![recorded(5, "you", Accepted, Authorised::Receipt)]);
    assert!(matches!(prior_for(&other, "defect:a:b", "me", &mine, &[]), Prior::Different(r) if r.comment_id == 5));

    let superseded = ledger(vec![
        recorded(5, "me", Fixed, Authorised::Receipt),
        recorded(6, "you", Accepted, Authorised::Permission),
    ]);
    assert!(matches!(prior_for(&superseded, "defect:a:b", "me", &mine, &[]), Prior::Different(r) if r.comment_id == 6));

    let unauthorised_other = ledger(vec![recorded(
        5,
        "you",
        Accepted,
        Authorised::None { reason: "x".into() },
    )]);
    assert_eq!(
        prior_for(&unauthorised_other, "defect:a:b", "me", &mine, &[]),
        Prior::Nothing
    );
}

#[test]
fn latest_prefers_what_replay_applies_last() {
    use SubmittedDisposition::*;
    let l = ledger(vec![
        recorded(5, "me", Fixed, Authorised::Receipt),
        recorded(6, "you", Accepted, Authorised::None { reason: "x".into() }),
    ]);
    assert_eq!(l.latest("defect:a:b").map(|r| r.comment_id), Some(5));
    assert_eq!(l.drifting().count(), 1);
    assert_eq!(l.url(5), "https://github.com/o/r/pull/7#issuecomment-5");
    assert_eq!(l.counts()[0], ("receipt", 1));
    assert!(l.latest("defect:none").is_none());
}

#[test]
fn latest_each_names_what_latest_names_for_every_fingerprint() {
    use SubmittedDisposition::*;
    let about = |mut r: Recorded, fingerprint: &str| {
        if let Some(d) = &mut r.decision {
            d.fingerprint = fingerprint.into();
        }
        r
    };
    let mut no_decision = recorded(9, "me", Fixed, Authorised::Receipt);
    no_decision.decision = None;
    let l = ledger(vec![
        about(recorded(1, "me", Fixed, Authorised::Receipt), "defect:a:b"),
        about(
            recorded(2, "you", Accepted, Authorised::None { reason: "x".into() }),
            "defect:a:b",
        ),
        about(recorded(3, "you", Accepted, Authorised::Stale), "defect:c:d"),
        about(recorded(4, "me", Fixed, Authorised::Stale), "defect:c:d"),
        about(recorded(5, "me", Fixed, Authorised::Receipt), "defect:e:f"),
        about(recorded(6, "me", Accepted, Authorised::Receipt), "defect:e:f"),
        no_decision,
    ]);
    let each = l.latest_each();
    let ids = |fingerprint: &str| each.get(fingerprint).map(|r| r.comment_id);
    assert_eq!(ids("defect:a:b"), Some(1), "the authorised one, though older");
    assert_eq!(ids("defect:c:d"), Some(4), "none authorised: the newest");
    assert_eq!(ids("defect:e:f"), Some(6), "the newest authorised");
    assert_eq!(each.len(), 3, "an entry without a decision speaks for nothing");
    for fingerprint in ["defect:a:b", "defect:c:d", "defect:e:f", "defect:none"] {
        assert_eq!(
            ids(fingerprint),
            l.latest(fingerprint).map(|r| r.comment_id),
            "{fingerprint}"
        );
    }
}

/// Upstream replay reads the payload from the marker and never compares the
/// whole body with the re-rendered one (LVTD-LLC/reviewgate, `reviewgate-cli`
/// `extract_agent_disposition_state`, `apply_agent_disposition_comments`): an
/// edited comment loses its receipt but a writer's is still applied.
#[test]
fn an_edited_writer_comment_is_applied_by_replay_not_malformed() {
    use SubmittedDisposition::*;
    let crlf = comment(10, "w", body(HEAD, Fixed, "w").replace('\n', "\r\n"));
    let appended = comment(
        11,
        "w",
        format!("{}\n\nedited: see commit abc", body(HEAD, Accepted, "w")),
    );
    let picked = pick(&[crlf, appended]);
    let a = auth(Ok(vec![]), &[("w", Ok(true))]);
    let out = classify(&scope(), &picked, &a).unwrap();
    let names: Vec<_> = out.iter().map(|r| (r.comment_id, r.authorised.as_str())).collect();
    assert_eq!(names, [(10, "permission"), (11, "permission")], "{out:#?}");
}

/// So an edited decision of a writer is the one in force, and a different
/// decision is not posted over it without `--supersede`.
#[test]
fn an_edited_decision_still_blocks_a_silent_override() {
    use SubmittedDisposition::*;
    let edited = comment(10, "w", body(HEAD, Accepted, "w").replace('\n', "\r\n"));
    let picked = pick(&[edited]);
    let a = auth(Ok(vec![]), &[("w", Ok(true))]);
    let l = ledger(classify(&scope(), &picked, &a).unwrap());
    let mine = receipt_digest(&body(HEAD, Fixed, "me"));
    let prior = prior_for(&l, "defect:a:b", "me", &mine, &[]);
    assert!(matches!(prior, Prior::Different(r) if r.comment_id == 10), "{prior:?}");
}
