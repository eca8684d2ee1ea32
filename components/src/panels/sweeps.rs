//! Sweep charts, the current configuration marked: memory per GPU against
//! model size (the Megatron paper's figure), against sequence length (the s²
//! attention term), against N for each ZeRO stage; training days against N.

use super::Mode;
use crate::charts::canvas::ChartSize;
use crate::charts::line_chart::{LineChart, LineScene, Rule, Series, YAxis};
use crate::ctx::use_ctx;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::sweep;

#[component]
pub fn SweepsView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    let font = mode.font();
    let size = ChartSize::Fixed(if mode == Mode::Slide { 300.0 } else { 220.0 });
    let capacity_rule = move |bytes: f64| Rule {
        y: bytes,
        label: format!("{} {}", ctx.t("capacity"), ctx.units().format(tmath::Bytes(bytes))),
    };
    // Sweeps follow the settled result: dozens of evaluations and four redraws wait until input pauses.
    let settled = Memo::new(move |_| ctx.settled.get().unwrap_or_else(|| ctx.shown.get_untracked()));
    let capacity = move || settled.with(|r| r.config.gpu_mem_bytes);
    let by_params = Signal::derive(move || {
        let points = settled.with(|r| sweep::memory_vs_params(&r.config, &sweep::log_points(1e8, 2e12, 40)));
        LineScene {
            series: vec![Series { label: ctx.t("total").into(), points, color: 0 }],
            y: YAxis::Bytes(ctx.units()),
            rules: vec![capacity_rule(capacity())],
            marker: Some(settled.with(|r| r.config.params.get())),
            points: Vec::new(),
            x_name: ctx.t("params-axis").into(),
            y_name: String::new(),
            lang: ctx.lang.get(),
        }
    });
    let by_seq = Signal::derive(move || {
        let lens: Vec<u64> = (7..=17).map(|k| 1u64 << k).collect();
        let points = settled.with(|r| sweep::memory_vs_seq_len(&r.config, &lens));
        LineScene {
            series: vec![Series { label: ctx.t("total").into(), points, color: 3 }],
            y: YAxis::Bytes(ctx.units()),
            rules: vec![capacity_rule(capacity())],
            marker: Some(settled.with(|r| r.config.seq_len as f64)),
            points: Vec::new(),
            x_name: ctx.t("seq-axis").into(),
            y_name: String::new(),
            lang: ctx.lang.get(),
        }
    });
    let gpus = Memo::new(move |_| settled.with(|r| sweep::gpu_counts(&r.config, 16384)));
    let by_gpus = Signal::derive(move || {
        let series = settled.with(|r| sweep::memory_vs_gpus(&r.config, &gpus.get()));
        LineScene {
            series: series
                .into_iter()
                .enumerate()
                .map(|(z, points)| Series { label: format!("ZeRO-{z}"), points, color: z })
                .collect(),
            y: YAxis::Bytes(ctx.units()),
            rules: vec![capacity_rule(capacity())],
            marker: Some(settled.with(|r| r.config.layout.gpus() as f64)),
            points: Vec::new(),
            x_name: ctx.t("gpus-axis").into(),
            y_name: String::new(),
            lang: ctx.lang.get(),
        }
    });
    let days = Signal::derive(move || LineScene {
        series: vec![Series {
            label: ctx.t("days").into(),
            points: settled.with(|r| sweep::days_vs_gpus(&r.config, &gpus.get())),
            color: 2,
        }],
        y: YAxis::Days,
        rules: Vec::new(),
        marker: Some(settled.with(|r| r.config.layout.gpus() as f64)),
        points: Vec::new(),
        x_name: ctx.t("gpus-axis").into(),
        y_name: String::new(),
        lang: ctx.lang.get(),
    });
    let label = move |key: &'static str| Signal::derive(move || ctx.t(key).to_string());
    view! {
            // On the full page they wait for the first pause (the first result paints
            // sooner); alone, they are the view and draw at once, so its height never changes.
            <Show when=move || mode != Mode::Page || ctx.settled.with(|s| s.is_some()) fallback=|| view! { <p class="detail">"…"</p> }>
            <div class="sweep-grid">
                <figure>
                    <figcaption><Tr key="sweep-params" /></figcaption>
                    <LineChart scene=by_params label=label("sweep-params") testid="sweep-params" size=size font=font />
                </figure>
                <figure>
                    <figcaption><Tr key="sweep-seq" /></figcaption>
                    <LineChart scene=by_seq label=label("sweep-seq") testid="sweep-seq" size=size font=font />
                </figure>
                <figure>
                    <figcaption><Tr key="sweep-gpus" /></figcaption>
                    <LineChart scene=by_gpus label=label("sweep-gpus") testid="sweep-gpus" size=size font=font />
                </figure>
                <figure>
                    <figcaption><Tr key="sweep-days" /></figcaption>
                    <LineChart scene=days label=label("sweep-days") testid="sweep-days" size=size font=font />
                </figure>
            </div>
            </Show>
    }
}
