//! Serving (Kipply's "Transformer Inference Arithmetic", live): one replica's
//! headline figures (time to the first token, time per output token, tokens
//! per second per user and per GPU, the users its KV pool holds, dollars per
//! million output tokens), one GPU's memory as the engine budgets it, and time
//! per output token against the batch on log axes with the roofline's two
//! sides and the crossover. Drawn as SVG by the view: every number is the
//! core's (`tmath::serving`, `tmath::sweep::serving_vs_batch`).

use super::Mode;
use crate::charts::geometry::{log_pos, log_ticks, tick_number};
use crate::charts::theme::{css_color, KV_CACHE};
use crate::ctx::use_ctx;
use crate::i18n::grouped_sig;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::memory::Part;
use tmath::sweep::serving_vs_batch;

/// The chart's box in SVG units (it scales to its container's width).
const W: f64 = 600.0;
const H: f64 = 300.0;
const LEFT: f64 = 84.0;
const RIGHT: f64 = 590.0;
const TOP: f64 = 12.0;
const BOTTOM: f64 = 250.0;

fn ms(x: f64) -> String {
    format!("{}\u{a0}ms", grouped_sig(x * 1e3))
}

#[component]
pub fn ServingView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    let r = ctx.shown;
    let s = Memo::new(move |_| r.with(|r| r.serving.clone()));
    let points = Memo::new(move |_| r.with(|r| serving_vs_batch(&r.config)));
    let batch = Memo::new(move |_| r.with(|r| r.config.serving.batch as f64));
    let figure = move |key: &'static str, id: &'static str, value: Signal<String>| {
        view! {
            <div class="serving-figure">
                <dt><Tr key=key /></dt>
                <dd data-testid=id>{value}</dd>
            </div>
        }
    };
    let users =
        Signal::derive(move || s.with(|s| tmath::units::group_thousands(&format!("{:.0}", s.max_concurrency.floor()))));
    let headline = view! {
        <dl class="serving-figures" data-testid="serving-figures">
            {figure("serving-ttft", "serving-ttft", Signal::derive(move || s.with(|s| ms(s.ttft_seconds))))}
            {figure("serving-tpot", "serving-tpot", Signal::derive(move || s.with(|s| ms(s.tpot_seconds))))}
            {figure("serving-user-tps", "serving-user-tps", Signal::derive(move || s.with(|s| grouped_sig(s.tokens_per_second_per_user))))}
            {figure("serving-gpu-tps", "serving-gpu-tps", Signal::derive(move || s.with(|s| grouped_sig(s.output_tokens_per_second_per_gpu))))}
            {figure("serving-users", "serving-users", users)}
            {figure("serving-usd", "serving-usd", Signal::derive(move || s.with(|s| format!("${}", grouped_sig(s.usd_per_million_output_tokens)))))}
        </dl>
    };
    let verdict = move || {
        let lang = ctx.lang.get();
        s.with(|s| r.with(|r| crate::i18n::serving_verdict(lang, &r.config, s)))
    };
    // One GPU as the engine budgets it: weights, the profiled reserve, the KV pool, what is left.
    let segments = Memo::new(move |_| {
        r.with(|r| {
            let s = &r.serving;
            let total = r.config.system.gpu_mem_bytes;
            let weights = s.weights_bytes.min(total);
            let reserve = s.engine_reserve_bytes.min(total - weights);
            vec![
                ("part-model", Part::Model as usize, weights),
                ("serving-reserve", Part::Activations as usize, reserve),
                ("serving-pool", KV_CACHE, s.kv_pool_bytes),
                // Outside the engine's share (1 − mem-util, and what the driver keeps from CUDA).
                ("serving-left", usize::MAX, (total - weights - reserve - s.kv_pool_bytes).max(0.0)),
            ]
        })
    });
    let bar = move || {
        let total: f64 = segments.with(|v| v.iter().map(|x| x.2).sum());
        let mut x = 0.0;
        segments.with(|v| {
            v.iter()
                .filter(|seg| seg.2 > 0.0)
                .map(|&(key, color, bytes)| {
                    let w = if total > 0.0 { 1000.0 * bytes / total } else { 0.0 };
                    let at = x;
                    x += w;
                    let fill =
                        if color == usize::MAX { "rgba(128,128,128,0.25)".to_string() } else { css_color(color) };
                    let title = format!("{}: {}", ctx.t(key), ctx.units().format(tmath::Bytes(bytes)));
                    view! { <rect x=at y="0" width=w height="36" fill=fill><title>{title}</title></rect> }
                })
                .collect_view()
        })
    };
    let legend = move || {
        segments.with(|v| {
            v.iter()
                .filter(|seg| seg.2 > 0.0)
                .map(|&(key, color, bytes)| {
                    let fill =
                        if color == usize::MAX { "rgba(128,128,128,0.25)".to_string() } else { css_color(color) };
                    view! {
                        <li>
                            <span class="swatch" style=format!("background:{fill}") aria-hidden="true"></span>
                            {ctx.t(key)}" "{ctx.units().format(tmath::Bytes(bytes))}
                        </li>
                    }
                })
                .collect_view()
        })
    };
    // Time per output token against the batch, log–log.
    let range = Memo::new(move |_| {
        points.with(|p| {
            let values = p.iter().flat_map(|x| [x.memory, x.compute, x.tpot]).filter(|v| *v > 0.0);
            let lo = values.clone().fold(f64::INFINITY, f64::min);
            let hi = values.fold(0.0, f64::max);
            let (b0, b1) = (p.first().map_or(1.0, |x| x.batch), p.last().map_or(2.0, |x| x.batch));
            (lo / 1.3, hi * 1.3, b0, b1)
        })
    });
    let path = move |pick: fn(&tmath::sweep::BatchPoint) -> f64| {
        let (lo, hi, b0, b1) = range.get();
        points.with(|p| {
            p.iter()
                .enumerate()
                .map(|(i, x)| {
                    let (px, py) = (log_pos(x.batch, b0, b1, LEFT, RIGHT), log_pos(pick(x), lo, hi, BOTTOM, TOP));
                    format!("{}{px:.1},{py:.1}", if i == 0 { "M" } else { "L" })
                })
                .collect::<String>()
        })
    };
    let grid = move || {
        let (lo, hi, b0, b1) = range.get();
        let ys = log_ticks(lo, hi, 5).into_iter().map(move |t| {
            let y = log_pos(t, lo, hi, BOTTOM, TOP);
            view! {
                <line x1=LEFT x2=RIGHT y1=y y2=y class="grid" />
                <text x=LEFT - 6.0 y=y class="tick" text-anchor="end" dominant-baseline="middle">{format!("{} ms", tick_number(t * 1e3))}</text>
            }
        });
        let xs = log_ticks(b0, b1, 7).into_iter().map(move |t| {
            let x = log_pos(t, b0, b1, LEFT, RIGHT);
            view! {
                <line x1=x x2=x y1=TOP y2=BOTTOM class="grid" />
                <text x=x y=BOTTOM + 20.0 class="tick" text-anchor="middle">{tick_number(t)}</text>
            }
        });
        view! { {ys.collect_view()} {xs.collect_view()} }
    };
    let crossover = move || {
        let (_, _, b0, b1) = range.get();
        let b = s.with(|s| s.crossover_batch);
        (b.is_finite() && b >= b0 && b <= b1).then(|| {
            let x = log_pos(b, b0, b1, LEFT, RIGHT);
            view! {
                <line x1=x x2=x y1=TOP y2=BOTTOM class="crossover" />
                <text x=x + 4.0 y=TOP + 14.0 class="tick">{move || format!("{} {}", ctx.t("serving-crossover"), grouped_sig(b))}</text>
            }
        })
    };
    let current = move || {
        let (lo, hi, b0, b1) = range.get();
        let (b, t) = (batch.get(), s.with(|s| s.tpot_seconds));
        let (x, y) = (log_pos(b, b0, b1, LEFT, RIGHT), log_pos(t, lo, hi, BOTTOM, TOP));
        view! { <circle cx=x cy=y r="5" class="current"><title>{format!("{}: {}", b, ms(t))}</title></circle> }
    };
    let label = move || s.with(|s| crate::i18n::serving_chart_label(ctx.lang.get(), s.tpot_seconds, s.crossover_batch));
    let big = mode != Mode::Page;
    view! {
        <div class="serving" class:big=big data-testid="serving-view">
            {headline}
            <p class="detail" data-testid="serving-verdict">{verdict}</p>
            <svg class="serving-bar" viewBox="0 0 1000 36" preserveAspectRatio="none" role="img" aria-label=move || ctx.t("serving-bar")>
                {bar}
            </svg>
            <ul class="chart-legend">{legend}</ul>
            <svg class="serving-chart" viewBox=format!("0 0 {W} {H}") role="img" aria-label=label data-testid="serving-chart">
                {grid}
                <line x1=LEFT x2=LEFT y1=TOP y2=BOTTOM class="axis" />
                <line x1=LEFT x2=RIGHT y1=BOTTOM y2=BOTTOM class="axis" />
                <path d=move || path(|x| x.memory) class="side" stroke=css_color(Part::Model as usize) stroke-dasharray="6 4" />
                <path d=move || path(|x| x.compute) class="side" stroke=css_color(Part::Optimizer as usize) stroke-dasharray="2 3" />
                <path d=move || path(|x| x.tpot) class="step" />
                {crossover}
                {current}
                <text x=(LEFT + RIGHT) / 2.0 y=H - 6.0 class="tick" text-anchor="middle">{move || ctx.t("serving-axis-batch")}</text>
            </svg>
            <ul class="chart-legend">
                <li><span class="swatch dash" style=format!("background:{}", css_color(Part::Model as usize)) aria-hidden="true"></span><Tr key="serving-line-memory" /></li>
                <li><span class="swatch dash" style=format!("background:{}", css_color(Part::Optimizer as usize)) aria-hidden="true"></span><Tr key="serving-line-compute" /></li>
                <li><span class="swatch line" aria-hidden="true"></span><Tr key="serving-line-step" /></li>
            </ul>
        </div>
    }
}
