//! Memory per GPU: the verdict, the stacked bar beside the inference bar (or a
//! comparison slide's bars), the capacity line, and the same numbers as a table.

use super::breakdown_table::BreakdownTable;
use super::Mode;
use crate::bind::text;
use crate::charts::geometry::Bar;
use crate::charts::stacked_bars::StackedBars;
use crate::ctx::{use_ctx, Ctx};
use leptos::prelude::*;
use tmath::memory::Part;
use tmath::presets::Variant;
use tmath::units::Bytes;
use tmath::{evaluate, Report};

/// "✓ fits — 12 GB headroom" or "✗ does not fit — over by 63 GB", tracked.
pub fn verdict(ctx: Ctx) -> String {
    ctx.shown.with(|r| verdict_of(ctx, r))
}

/// The verdict of one report, in the page's language and unit, tracked.
pub fn verdict_of(ctx: Ctx, r: &Report) -> String {
    let u = ctx.units();
    if r.fits() {
        format!("✓ {} — {} {}", ctx.t("fits"), u.format(r.headroom()), ctx.t("headroom"))
    } else {
        format!("✗ {} — {} {}", ctx.t("does-not-fit"), ctx.t("over-by"), u.format(Bytes(-r.headroom().get())))
    }
}

/// The segments of a report's per-GPU memory, bottom first.
pub fn segments(r: &Report) -> Vec<f64> {
    r.per_gpu.parts().iter().map(|(_, b)| b.get()).collect()
}

/// The translation key of a part's name.
pub fn part_key(part: Part) -> &'static str {
    match part {
        Part::Model => "part-model",
        Part::Gradients => "part-gradients",
        Part::Optimizer => "part-optimizer",
        Part::Activations => "part-activations",
        Part::LiveParams => "part-zero3-live-params",
    }
}

/// The legend of the parts a set of bars shows, tracked.
pub fn legend(ctx: Ctx, parts: &'static [Part]) -> Signal<Vec<(usize, String)>> {
    Signal::derive(move || parts.iter().map(|&p| (p as usize, ctx.t(part_key(p)).to_string())).collect())
}

/// The capacity line's label: "GPU memory 80 GB", tracked.
pub fn capacity_label(ctx: Ctx, r: Memo<Report>) -> Signal<String> {
    Signal::derive(move || format!("{} {}", ctx.t("capacity"), ctx.units().format(r.with(|r| r.gpu_mem()))))
}

/// The training bar and the inference bar of the current report.
fn training_and_inference(ctx: Ctx) -> Vec<Bar> {
    ctx.shown.with(|r| {
        let serving = r.inference_per_gpu().get();
        let weights = serving / tmath::memory::INFERENCE_OVERHEAD;
        let mp = r.config.layout.model_parallel();
        let inference_label = if mp > 1 {
            format!("{} ÷ t·p = {mp} ({})", ctx.t("inference"), r.config.inference_dtype)
        } else {
            format!("{} ({})", ctx.t("inference"), r.config.inference_dtype)
        };
        vec![
            Bar { label: ctx.t("training").to_string(), segments: segments(r), current: true, ..Bar::default() },
            Bar {
                label: inference_label,
                segments: vec![weights, 0.0, 0.0, 0.0, 0.0, serving - weights],
                ..Bar::default()
            },
        ]
    })
}

/// One bar per variant of a comparison slide, each the current settings with the variant's keys.
fn variant_bars(ctx: Ctx, variants: &'static [Variant]) -> Vec<Bar> {
    let settings = ctx.settings.get();
    variants
        .iter()
        .map(|v| {
            let pairs = tmath::link::parse_query(v.query);
            let mut s = settings.clone();
            let applied = pairs.iter().all(|(k, val)| s.set(k, val).is_ok());
            let report = applied.then(|| s.resolve().ok()).flatten().map(|c| evaluate(&c));
            let fits = report.as_ref().is_some_and(|r| r.fits());
            Bar {
                label: ctx.t(v.label).to_string(),
                sub: if fits { format!("✓ {}", ctx.t("fits")) } else { format!("✗ {}", ctx.t("does-not-fit")) },
                segments: report.as_ref().map(segments).unwrap_or_default(),
                current: v.query.is_empty(),
            }
        })
        .collect()
}

#[component]
pub fn MemoryView(
    /// Where the view is drawn.
    mode: Mode,
    /// A comparison slide's bars; empty: the training and inference bars.
    variants: &'static [Variant],
) -> impl IntoView {
    let ctx = use_ctx();
    let units = Signal::derive(move || ctx.units());
    let bars =
        Signal::derive(
            move || {
                if variants.is_empty() {
                    training_and_inference(ctx)
                } else {
                    variant_bars(ctx, variants)
                }
            },
        );
    let capacity = Signal::derive(move || ctx.shown.with(|r| r.config.gpu_mem_bytes));
    let fits = move || ctx.shown.with(|r| r.fits());
    let summary = Signal::derive(move || format!("{}: {}", ctx.t("total"), verdict(ctx)));
    let parts: &'static [Part] = &Part::ALL;
    view! {
        <p
            class="verdict"
            class:ok=fits
            class:bad=move || !fits()
            data-testid="fits"
            data-fits=text(move || fits().to_string())
            aria-live="polite"
        >
            {move || verdict(ctx)}
        </p>
        <StackedBars
            bars=bars
            capacity=capacity
            capacity_label=capacity_label(ctx, ctx.shown)
            units=units
            label=summary
            testid="memory-chart"
            size=mode.chart(300.0)
            font=mode.font()
            legend=legend(ctx, parts)
        />
        <BreakdownTable compact=mode != Mode::Page />
    }
}
