//! The configuration under ZeRO 0, 1, 2 and 3 side by side: the ZeRO paper's figure, live.

use crate::bind::text;
use crate::ctx::use_ctx;
use crate::geometry::Bar;
use crate::stacked_bars::StackedBars;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::config::ZeroStage;

#[component]
pub fn ZeroPanel() -> impl IntoView {
    let ctx = use_ctx();
    let units = Signal::derive(move || ctx.units());
    // Follows the settled result: while a slider moves, only the main bar repaints each frame.
    let base = Memo::new(move |_| ctx.settled.get().unwrap_or_else(|| ctx.shown.get()));
    let reports = Memo::new(move |_| base.with(|r| ZeroStage::ALL.map(|z| r.with_zero(z))));
    let bars = Signal::derive(move || {
        let current = base.with(|r| r.config.zero);
        reports.with(|rs| {
            rs.iter()
                .map(|r| Bar {
                    label: format!("ZeRO-{}", r.config.zero.get()),
                    segments: r.per_gpu.parts().iter().map(|(_, b)| b.get()).collect(),
                    current: r.config.zero == current,
                })
                .collect()
        })
    });
    let capacity = Signal::derive(move || base.with(|r| r.config.gpu_mem_bytes));
    let capacity_label = Signal::derive(move || base.with(|r| units.get().format(r.gpu_mem())));
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
        <section class="panel zero" data-view="zero" aria-labelledby="h-zero">
            <h2 id="h-zero"><Tr key="section-zero" /></h2>
            <StackedBars
                bars=bars
                capacity=capacity
                capacity_label=capacity_label
                units=units
                label=summary
                testid="zero-chart"
                height=240.0
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
        </section>
    }
}
