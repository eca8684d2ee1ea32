//! The share link: a query string to a [`State`] and back. The page reads its
//! address with [`load`] and writes it with [`query`]; the fuzz target and the
//! regression tests call the same two functions.

use crate::keys::{SettingError, State};

fn hex(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Decodes `%XX` and `+`; invalid escapes stay as written, invalid UTF-8 is replaced.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Encodes a key or value for a query string (unreserved characters and `,` kept).
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b',') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `?a=1&b=2` (leading `?` optional) into decoded pairs; a key without `=` has an empty value.
pub fn parse_query(query: &str) -> Vec<(String, String)> {
    query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (percent_decode(k), percent_decode(v))
        })
        .collect()
}

/// Reads a whole query string. Never fails: what it cannot take it reports,
/// and the defaults stand in for it.
pub fn load(query: &str) -> (State, Vec<SettingError>) {
    State::from_pairs(parse_query(query))
}

/// The query string (with `?`, or empty) that [`load`] turns back into `state`.
pub fn query(state: &State) -> String {
    let pairs = state.to_pairs();
    if pairs.is_empty() {
        return String::new();
    }
    let body: Vec<String> = pairs.iter().map(|(k, v)| format!("{}={}", percent_encode(k), percent_encode(v))).collect();
    format!("?{}", body.join("&"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_round_trip() {
        let (s, errors) = load(
            "?model=llama-3-405b&tp=8&pp=16&dp=128&gpu=h100-80gb&lang=en&units=gib&zero=1&reserve-gb=2&fp=1e-8&deck=7b,zero",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(s.page.fp.as_deref(), Some("1e-8"));
        assert_eq!(s.settings.reserve_gb, Some(2.0));
        assert_eq!(s.page.deck, ["7b", "zero"]);
        let q = query(&s);
        assert!(q.contains("deck=7b,zero"), "{q}");
        assert_eq!(load(&q), (s, Vec::new()));
    }

    #[test]
    fn hostile_queries_load_with_errors() {
        let long = format!("params={}", "9".repeat(10_000));
        for q in [
            "params=-1",
            "params=NaN&tokens=Infinity",
            "params=1e400",
            "%ZZ=%E0%A4%A&zero=%",
            "tp=%EC%95%88%EB%85%95",
            "lang=xx&view=nope&units=furlong",
            "embed=maybe&deck=nowhere",
            long.as_str(),
            "gpus=7&tp=2",
        ] {
            let (s, errors) = load(q);
            // Either a rejected key is reported, or the combination is checked later.
            assert!(!errors.is_empty() || s.settings.resolve().is_err(), "{q}");
        }
        let (s, _) = load("params=7B&params=70B");
        assert_eq!(s.settings.params, Some(70e9), "the last repeated key wins");
    }

    #[test]
    fn percent_coding() {
        assert_eq!(percent_decode("a%20b+c%2"), "a b c%2");
        assert_eq!(percent_encode("7.5B é"), "7.5B%20%C3%A9");
        assert_eq!(
            parse_query("?a=1&&b&c=%3D"),
            vec![("a".into(), "1".into()), ("b".into(), "".into()), ("c".into(), "=".into())]
        );
    }
}
