//! Exports hold the configuration and the results, nothing else: the same JSON
//! as `tmath --json` plus the share query, and a two-column CSV of the same,
//! both printed from [`crate::tree`] (no serde_json in the wasm).

use crate::tree::{to_compact_json, to_json, to_tree, Node};
use tmath::{Report, Settings};

/// `{"query": "...", "result": {…tmath --json…}}`.
pub fn json(report: &Report, settings: &Settings) -> String {
    let query = tmath::link::query(&tmath::keys::State { settings: settings.clone(), ..Default::default() });
    let result = to_tree(report).unwrap_or(Node::Null);
    to_json(&Node::Map(vec![("query".into(), Node::Str(query)), ("result".into(), result)]))
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `key,value` rows: the settings' keys, then every number of the JSON.
pub fn csv(report: &Report, settings: &Settings) -> String {
    let mut out = String::from("key,value\n");
    for k in tmath::keys::KEYS {
        if let Some(v) = settings.value(k.name) {
            out.push_str(&format!("{},{}\n", k.name, csv_field(&v)));
        }
    }
    if let Ok(Node::Map(fields)) = to_tree(report) {
        for (k, v) in fields {
            match v {
                Node::Map(inner) => {
                    for (k2, v2) in inner {
                        out.push_str(&format!("{k}.{k2},{}\n", csv_field(&to_compact_json(&v2))));
                    }
                }
                Node::List(items) => {
                    let joined: Vec<&str> =
                        items.iter().map(|i| if let Node::Str(s) = i { s.as_str() } else { "" }).collect();
                    out.push_str(&format!("{k},{}\n", csv_field(&joined.join("; "))));
                }
                other => out.push_str(&format!("{k},{}\n", csv_field(&to_compact_json(&other)))),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exports_carry_the_core_numbers() {
        let s = Settings::from_pairs([("params", "7B")]).0;
        let r = tmath::evaluate(&s.resolve().unwrap());
        let j: serde_json::Value = serde_json::from_str(&json(&r, &s)).unwrap();
        assert_eq!(j["result"]["per_gpu_bytes"]["optimizer"], 84e9);
        // The same document as the core's JSON through serde_json (tmath --json).
        assert_eq!(j["result"], serde_json::to_value(&r).unwrap());
        assert_eq!(j["query"], "?params=7000000000");
        let c = csv(&r, &s);
        assert!(c.contains("per_gpu_bytes.optimizer,84000000000.0\n"), "{c}");
        assert!(c.contains("params,7000000000\n"));
        assert_eq!(csv_field("a,b"), "\"a,b\"");
    }
}
