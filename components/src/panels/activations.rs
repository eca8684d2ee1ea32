//! Activations (the article's "Activations and Batch Size"): the same run
//! without, with selective and with full recomputation, each bar with the
//! compute it costs: memory traded for FLOPs.

use super::memory::{capacity_label, legend_of};
use super::Mode;
use crate::bind::text;
use crate::charts::geometry::Bar;
use crate::charts::stacked_bars::StackedBars;
use crate::ctx::use_ctx;
use leptos::prelude::*;
use tmath::config::Recompute;
use tmath::explain::{explain, Item};
use tmath::memory::Part;

/// The translation key of a recomputation bar.
fn bar_key(r: Recompute) -> &'static str {
    match r {
        Recompute::None => "recompute-none",
        Recompute::Selective => "recompute-selective",
        Recompute::Full => "recompute-full",
    }
}

#[component]
pub fn ActivationsView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    let r = ctx.shown;
    let units = Signal::derive(move || ctx.units());
    let bars = Signal::derive(move || {
        r.with(|r| {
            let none = r.with(|c| c.recompute = Recompute::None).hardware_flops().get();
            Recompute::ALL
                .iter()
                .map(|&mode| {
                    let alt = r.with(|c| c.recompute = mode);
                    let extra = 100.0 * (alt.hardware_flops().get() / none - 1.0);
                    Bar {
                        label: ctx.t(bar_key(mode)).to_string(),
                        sub: format!("{} +{}%", ctx.t("compute-short"), tmath::units::format_sig(extra)),
                        segments: super::memory::only(&[(
                            Part::Activations as usize,
                            alt.per_gpu[Part::Activations].get(),
                        )]),
                        current: mode == r.config.recompute,
                    }
                })
                .collect()
        })
    });
    let capacity = Signal::derive(move || r.with(|r| r.config.system.gpu_mem_bytes));
    let formula = move || r.with(|r| explain(r, Item::Part(Part::Activations), ctx.units()));
    let summary = Signal::derive(move || formula().substituted);
    view! {
        <p class="result-line" data-testid="activations-total" data-bytes=text(move || r.with(|r| r.per_gpu[Part::Activations].get()).to_string())>
            <code class="formula">{text(move || formula().formula)}</code>
            <br />
            <strong>{text(move || format!("= {}", formula().substituted))}</strong>
        </p>
        <StackedBars
            bars=bars
            capacity=capacity
            capacity_label=capacity_label(ctx, r)
            units=units
            label=summary
            testid="activations-chart"
            size=mode.chart(240.0)
            font=mode.font()
            legend=legend_of(ctx, bars)
        />
    }
}
