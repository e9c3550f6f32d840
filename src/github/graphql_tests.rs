//! Tests of telling ReviewGate's threads apart: markers as ReviewGate reads
//! them (line endings, empty values, exact encoding), authors, skipped nodes
//! and the facts carried.

use super::*;
use serde_json::{Value, json};

const WEB: &str = "https://github.com";

fn body(id: &str, fp: &str) -> String {
    format!("<!-- reviewgate-finding:{id} -->\n\n<!-- reviewgate-finding-semantic:{fp} -->\n**P1** text")
}

fn node(author: Option<&str>, body: &str, replies: u64) -> Value {
    let comment = |login: Option<&str>, text: &str| {
        json!({
            "author": login.map(|l| json!({ "login": l })),
            "body": text,
            "createdAt": "2024-05-01T10:00:00Z",
            "url": "https://github.com/o/r/pull/1#discussion_r9",
        })
    };
    json!({
        "id": "PRRT_1",
        "isResolved": true,
        "isOutdated": false,
        "resolvedBy": { "login": "alice" },
        "opening": { "totalCount": replies, "nodes": [comment(author, body)] },
        "latest": { "nodes": [comment(Some("bob"), "fixed it")] },
    })
}

#[test]
fn markers_decode_exactly() {
    let (id, fp) = parse_markers(&body("F-1", "defect%3Asrc%2Fa.rs%3Anull%20check")).unwrap_or_default();
    assert_eq!((id.as_str(), fp.as_str()), ("F-1", "defect:src/a.rs:null check"));
    assert_eq!(
        parse_markers(&body("F%C3%A9", "x.y_z~")),
        Some(("Fé".into(), "x.y_z~".into()))
    );
    // Exactly the three lines: the body may end right after line 3.
    let short = "<!-- reviewgate-finding:A -->\n\n<!-- reviewgate-finding-semantic:B -->";
    assert_eq!(parse_markers(short), Some(("A".into(), "B".into())));
}

#[test]
fn markers_are_read_whatever_the_line_ending() {
    let want = Some(("F1".to_owned(), "defect:a".to_owned()));
    let crlf = body("F1", "defect%3Aa").replace('\n', "\r\n");
    assert_eq!(parse_markers(&crlf), want);
    // Mixed endings, as `str::lines` splits them.
    let mixed = "<!-- reviewgate-finding:F1 -->\r\n\n<!-- reviewgate-finding-semantic:defect%3Aa -->\r\nrest";
    assert_eq!(parse_markers(mixed), want);
    let blank_crlf = "<!-- reviewgate-finding:F1 -->\n\r\n<!-- reviewgate-finding-semantic:defect%3Aa -->";
    assert_eq!(parse_markers(blank_crlf), want);
}

#[test]
fn empty_marker_values_are_accepted_as_reviewgate_accepts_them() {
    assert_eq!(parse_markers(&body("", "fp")), Some((String::new(), "fp".into())));
    assert_eq!(parse_markers(&body("F1", "")), Some(("F1".into(), String::new())));
}

#[test]
fn near_misses_are_not_markers() {
    for bad in [
        body("F1", "defect%3asrc"),                // lowercase hex
        body("F1", "defect:src"),                  // raw reserved byte
        body("F%41", "x"),                         // encoded unreserved byte
        body("F1", "x%2"),                         // truncated escape
        body("F1", "%FF"),                         // not UTF-8
        format!(" {}", body("F1", "x")),           // leading space
        body("F1", "x").replacen("\n\n", "\n", 1), // no empty line 2
        body("F1", "x").replacen("\n\n", "\n \n", 1),
        body("F1", "x").replacen("\n\n", "\r\r\n", 1), // a lone CR is not a line ending
        "<!-- reviewgate-finding:F1 -->\n\n<!-- reviewgate-finding-semantic:x --> trailing".into(),
        "<!-- reviewgate-finding:F1 --> <!-- reviewgate-finding:F2 -->\n\n<!-- reviewgate-finding-semantic:x -->"
            .into(),
        "<!-- reviewgate-finding-semantic:x -->\n\n<!-- reviewgate-finding:F1 -->".into(),
        "<!-- reviewgate-finding:F1 -->\n".into(),
    ] {
        assert_eq!(parse_markers(&bad), None, "{bad:?}");
    }
}

#[test]
fn only_reviewgate_authors_count() {
    let b = body("F1", "fp");
    for login in REVIEWGATE_AUTHORS {
        let got = marked_threads(&[node(Some(login), &b, 1)], WEB);
        assert_eq!(got.len(), 1, "{login}");
        assert_eq!(got[0].fingerprint, "fp");
    }
    for login in [
        Some("mallory"),
        Some("github-actions-bot"),
        Some("GitHub-Actions"),
        None,
    ] {
        assert!(marked_threads(&[node(login, &b, 1)], WEB).is_empty(), "{login:?}");
    }
}

#[test]
fn nodes_reviewgate_would_skip_are_skipped_alone() {
    let good = node(Some("github-actions"), &body("F1", "fp"), 1);
    let mut no_id = good.clone();
    no_id["id"] = Value::Null;
    let mut odd_resolved = good.clone();
    odd_resolved["isResolved"] = json!("yes");
    let mut no_outdated = good.clone();
    no_outdated.as_object_mut().map(|o| o.remove("isOutdated"));
    let mut no_comments = good.clone();
    no_comments["opening"]["nodes"] = Value::Null;
    let mut empty_comments = good.clone();
    empty_comments["opening"]["nodes"] = json!([]);
    let mut null_root = good.clone();
    null_root["opening"]["nodes"] = json!([null]);
    let page = [
        Value::Null,
        no_id,
        odd_resolved,
        no_outdated,
        no_comments,
        empty_comments,
        null_root,
        good,
    ];
    let got = marked_threads(&page, WEB);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].thread.id, "PRRT_1");
}

#[test]
fn facts_are_carried_and_bounded() {
    let got = marked_threads(&[node(Some("github-actions"), &body("F1", "fp"), 3)], WEB);
    let t = &got[0].thread;
    assert!(t.resolved && !t.outdated);
    assert_eq!(t.finding_id, "F1");
    assert_eq!(t.resolved_by.as_deref(), Some("alice"));
    let reply = t.last_reply.as_ref().map(|r| (r.author.as_str(), r.excerpt.as_str()));
    assert_eq!(reply, Some(("bob", "fixed it")));
    assert_eq!(t.url.as_deref(), Some("https://github.com/o/r/pull/1#discussion_r9"));
    // A single comment has no reply; a link to another host is dropped.
    let alone = marked_threads(
        &[node(Some("github-actions"), &body("F1", "fp"), 1)],
        "https://ghe.example",
    );
    assert!(alone[0].thread.last_reply.is_none());
    assert!(alone[0].thread.url.is_none());
    assert_eq!(excerpt(&"é".repeat(400), 501).len(), 500 + "…".len());
}
