//! Sweep charts, the current configuration marked: memory per GPU against
//! model size (the Megatron paper's figure), against sequence length (the s²
//! attention term), against N for each ZeRO stage; training days against N.

use super::Mode;
use crate::charts::line_chart::{LineChart, LineScene, Rule, Series, YAxis};
use crate::charts::svg::ChartSize;
use crate::ctx::use_ctx;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::sweep;

/// The four sweeps of one result, and where the result sits on each.
#[derive(Clone, PartialEq)]
struct Points {
    params: Vec<(f64, f64)>,
    seq: Vec<(f64, f64)>,
    by_zero: [Vec<(f64, f64)>; 4],
    days: Vec<(f64, f64)>,
    capacity: f64,
    /// P, s and N of the result.
    at: (f64, f64, f64),
}

#[component]
pub fn SweepsView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    let font = mode.font();
    // A figure's four charts share its fixed height, one above the other.
    let size = match mode {
        Mode::Page => ChartSize::Fixed(220.0),
        Mode::Figure => ChartSize::Fill,
        Mode::Slide => ChartSize::Fixed(300.0),
    };
    let capacity_rule = move |bytes: f64| Rule {
        y: bytes,
        label: format!("{} {}", ctx.t("capacity"), ctx.units().format(tmath::Bytes(bytes))),
    };
    // Sweeps follow the settled result: dozens of evaluations and four redraws wait until input pauses.
    // How many times the sweeps were derived (see the planner's count).
    let runs = StoredValue::new(0u32);
    let settled = Memo::new(move |_| {
        runs.update_value(|n| *n += 1);
        ctx.settled.get().unwrap_or_else(|| ctx.shown.get_untracked())
    });
    // The sweeps' points, derived once per settled result; the scenes below only
    // add the unit and the language, so switching them evaluates nothing.
    let points = Memo::new(move |_| {
        settled.with(|r| {
            let c = &r.config;
            let lens: Vec<u64> = (7..=17).map(|k| 1u64 << k).collect();
            let gpus = sweep::gpu_counts(c, 16384);
            Points {
                params: sweep::memory_vs_params(c, &sweep::log_points(1e8, 2e12, 40)),
                seq: sweep::memory_vs_seq_len(c, &lens),
                by_zero: sweep::memory_vs_gpus(c, &gpus),
                days: sweep::days_vs_gpus(c, &gpus),
                capacity: c.system.gpu_mem_bytes,
                at: (c.params.get(), c.seq_len as f64, c.layout.gpus() as f64),
            }
        })
    });
    let scene = move |series: Vec<Series>, y: YAxis, capacity: bool, marker: f64, x_name: &'static str| LineScene {
        series,
        y,
        marks: Vec::new(),
        rules: if capacity { vec![capacity_rule(points.with(|p| p.capacity))] } else { Vec::new() },
        marker: Some(marker),
        points: Vec::new(),
        x_name: ctx.t(x_name).into(),
        y_name: String::new(),
        lang: ctx.lang.get(),
    };
    let bytes = move || YAxis::Bytes(ctx.units());
    let by_params = Signal::derive(move || {
        let (line, at) = points.with(|p| (p.params.clone(), p.at.0));
        scene(vec![Series::new(ctx.t("total").into(), line, 0)], bytes(), true, at, "params-axis")
    });
    let by_seq = Signal::derive(move || {
        let (line, at) = points.with(|p| (p.seq.clone(), p.at.1));
        scene(vec![Series::new(ctx.t("total").into(), line, 3)], bytes(), true, at, "seq-axis")
    });
    let by_gpus = Signal::derive(move || {
        let (lines, at) = points.with(|p| (p.by_zero.clone(), p.at.2));
        let series =
            lines.into_iter().enumerate().map(|(z, points)| Series::new(format!("ZeRO-{z}"), points, z)).collect();
        scene(series, bytes(), true, at, "gpus-axis")
    });
    let days = Signal::derive(move || {
        let (line, at) = points.with(|p| (p.days.clone(), p.at.2));
        scene(vec![Series::new(ctx.t("days").into(), line, 2)], YAxis::Days, false, at, "gpus-axis")
    });
    let label = move |key: &'static str| Signal::derive(move || ctx.t(key).to_string());
    view! {
            // On the full page they wait for the first pause (the first result paints
            // sooner); alone, they are the view and draw at once, so its height never changes.
            <Show when=move || mode != Mode::Page || ctx.settled.with(|s| s.is_some()) fallback=|| view! { <p class="detail">"…"</p> }>
            <span hidden data-testid="sweeps-runs" data-runs=move || {
                ctx.settled.track();
                settled.track();
                runs.get_value().to_string()
            }></span>
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
