//! The configuration under ZeRO 0, 1, 2 and 3 side by side: the ZeRO paper's
//! figure, live. Like the paper's Figure 1 it shows the model states (weights,
//! gradients, optimizer states); what a GPU holds beyond them (activations,
//! ZeRO-3's live parameters, the reserve) is a switch away, off at first.

use super::memory::{capacity_label, legend_of};
use super::Mode;
use crate::bind::text;
use crate::charts::geometry::Bar;
use crate::charts::stacked_bars::StackedBars;
use crate::ctx::use_ctx;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::config::ZeroStage;
use tmath::memory::Part;
use tmath::Report;

/// The segments of one ZeRO bar: the model states alone, or all that the GPU holds.
fn zero_segments(r: &Report, everything: bool) -> Vec<f64> {
    r.per_gpu
        .parts()
        .iter()
        .map(|&(part, b)| {
            let state = matches!(part, Part::Model | Part::Gradients | Part::Optimizer);
            if state || everything {
                b.get()
            } else {
                0.0
            }
        })
        .collect()
}

#[component]
pub fn ZeroView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    let units = Signal::derive(move || ctx.units());
    // The paper's figure first: model states only.
    let everything = RwSignal::new(false);
    // On the full page it follows the settled result: while a slider moves,
    // only the main bar repaints each frame. Alone, it is the main chart.
    let base = Memo::new(move |_| match mode {
        Mode::Page => ctx.settled.get().unwrap_or_else(|| ctx.shown.get()),
        _ => ctx.shown.get(),
    });
    let reports = Memo::new(move |_| base.with(|r| ZeroStage::ALL.map(|z| r.with_zero(z))));
    // What each bar adds up to: its model states, or the GPU's whole total.
    let totals = Memo::new(move |_| {
        let all = everything.get();
        reports.with(|rs| rs.each_ref().map(|r| if all { r.per_gpu.total() } else { r.per_gpu.model_states() }))
    });
    let bars = Signal::derive(move || {
        let current = base.with(|r| r.config.zero);
        let all = everything.get();
        reports.with(|rs| {
            rs.iter()
                .map(|r| Bar {
                    label: format!("ZeRO-{}", r.config.zero.get()),
                    // With everything on the bar, it carries the verdict.
                    sub: if all { super::three_d::verdict_mark(ctx, r.fits()) } else { String::new() },
                    segments: zero_segments(r, all),
                    current: r.config.zero == current,
                })
                .collect()
        })
    });
    let capacity = Signal::derive(move || base.with(|r| r.config.system.gpu_mem_bytes));
    let summary = Signal::derive(move || {
        let u = units.get();
        let what = ctx.t(if everything.get() { "total" } else { "model-states" });
        let list = totals.with(|t| {
            t.iter().enumerate().map(|(z, b)| format!("ZeRO-{z}: {}", u.format(*b))).collect::<Vec<_>>().join(", ")
        });
        format!("{what}: {list}")
    });
    view! {
        <StackedBars
            bars=bars
            capacity=capacity
            capacity_label=capacity_label(ctx, base)
            units=units
            label=summary
            testid="zero-chart"
            size=mode.chart(240.0)
            font=mode.font()
            legend=legend_of(ctx, bars)
        />
        <label class="zero-everything">
            <input
                type="checkbox"
                data-testid="zero-everything"
                prop:checked=everything
                on:change=move |ev| everything.set(event_target_checked(&ev))
            />
            " "
            <Tr key="zero-everything" />
        </label>
        <ul class="zero-list">
            {(0..4)
                .map(|z| {
                    let total = move || totals.with(|t| t[z]);
                    view! {
                        <li data-testid=format!("zero-{z}") data-bytes=text(move || total().get().to_string())>
                            {text(move || format!("ZeRO-{z}: {}", units.get().format(total())))}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}
