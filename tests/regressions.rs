//! Inputs that once broke something (fuzzing, hostile links) stay here as tests.
//! `scripts/fuzz.sh` leaves any new crash in fuzz/artifacts/query/: add it below.

use tmath::{evaluate, Settings};

/// Reads a query as the fuzz target does and checks what it checks.
fn survives(query: &str) {
    let pairs: Vec<(&str, &str)> = query.split('&').map(|p| p.split_once('=').unwrap_or((p, ""))).collect();
    let (settings, _) = Settings::from_pairs(pairs);
    if let Ok(config) = settings.resolve() {
        let r = evaluate(&config);
        assert!(r.per_gpu.total().get().is_finite(), "{query}");
        let (back, errors) = Settings::from_pairs(settings.to_pairs());
        assert!(errors.is_empty(), "{query}: {errors:?}");
        assert_eq!(back.resolve().ok(), Some(config), "{query}");
    }
}

#[test]
fn hostile_queries() {
    for q in [
        "",
        "=",
        "&&&",
        "params=",
        "params=B",
        "params=.e5",
        "params=1e-400",
        "params=0x10",
        "tokens=0",
        "max-live-params=0&zero=3",
        "tp=1000000&heads=1000000&gpus=1000000000",
        "tp=1000000&pp=1000000",
        "gpus=1000000000&tp=1",
        "seq-len=10000000&micro-batch=1000000&hidden=10000000&layers=100000&heads=1000000",
        "model=deepseek-v3&active-params=1e16",
        "usd-per-gpu-hour=0&tflops=0.001",
        "params=9999999999999999&tokens=1e18",
        "sequence-parallel=yes&tsp=on&partition-activations=1&tp=8",
        "model=llama-3-405b&layers=1&pp=1000",
    ] {
        survives(q);
    }
}
