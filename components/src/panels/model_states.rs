//! Model states (the article's "Model Parameters", "Optimizer States" and
//! "Gradients"): bytes per parameter of weights, gradients and optimizer for
//! each optimizer at the chosen precision, for the whole model before any sharding.

use super::memory::{capacity_label, legend_of};
use super::Mode;
use crate::bind::text;
use crate::charts::geometry::Bar;
use crate::charts::stacked_bars::StackedBars;
use crate::ctx::use_ctx;
use crate::i18n;
use leptos::prelude::*;
use tmath::config::Optimizer;
use tmath::memory::state_bytes_per_param;
use tmath::Report;

/// Bytes per parameter of the three states, and their sum.
fn per_param(r: &Report) -> ([f64; 3], f64) {
    let b = state_bytes_per_param(&r.config).map(|b| b.0);
    (b, b.iter().sum())
}

/// "Muon (one momentum, …)" → "Muon".
fn short_name(name: &str) -> String {
    name.split(" (").next().unwrap_or(name).to_string()
}

#[component]
pub fn ModelStatesView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    let r = ctx.shown;
    let units = Signal::derive(move || ctx.units());
    let bars = Signal::derive(move || {
        let lang = ctx.lang.get();
        r.with(|r| {
            Optimizer::ALL
                .iter()
                .map(|&optimizer| {
                    let alt = r.with(|c| c.optimizer = optimizer);
                    let (b, total) = per_param(&alt);
                    let p = alt.config.params.get();
                    Bar {
                        // The name without its gloss in parentheses (the select and the table give it whole).
                        label: short_name(i18n::choice(lang, tmath::keys::K::Optimizer, optimizer.as_str())),
                        sub: i18n::bytes_per_param_short(lang, total),
                        segments: b.iter().map(|x| x * p).collect(),
                        current: optimizer == r.config.optimizer,
                    }
                })
                .collect()
        })
    });
    let capacity = Signal::derive(move || r.with(|r| r.config.system.gpu_mem_bytes));
    let sum = move || {
        r.with(|r| {
            let (b, total) = per_param(r);
            let p = r.config.params.get();
            // (2 + 2 + 12) B/param × P = bytes: each "=" holds.
            format!(
                "({} + {} + {}) {} × {} = {}",
                b[0],
                b[1],
                b[2],
                ctx.t("bytes-per-param-unit"),
                i18n::count(ctx.lang.get(), p),
                ctx.units().format(tmath::Bytes(total * p))
            )
        })
    };
    let summary = Signal::derive(sum);
    view! {
        <p class="result-line" data-testid="model-states-total" data-bytes=text(move || {
            r.with(|r| (per_param(r).1 * r.config.params.get()).to_string())
        })>
            <strong>{text(sum)}</strong>
        </p>
        <StackedBars
            bars=bars
            capacity=capacity
            capacity_label=capacity_label(ctx, r)
            units=units
            label=summary
            testid="model-states-chart"
            size=mode.chart(260.0)
            font=mode.font()
            legend=legend_of(ctx, bars)
        />
        // The lesson's 12-vs-16 note; under fp32 gradients (megatron) the sum is 18.
        {(mode == Mode::Page).then(|| view! {
            <p class="detail">
                {move || ctx.t(if r.with(|r| per_param(r).0[1] > 2.0) { "note-fp32-gradients" } else { "note-master-copy" })}
            </p>
        })}
    }
}
