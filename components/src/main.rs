//! Mounts the calculator. Everything else is in the modules: the page shell,
//! the views (panels), the controls (fields) and the charts.
#![forbid(unsafe_code)]

mod bind;
mod charts;
mod ctx;
mod debounce;
mod explain;
mod export;
mod fields;
mod i18n;
mod layout;
mod panels;
mod panic_page;
mod shell;
mod tr;

fn main() {
    panic_page::install();
    // Loaded by another page's embed.js: its figures are mounted one by one (mount_figure).
    if shell::module_embed::base().is_some() {
        return;
    }
    leptos::mount::mount_to_body(shell::app::App);
}

/// For the benchmark (`scripts/bench.sh`, built with `--features bench`): milliseconds per planner search for
/// a catalogue model — the minimum-GPU search up to N = 16384 plus every layout
/// on 16384 GPUs — averaged over `runs`, timed in the browser's wasm.
#[cfg(feature = "bench")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn bench_planner(model: &str, runs: u32) -> f64 {
    let base = tmath::Settings::from_pairs([("model", model), ("gpu", "h100-80gb")]).0.resolve();
    let (Ok(base), Some(perf)) = (base, web_sys::window().and_then(|w| w.performance())) else { return f64::NAN };
    let options = tmath::planner::PlanOptions::default();
    let start = perf.now();
    for _ in 0..runs.max(1) {
        std::hint::black_box(tmath::planner::plan(&base, &options, Some(16384)));
    }
    (perf.now() - start) / runs.max(1) as f64
}
