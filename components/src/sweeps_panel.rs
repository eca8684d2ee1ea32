//! Sweep charts, the current configuration marked: memory per GPU against
//! model size (the Megatron paper's figure), against sequence length (the s²
//! attention term), against N for each ZeRO stage; training days against N.

use crate::ctx::use_ctx;
use crate::line_chart::{LineChart, LineScene, Series, YAxis};
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::sweep;

#[component]
pub fn SweepsPanel() -> impl IntoView {
    let ctx = use_ctx();
    // Sweeps follow the settled result: dozens of evaluations and four redraws wait until input pauses.
    let settled = Memo::new(move |_| ctx.settled.get().unwrap_or_else(|| ctx.shown.get_untracked()));
    let capacity = move || settled.with(|r| r.config.gpu_mem_bytes);
    let by_params = Signal::derive(move || {
        let points = settled.with(|r| sweep::memory_vs_params(&r.config, &sweep::log_points(1e8, 2e12, 40)));
        LineScene {
            series: vec![Series { label: ctx.t("total").into(), points, color: 0 }],
            y: YAxis::Bytes(ctx.units()),
            capacity: Some(capacity()),
            marker: Some(settled.with(|r| r.config.params.get())),
        }
    });
    let by_seq = Signal::derive(move || {
        let lens: Vec<u64> = (7..=17).map(|k| 1u64 << k).collect();
        let points = settled.with(|r| sweep::memory_vs_seq_len(&r.config, &lens));
        LineScene {
            series: vec![Series { label: ctx.t("total").into(), points, color: 3 }],
            y: YAxis::Bytes(ctx.units()),
            capacity: Some(capacity()),
            marker: Some(settled.with(|r| r.config.seq_len as f64)),
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
            capacity: Some(capacity()),
            marker: Some(settled.with(|r| r.config.layout.gpus() as f64)),
        }
    });
    let days = Signal::derive(move || LineScene {
        series: vec![Series {
            label: ctx.t("days").into(),
            points: settled.with(|r| sweep::days_vs_gpus(&r.config, &gpus.get())),
            color: 2,
        }],
        y: YAxis::Days,
        capacity: None,
        marker: Some(settled.with(|r| r.config.layout.gpus() as f64)),
    });
    let label = move |key: &'static str| Signal::derive(move || ctx.t(key).to_string());
    view! {
        <section class="panel sweeps" data-view="sweeps" aria-labelledby="h-sweeps">
            <h2 id="h-sweeps"><Tr key="section-sweeps" /></h2>
            <Show when=move || ctx.settled.with(|s| s.is_some()) fallback=|| view! { <p class="detail">"…"</p> }>
            <div class="sweep-grid">
                <figure>
                    <figcaption><Tr key="sweep-params" /></figcaption>
                    <LineChart scene=by_params label=label("sweep-params") testid="sweep-params" />
                </figure>
                <figure>
                    <figcaption><Tr key="sweep-seq" /></figcaption>
                    <LineChart scene=by_seq label=label("sweep-seq") testid="sweep-seq" />
                </figure>
                <figure>
                    <figcaption><Tr key="sweep-gpus" /></figcaption>
                    <LineChart scene=by_gpus label=label("sweep-gpus") testid="sweep-gpus" />
                </figure>
                <figure>
                    <figcaption><Tr key="sweep-days" /></figcaption>
                    <LineChart scene=days label=label("sweep-days") testid="sweep-days" />
                </figure>
            </div>
            </Show>
        </section>
    }
}
