//! Every pipeline stage side by side (p > 1): each stage's memory per GPU,
//! the heaviest one the verdict's. Frameworks log one rank, often the last
//! stage's; this is where it sits beside the others.

use super::memory::{capacity_label, legend_of, segments};
use crate::bind::text;
use crate::charts::geometry::Bar;
use crate::charts::stacked_bars::StackedBars;
use crate::charts::svg::{ChartSize, FontSize};
use crate::ctx::use_ctx;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::memory::{MemoryBreakdown, Stage};

#[component]
pub fn StageChart() -> impl IntoView {
    let ctx = use_ctx();
    let units = Signal::derive(move || ctx.units());
    // It follows the settled result: p breakdowns wait until input pauses.
    let base = Memo::new(move |_| ctx.settled.get().unwrap_or_else(|| ctx.shown.get()));
    let stages = Memo::new(move |_| base.with(|r| if r.config.layout.pp > 1 { r.stages() } else { Vec::new() }));
    let peak = Memo::new(move |_| base.with(|r| r.stage.index));
    let bars = Signal::derive(move || {
        let peak = peak.get();
        // A layout's chunks may differ: every stage then reads as its layers × micro-batches' worth.
        let laid_out = base.with(|r| r.config.pp_layout.is_some());
        stages.with(|st: &Vec<(Stage, MemoryBreakdown)>| {
            st.iter()
                .map(|(s, m)| Bar {
                    label: (s.index + 1).to_string(),
                    // Layers × micro-batches in flight; E the input embedding, L the output layer and loss,
                    // M the MTP modules. Interleaved: forwards in flight × the layers of one virtual
                    // stage; a layout's unequal chunks: the rank's layers × micro-batches' worth.
                    sub: format!(
                        "{}{}{}{}",
                        if s.first { "E " } else { "" },
                        if !laid_out && s.layer_forwards == s.layers / s.chunks * s.in_flight {
                            format!("{}×{}", s.layers / s.chunks, s.in_flight)
                        } else {
                            format!("{}×{:.1}", s.layers, s.layer_forwards as f64 / s.layers.max(1) as f64)
                        },
                        if s.mtp > 0 { " M" } else { "" },
                        if s.last { " L" } else { "" }
                    ),
                    segments: segments(m),
                    current: s.index == peak,
                })
                .collect()
        })
    });
    let capacity = Signal::derive(move || base.with(|r| r.config.system.gpu_mem_bytes));
    let summary = Signal::derive(move || {
        let u = units.get();
        stages.with(|st| {
            st.iter()
                .map(|(s, m)| format!("{} {}: {}", ctx.t("stage"), s.index + 1, u.format(m.total())))
                .collect::<Vec<_>>()
                .join(", ")
        })
    });
    let caption = move || {
        base.with(|r| {
            let p = r.config.layout.pp;
            let peak = r.stage.index + 1;
            crate::i18n::stages_caption(ctx.lang.get(), p, peak)
        })
    };
    // Each stage's total, exact, for the browser tests (the chart's label says them in words).
    let totals =
        move || stages.with(|st| st.iter().map(|(_, m)| m.total().get().to_string()).collect::<Vec<_>>().join(","));
    view! {
        <figure class="stage-chart" data-testid="stages" data-bytes=text(totals) hidden=move || stages.with(|s| s.is_empty())>
            <figcaption>{text(caption)}</figcaption>
            <StackedBars
                bars=bars
                capacity=capacity
                capacity_label=capacity_label(ctx, base)
                units=units
                label=summary
                testid="stage-chart"
                size=ChartSize::Fixed(240.0)
                font=FontSize::Px(11.0)
                legend=legend_of(ctx, bars)
            />
            <p class="detail"><Tr key="stages-key" /></p>
        </figure>
    }
}
