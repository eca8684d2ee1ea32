//! Any query string, read by the page's own link codec: never a panic, every
//! number finite and non-negative, and the canonical link restores the state.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tmath::evaluate;
use tmath::link::{load, query};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (state, _errors) = load(&text);
    // The share link reads back to the same state.
    let (back, errors) = load(&query(&state));
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(back, state);
    let Ok(config) = state.settings.resolve() else { return };
    let report = evaluate(&config);
    let total = report.per_gpu.total().get();
    assert!(total.is_finite() && total >= 0.0, "{total}");
    let json = serde_json::to_value(&report).expect("serializes");
    for (key, value) in json.as_object().expect("object") {
        if let Some(x) = value.as_f64() {
            assert!(x.is_finite() && x >= 0.0, "{key} = {x}");
        }
    }
    // The planner on a small cluster.
    if config.layout.gpus() <= 64 {
        let o = tmath::planner::PlanOptions { max_gpus: 64, global_batch: 64, ..Default::default() };
        let _ = tmath::planner::plan(&config, &o, Some(config.layout.gpus()));
    }
    for f in tmath::fp::FORMATS {
        let _ = f.encode(config.params.get());
    }
});
