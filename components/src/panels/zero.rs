//! The configuration under ZeRO 0, 1, 2 and 3 side by side: the ZeRO paper's figure, live.

use super::memory::{capacity_label, legend_of, segments};
use super::Mode;
use crate::bind::text;
use crate::charts::geometry::Bar;
use crate::charts::stacked_bars::StackedBars;
use crate::ctx::use_ctx;
use leptos::prelude::*;
use tmath::config::ZeroStage;

#[component]
pub fn ZeroView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    let units = Signal::derive(move || ctx.units());
    // On the full page it follows the settled result: while a slider moves,
    // only the main bar repaints each frame. Alone, it is the main chart.
    let base = Memo::new(move |_| match mode {
        Mode::Page => ctx.settled.get().unwrap_or_else(|| ctx.shown.get()),
        _ => ctx.shown.get(),
    });
    let reports = Memo::new(move |_| base.with(|r| ZeroStage::ALL.map(|z| r.with_zero(z))));
    let bars = Signal::derive(move || {
        let current = base.with(|r| r.config.zero);
        reports.with(|rs| {
            rs.iter()
                .map(|r| Bar {
                    label: format!("ZeRO-{}", r.config.zero.get()),
                    segments: segments(r),
                    current: r.config.zero == current,
                    ..Bar::default()
                })
                .collect()
        })
    });
    let capacity = Signal::derive(move || base.with(|r| r.config.gpu_mem_bytes));
    let summary = Signal::derive(move || {
        let u = units.get();
        reports.with(|rs| {
            rs.iter()
                .map(|r| format!("ZeRO-{}: {}", r.config.zero.get(), u.format(r.per_gpu.total())))
                .collect::<Vec<_>>()
                .join(", ")
        })
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
        <ul class="zero-list">
            {(0..4)
                .map(|z| {
                    let total = move || reports.with(|rs| rs[z].per_gpu.total());
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
