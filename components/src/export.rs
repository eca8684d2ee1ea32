//! Exports hold the configuration and the results, nothing else: the same JSON
//! as `tmath --json` plus the share query, and a two-column CSV of the same.

use tmath::{Report, Settings};

/// `{"query": "...", "result": {…tmath --json…}}`.
pub fn json(report: &Report, settings: &Settings) -> String {
    let query = crate::state::query(settings, &Default::default());
    let value = serde_json::json!({ "query": query, "result": report });
    serde_json::to_string_pretty(&value).unwrap_or_default()
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
    for k in tmath::settings::KEYS {
        if let Some(v) = settings.value(k.name) {
            out.push_str(&format!("{},{}\n", k.name, csv_field(&v)));
        }
    }
    if let Ok(serde_json::Value::Object(map)) = serde_json::to_value(report) {
        for (k, v) in map {
            match v {
                serde_json::Value::Object(inner) => {
                    for (k2, v2) in inner {
                        out.push_str(&format!("{k}.{k2},{}\n", csv_field(&v2.to_string())));
                    }
                }
                serde_json::Value::Array(items) => {
                    let joined: Vec<String> =
                        items.iter().map(|i| i.as_str().unwrap_or_default().to_string()).collect();
                    out.push_str(&format!("{k},{}\n", csv_field(&joined.join("; "))));
                }
                other => out.push_str(&format!("{k},{}\n", csv_field(&other.to_string()))),
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
        assert_eq!(j["query"], "?params=7000000000");
        let c = csv(&r, &s);
        assert!(c.contains("per_gpu_bytes.optimizer,84000000000.0\n"), "{c}");
        assert!(c.contains("params,7000000000\n"));
        assert_eq!(csv_field("a,b"), "\"a,b\"");
    }
}
