//! Memory per GPU: the verdict, the stacked bar beside the inference bar, the
//! capacity line, and the same numbers as a table.

use crate::bind::text;
use crate::breakdown_table::BreakdownTable;
use crate::ctx::{use_ctx, Ctx};
use crate::geometry::Bar;
use crate::stacked_bars::StackedBars;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::units::{format_sig, Bytes};

/// "✓ fits — 12 GB headroom" or "✗ does not fit — over by 63 GB", tracked.
pub fn verdict(ctx: Ctx) -> String {
    ctx.shown.with(|r| {
        let u = ctx.units();
        if r.fits() {
            format!("✓ {} — {} {}", ctx.t("fits"), u.format(r.headroom()), ctx.t("headroom"))
        } else {
            format!("✗ {} — {} {}", ctx.t("does-not-fit"), ctx.t("over-by"), u.format(Bytes(-r.headroom().get())))
        }
    })
}

#[component]
pub fn MemoryPanel() -> impl IntoView {
    let ctx = use_ctx();
    let units = Signal::derive(move || ctx.units());
    let bars = Signal::derive(move || {
        ctx.shown.with(|r| {
            let m = &r.per_gpu;
            let serving = r.inference_per_gpu().get();
            let weights = serving / tmath::memory::INFERENCE_OVERHEAD;
            let mp = r.config.layout.model_parallel();
            let inference_label = if mp > 1 {
                format!("{} ÷ t·p = {mp} ({})", ctx.t("inference"), r.config.inference_dtype)
            } else {
                format!("{} ({})", ctx.t("inference"), r.config.inference_dtype)
            };
            vec![
                Bar {
                    label: ctx.t("training").to_string(),
                    segments: m.parts().iter().map(|(_, b)| b.get()).collect(),
                    current: true,
                },
                Bar {
                    label: inference_label,
                    segments: vec![weights, 0.0, 0.0, 0.0, 0.0, serving - weights],
                    current: false,
                },
            ]
        })
    });
    let capacity = Signal::derive(move || ctx.shown.with(|r| r.config.gpu_mem_bytes));
    let capacity_label = Signal::derive(move || {
        ctx.shown.with(|r| {
            let gib = r.config.gpu_mem_bytes / Bytes::GIB;
            format!("{} {} = {} GiB", ctx.t("capacity"), units.get().format(r.gpu_mem()), format_sig(gib))
        })
    });
    let fits = move || ctx.shown.with(|r| r.fits());
    let summary = Signal::derive(move || format!("{}: {}", ctx.t("section-memory"), verdict(ctx)));
    view! {
        <section class="panel memory" data-view="memory" aria-labelledby="h-memory">
            <h2 id="h-memory"><Tr key="section-memory" /></h2>
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
                capacity_label=capacity_label
                units=units
                label=summary
                testid="memory-chart"
            />
            <BreakdownTable />
        </section>
    }
}
