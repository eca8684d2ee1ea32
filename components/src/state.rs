//! The page's state and its URL: the core's settings plus the keys only the
//! page uses (`lang`, `units`, `embed`, `view`). Pure functions, tested natively.

use crate::i18n::Lang;
use tmath::planner::{PlanOptions, PLAN_KEYS};
use tmath::settings::SettingError;
use tmath::units::ByteUnit;
use tmath::Settings;

/// Options of the page itself, not of the calculation.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct PageOptions {
    /// `None`: follow the browser's language.
    pub lang: Option<Lang>,
    pub units: ByteUnit,
    pub embed: bool,
    /// Open on one section (`memory`, `zero`, `compute`, `chinchilla`).
    pub view: Option<String>,
    /// The planner's assumptions (reserve, bandwidths, global batch).
    pub plan: PlanOptions,
    /// Presentation mode: large type, high contrast, keyboard shortcuts.
    pub present: bool,
    /// The value typed into the floating-point explorer.
    pub fp: Option<String>,
}

pub const VIEWS: &[&str] = &["memory", "zero", "compute", "chinchilla", "planner", "sweeps", "fp"];

/// What a query string gave: options, settings, and every key or value it rejected.
#[derive(Clone, Debug, PartialEq)]
pub struct Loaded {
    pub page: PageOptions,
    pub settings: Settings,
    pub errors: Vec<SettingError>,
}

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

/// Encodes a key or value for a query string (unreserved characters kept).
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
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

/// Reads a whole query string. Never fails: what it cannot take it reports.
pub fn load(query: &str) -> Loaded {
    let mut page = PageOptions::default();
    let mut core = Vec::new();
    let mut errors = Vec::new();
    for (k, v) in parse_query(query) {
        match k.as_str() {
            "lang" => match Lang::parse(&v) {
                Some(l) => page.lang = Some(l),
                None => errors.push(SettingError::UnknownChoice { key: "lang", value: v, choices: vec!["ko", "en"] }),
            },
            "units" => match ByteUnit::parse(&v) {
                Some(u) => page.units = u,
                None => errors.push(SettingError::UnknownChoice { key: "units", value: v, choices: vec!["gb", "gib"] }),
            },
            "embed" => page.embed = !matches!(v.as_str(), "0" | "false" | "off" | "no"),
            "present" => page.present = !matches!(v.as_str(), "0" | "false" | "off" | "no"),
            // Any text: the explorer says itself when it is not a number.
            "fp" => page.fp = Some(v.chars().take(64).collect()),
            "view" => match VIEWS.iter().find(|x| **x == v) {
                Some(x) => page.view = Some(x.to_string()),
                None => errors.push(SettingError::UnknownChoice { key: "view", value: v, choices: VIEWS.to_vec() }),
            },
            k if PLAN_KEYS.iter().any(|(p, _)| *p == k) => {
                if let Err(e) = page.plan.set(k, &v) {
                    errors.push(e);
                }
            }
            _ => core.push((k, v)),
        }
    }
    let (mut settings, core_errors) = Settings::from_pairs(core);
    errors.extend(core_errors);
    // The page edits d, never N: turn a valid `gpus` into its d so controls stay consistent.
    if let (Some(_), Ok(config)) = (settings.gpus, settings.resolve()) {
        settings.gpus = None;
        settings.dp = Some(config.layout.dp);
    }
    Loaded { page, settings, errors }
}

/// The query string (with `?`, or empty) that [`load`] turns back into this state.
pub fn query(settings: &Settings, page: &PageOptions) -> String {
    let mut pairs: Vec<(String, String)> = settings.to_pairs().into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    if let Some(lang) = page.lang {
        pairs.push(("lang".into(), lang.as_str().into()));
    }
    if page.units != ByteUnit::Gb {
        pairs.push(("units".into(), page.units.as_str().into()));
    }
    if page.embed {
        pairs.push(("embed".into(), "1".into()));
    }
    if page.present {
        pairs.push(("present".into(), "1".into()));
    }
    if let Some(v) = &page.fp {
        pairs.push(("fp".into(), v.clone()));
    }
    if let Some(v) = &page.view {
        pairs.push(("view".into(), v.clone()));
    }
    pairs.extend(page.plan.to_pairs().into_iter().map(|(k, v)| (k.to_string(), v)));
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
        let l =
            load("?model=llama-3-405b&tp=8&pp=16&dp=128&gpu=h100-80gb&lang=en&units=gib&zero=1&reserve-gb=2&fp=1e-8");
        assert_eq!(l.page.fp.as_deref(), Some("1e-8"));
        assert_eq!(l.page.plan.reserve_bytes, 2e9);
        assert!(l.errors.is_empty(), "{:?}", l.errors);
        let q = query(&l.settings, &l.page);
        let back = load(&q);
        assert_eq!(back, l);
    }

    #[test]
    fn gpus_becomes_dp() {
        let l = load("params=7.5B&gpus=64&zero=1");
        assert_eq!((l.settings.gpus, l.settings.dp), (None, Some(64)));
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
            long.as_str(),
            "gpus=7&tp=2",
        ] {
            let l = load(q);
            // Either a rejected key is reported, or the combination is checked later.
            assert!(!l.errors.is_empty() || l.settings.resolve().is_err(), "{q}");
        }
        let l = load("params=7B&params=70B");
        assert_eq!(l.settings.params, Some(70e9), "the last repeated key wins");
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
