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
/// and the defaults stand in for it. A combination no cluster can have
/// (`model=qwen2.5-7b&tp=8`: 8 does not divide its 28 heads) loses the key
/// that makes it so, reported as refused, so the page shows the link's own
/// numbers less that key rather than someone else's.
pub fn load(query: &str) -> (State, Vec<SettingError>) {
    let mut pairs = parse_query(query);
    let read = |pairs: &[(String, String)]| State::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let (mut state, mut errors) = read(&pairs);
    let mut refused = Vec::new();
    // Each round leaves one key out: at most as many rounds as keys.
    while let Err(why) = state.settings.resolve() {
        let given = |k: crate::keys::K| pairs.iter().rposition(|(name, _)| crate::keys::K::of(name) == Some(k));
        let Some(at) = why.culprits().iter().find_map(|&k| given(k)) else { break };
        let (name, value) = pairs.remove(at);
        let key = crate::keys::K::of(&name).map_or("", |k| k.name());
        // An earlier repetition of the key would take its place: it goes too.
        pairs.retain(|(n, _)| crate::keys::K::of(n).map(|k| k.name()) != Some(key));
        refused.push(SettingError::Refused { key, value, why });
        (state, errors) = read(&pairs);
    }
    errors.extend(refused);
    (state, errors)
}

/// The configuration of a query that loads without a notice (no bad key, no
/// refused one): a validation row's run. `None` where anything was dropped.
pub fn config(query: &str) -> Option<crate::Config> {
    let (state, errors) = load(query);
    if !errors.is_empty() {
        return None;
    }
    state.settings.resolve().ok()
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
            // A rejected key is reported, and what loads is a possible combination.
            assert!(!errors.is_empty(), "{q}");
            assert!(s.settings.resolve().is_ok(), "{q}");
        }
        let (s, _) = load("params=7B&params=70B");
        assert_eq!(s.settings.params, Some(70e9), "the last repeated key wins");
    }

    /// A link's impossible combination loses the key that makes it so, and only that key.
    #[test]
    fn an_impossible_link_keeps_its_own_numbers_less_the_refused_key() {
        let (s, errors) = load("?model=qwen2.5-7b&tp=8&gpus=8");
        let c = s.settings.resolve().expect("the rest of the link resolves");
        assert_eq!(c.model.map(|m| m.name), Some("qwen2.5-7b"));
        assert_eq!((c.layout.tp, c.layout.dp, c.layout.gpus(), c.seq_len), (1, 8, 8, 32768));
        let why = crate::settings::ConfigError::TpNotDividingHeads { tp: 8, heads: 28 };
        assert_eq!(errors, [SettingError::Refused { key: "tp", value: "8".into(), why }]);
        // N = 12 with t = 8: the degree goes, the GPU count stays.
        let (s, errors) = load("gpus=12&tp=8&zero=2");
        assert_eq!(s.settings.resolve().map(|c| (c.layout.gpus(), c.zero.get())), Ok((12, 2)));
        assert!(matches!(errors[..], [SettingError::Refused { key: "tp", .. }]), "{errors:?}");
        // Two impossible keys: both are named, the link's other keys stay.
        let (s, errors) = load("params=7B&active-params=9B&gpus=8&dp=4&seq-len=4096");
        assert_eq!(s.settings.resolve().map(|c| (c.layout.dp, c.seq_len)), Ok((8, 4096)));
        let keys: Vec<&str> = errors.iter().map(|e| e.key()).collect();
        assert_eq!(keys, ["dp", "active-params"]);
        // A repeated key goes with its repetitions.
        let (s, _) = load("tp=8&tp=3");
        assert_eq!(s.settings.tp, 1);
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
