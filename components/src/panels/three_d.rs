//! 3D parallelism (the article's "3D Parallelism"): the same N GPUs split as
//! data parallelism alone, tensor × data, pipeline × data, and this run's
//! t × p × d, each bar one GPU's memory; how far each state is divided.

use super::memory::{capacity_label, legend_of, segments};
use super::Mode;
use crate::bind::text;
use crate::charts::geometry::Bar;
use crate::charts::stacked_bars::StackedBars;
use crate::ctx::use_ctx;
use leptos::prelude::*;
use tmath::config::Layout;

#[component]
pub fn ThreeDView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    let r = ctx.shown;
    let units = Signal::derive(move || ctx.units());
    let bars = Signal::derive(move || {
        r.with(|r| {
            let Layout { tp, pp, dp, .. } = r.config.layout;
            let n = tp * pp * dp;
            // Each axis alone with data parallelism, on the same N; an axis of 1 adds no bar.
            let first = if n == 1 { "axis-none" } else { "axis-d" };
            let mut layouts = vec![(first, Layout::new(1, 1, n))];
            if tp > 1 && pp > 1 {
                layouts.push(("axis-td", Layout::new(tp, 1, n / tp)));
                layouts.push(("axis-pd", Layout::new(1, pp, n / pp)));
            }
            if tp > 1 || pp > 1 {
                layouts.push(("axis-tpd", r.config.layout));
            }
            layouts
                .into_iter()
                .map(|(key, layout)| {
                    let alt = r.with(|c| c.layout = layout);
                    Bar {
                        label: ctx.t(key).to_string(),
                        sub: format!("{}·{}·{}", layout.tp, layout.pp, layout.dp),
                        segments: segments(&alt),
                        current: layout == r.config.layout,
                    }
                })
                .collect()
        })
    });
    let capacity = Signal::derive(move || r.with(|r| r.config.gpu_mem_bytes));
    let layout_line = move || {
        r.with(|r| {
            let Layout { tp, pp, dp, .. } = r.config.layout;
            format!("N = t·p·d\u{a0}=\u{a0}{tp}·{pp}·{dp} = {}", tp * pp * dp)
        })
    };
    let divided = move || {
        r.with(|r| {
            let d = &r.divisors;
            // Whole numbers of GPUs, but for megatron's first stage (embedding included) or experts ÷ ep.
            let f = crate::i18n::grouped_sig;
            format!(
                "{} ÷\u{a0}{} · {} ÷\u{a0}{} · {} ÷\u{a0}{}",
                ctx.t("part-model"),
                f(d.model),
                ctx.t("part-gradients"),
                f(d.gradients),
                ctx.t("part-optimizer"),
                f(d.optimizer)
            )
        })
    };
    let summary = Signal::derive(move || format!("{}; {}", layout_line(), divided()));
    view! {
        <p class="result-line" data-testid="layout-3d" data-gpus=text(move || r.with(|r| r.config.layout.gpus()).to_string())>
            <strong>{text(layout_line)}</strong>
            <br />
            <span class="detail">{text(divided)}</span>
        </p>
        <StackedBars
            bars=bars
            capacity=capacity
            capacity_label=capacity_label(ctx, r)
            units=units
            label=summary
            testid="three-d-chart"
            size=mode.chart(260.0)
            font=mode.font()
            legend=legend_of(ctx, bars)
        />
    }
}
