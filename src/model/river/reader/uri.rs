//! The `uri` string format as River Review's validator judges it.
//!
//! River registers ajv-formats with `addFormats(ajv)` and no options, which
//! selects ajv-formats' *full* mode (3.0.x). There a `uri` is a string that
//! contains `/` or `:` and matches, case-insensitively and over ASCII only,
//! RFC 3986's absolute form: `scheme ":" hier-part ["?" query] ["#"
//! fragment]`, with two quirks of that pattern followed here exactly:
//! - the authority may follow a single slash as well as two (`a:/host` is
//!   read as authority `host`, which changes nothing about acceptance);
//! - the empty path is not one of the alternatives, so `urn:` alone is not a
//!   uri, nor is `mailto:` without an address.
//!
//! The fast mode's much looser rule (`scheme:` then any non-space text) is
//! not what River uses. The pattern below is composed from RFC 3986's named
//! productions so each part can be checked against the RFC.

use regex::{Regex, RegexBuilder};
use std::sync::LazyLock;

const HEX4: &str = "[0-9a-f]{1,4}";
const DEC_OCTET: &str = r"(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)";
const UNRESERVED_SUB_DELIMS: &str = r"a-z0-9\-._~!$&'()*+,;=";
const PCT: &str = "%[0-9a-f]{2}";

fn ipv4() -> String {
    format!(r"(?:{DEC_OCTET}\.){{3}}{DEC_OCTET}")
}

/// RFC 3986 `IPv6address`, the nine forms of its grammar.
fn ipv6() -> String {
    let h = HEX4;
    let ls32 = format!("(?:{h}:{h}|{})", ipv4());
    let lead = |n: usize| {
        if n == 0 {
            format!("(?:{h})?")
        } else {
            format!("(?:(?:{h}:){{0,{n}}}{h})?")
        }
    };
    let with_ls32 = [
        format!("(?:{h}:){{6}}"),
        format!("::(?:{h}:){{5}}"),
        format!("{}::(?:{h}:){{4}}", lead(0)),
        format!("{}::(?:{h}:){{3}}", lead(1)),
        format!("{}::(?:{h}:){{2}}", lead(2)),
        format!("{}::{h}:", lead(3)),
        format!("{}::", lead(4)),
    ]
    .join("|");
    format!("(?:(?:{with_ls32}){ls32}|{}::{h}|{}::)", lead(5), lead(6))
}

fn pattern() -> String {
    let pchar = format!("(?:[{UNRESERVED_SUB_DELIMS}:@]|{PCT})");
    let userinfo = format!("(?:[{UNRESERVED_SUB_DELIMS}:]|{PCT})*");
    let ip_future = format!(r"[v][0-9a-f]+\.[{UNRESERVED_SUB_DELIMS}:]+");
    let reg_name = format!("(?:[{UNRESERVED_SUB_DELIMS}]|{PCT})*");
    let host = format!(r"(?:\[(?:{}|{ip_future})\]|{}|{reg_name})", ipv6(), ipv4());
    let authority = format!("(?:{userinfo}@)?{host}(?::[0-9]*)?");
    let path_abempty = format!("(?:/{pchar}*)*");
    let path_absolute = format!("/(?:{pchar}+(?:/{pchar}*)*)?");
    let path_rootless = format!("{pchar}+(?:/{pchar}*)*");
    let hier = format!("(?:/?/{authority}{path_abempty}|{path_absolute}|{path_rootless})");
    let tail = format!("(?:[{UNRESERVED_SUB_DELIMS}:@/?]|{PCT})*");
    format!(r"^[a-z][a-z0-9+\-.]*:{hier}(?:\?{tail})?(?:#{tail})?$")
}

static URI: LazyLock<Option<Regex>> = LazyLock::new(|| {
    // ASCII-only classes and ASCII case folding, as a JavaScript regular
    // expression without the `u` flag folds (the Kelvin sign is not `k`).
    RegexBuilder::new(&pattern())
        .case_insensitive(true)
        .unicode(false)
        .build()
        .ok()
});

/// Whether `s` is a `uri` as ajv-formats' full mode judges it.
pub fn is_ajv_uri(s: &str) -> bool {
    (s.contains('/') || s.contains(':')) && URI.as_ref().is_some_and(|re| re.is_match(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 400 generated strings (97 of them uris) with the verdict ajv-formats
    /// 3.0.1's own `uri` function gave each, computed with Node and kept here.
    #[test]
    fn agrees_with_ajv_formats_on_generated_strings() {
        let vectors: Vec<(String, bool)> =
            serde_json::from_str(include_str!("uri_vectors.json")).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(vectors.len(), 400);
        for (s, want) in vectors {
            assert_eq!(is_ajv_uri(&s), want, "{s:?}");
        }
    }

    #[test]
    fn the_pattern_compiles() {
        assert!(URI.is_some(), "{}", pattern());
    }

    #[test]
    fn accepted_as_river_accepts_them() {
        for ok in [
            "https://github.com/o/r/pull/7",
            "HTTPS://EXAMPLE.COM/A%2Fb?q=1&r=x#frag/ment?",
            "http://user:pa%20ss@host:8080/p/a/t/h;x=1?y",
            "http://[::1]:80/",
            "http://[2001:db8::7]/c=GB?objectClass?one",
            "http://[fe80::a:b:c:d]/",
            "http://[::ffff:192.0.2.1]/",
            "http://[v1.fe::x]/",
            "http://192.0.2.16:/",
            "http://host:",
            "mailto:John.Doe@example.com",
            "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
            "tel:+1-816-555-1212",
            "file:///etc/hosts",
            "file:/etc/hosts",
            "news:comp.infosystems.www.servers.unix",
            "a:/",
            "a://",
            "x-y.z+w:rest",
            "http://999.1.1.1/",
            // The single-slash quirk: `/` then an empty authority, then the
            // path `/host:80a/`, so a malformed port still passes.
            "http://host:80a/",
        ] {
            assert!(is_ajv_uri(ok), "{ok} should be a uri");
        }
    }

    #[test]
    fn rejected_as_river_rejects_them() {
        for bad in [
            "PR#7",
            "",
            "github.com/o/r",
            "/relative/path",
            "//host/path",
            "urn:",
            "mailto:",
            "1http://x",
            "http://exa mple.com/",
            "http://example.com/ space",
            "http://example.com/%zz",
            "http://exa\"mple.com/",
            "http://[::1/",
            "http://[12345::]/",
            "http://[1:2:3:4:5:6:7:8:9]/",
            "http://host/pa<th",
            "http://host/\u{e9}",
            "http://ho\u{212a}st/",
            "http://host/#a#b",
            "http://host\n",
            // Brackets belong to an IP literal only, not to a query.
            "https://example.com/a?r=[x]",
        ] {
            assert!(!is_ajv_uri(bad), "{bad:?} should not be a uri");
        }
    }
}
