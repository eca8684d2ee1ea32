//! Inputs that once broke something (fuzzing, hostile links) stay here as tests.
//! `scripts/fuzz.sh` leaves any new crash in fuzz/artifacts/query/: add it below.

use tmath::evaluate;
use tmath::link::{load, query};

/// Reads a query with the page's own link codec, as the fuzz target does, and checks what it checks.
fn survives(q: &str) {
    let (state, _) = load(q);
    let (back, errors) = load(&query(&state));
    assert!(errors.is_empty(), "{q}: {errors:?}");
    assert_eq!(back, state, "{q}: the canonical link restores the state");
    if let Ok(config) = state.settings.resolve() {
        let r = evaluate(&config);
        assert!(r.per_gpu.total().get().is_finite(), "{q}");
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
        "%ZZ=%E0%A4%A&zero=%",
        "fp=%F0%9F%92%A5%F0%9F%92%A5&deck=,,7b,,&slide=1000",
        "lang=KO&units=GiB&view=3D&embed=yes&present=on",
        "model=custom&grad-dtype=auto",
    ] {
        survives(q);
    }
}
