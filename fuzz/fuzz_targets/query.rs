//! Any query string, read as the page reads it (key=value pairs) and the
//! command line does: never a panic, and every number finite and non-negative.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tmath::{evaluate, Settings};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let pairs: Vec<(&str, &str)> = text.split('&').map(|p| p.split_once('=').unwrap_or((p, ""))).collect();
    let (settings, _errors) = Settings::from_pairs(pairs);
    let Ok(config) = settings.resolve() else { return };
    let report = evaluate(&config);
    let total = report.per_gpu.total().get();
    assert!(total.is_finite() && total >= 0.0, "{total}");
    let json = serde_json::to_value(&report).expect("serializes");
    for (key, value) in json.as_object().expect("object") {
        if let Some(x) = value.as_f64() {
            assert!(x.is_finite() && x >= 0.0, "{key} = {x}");
        }
    }
    // The share link reads back to the same configuration.
    let (back, errors) = Settings::from_pairs(settings.to_pairs());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(back.resolve().ok(), Some(config.clone()));
    // The planner on a small cluster.
    if config.layout.gpus() <= 64 {
        let o = tmath::planner::PlanOptions { max_gpus: 64, global_batch: 64, ..Default::default() };
        let _ = tmath::planner::plan(&config, &o, Some(config.layout.gpus()));
    }
    for f in tmath::fp::FORMATS {
        let _ = f.encode(config.params.get());
    }
});
