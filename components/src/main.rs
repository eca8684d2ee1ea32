//! Mounts the calculator. Everything else is in the components.
#![forbid(unsafe_code)]

mod app;
mod bind;
mod breakdown_table;
mod chinchilla_panel;
mod choice_field;
mod compute_panel;
mod controls;
mod ctx;
mod debounce;
mod explain;
mod export;
mod field_notes;
mod fp_panel;
mod geometry;
mod header;
mod i18n;
mod line_chart;
mod memory_panel;
mod notices;
mod number_field;
mod painter;
mod panic_page;
mod planner_panel;
mod presets;
mod stacked_bars;
mod state;
mod summary_bar;
mod sweeps_panel;
mod switch_field;
mod teaching_bar;
mod tr;
mod tree;
mod zero_panel;

fn main() {
    panic_page::install();
    leptos::mount::mount_to_body(app::App);
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
