//! Serving (Kipply's "Transformer Inference Arithmetic", live): one replica's
//! headline figures (time to the first token, time per output token, tokens
//! per second per user and per GPU, the users its KV pool holds, dollars per
//! million output tokens), one GPU's memory as the engine budgets it, and time
//! per output token against the batch on log axes with the roofline's two
//! sides and the crossover. Drawn as SVG by the view: every number is the
//! core's (`tmath::serving`, `tmath::sweep::serving_vs_batch`).

use super::Mode;
use crate::charts::line_chart::{LineChart, LineScene, Mark, Point, Series, YAxis};
use crate::charts::svg::Dash;
use crate::charts::theme::{css_color, KV_CACHE};
use crate::ctx::use_ctx;
use crate::i18n::grouped_sig;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::memory::Part;
use tmath::sweep::serving_vs_batch;

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
    // A slide leaves where decode turns to its chart's mark: its text stays large.
    let big = mode != Mode::Page;
    let verdict = move || {
        let lang = ctx.lang.get();
        s.with(|s| {
            let v = r.with(|r| crate::i18n::serving_verdict(lang, &r.config, s));
            if mode == Mode::Slide {
                v
            } else {
                format!("{v} {}", crate::i18n::serving_turn(lang, s))
            }
        })
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
                    view! {
                        <rect x=at y="0" width=w height="36" fill=fill data-part=key data-bytes=bytes>
                            <title>{title}</title>
                        </rect>
                    }
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
    // Time per output token against the batch, log–log: the roofline's two sides and their sum.
    let scene = Memo::new(move |_| {
        let lang = ctx.lang.get();
        let line = |pick: fn(&tmath::sweep::BatchPoint) -> f64| {
            points.with(|p| p.iter().map(|x| (x.batch, pick(x))).collect::<Vec<_>>())
        };
        let (b, tpot) = (batch.get(), s.with(|s| s.tpot_seconds));
        let (crossover, users) = s.with(|s| (s.crossover_batch_at_context, s.max_concurrency));
        let mut memory = Series::new(ctx.t("serving-line-memory").into(), line(|x| x.memory), Part::Model as usize);
        memory.dash = Dash::Dashed;
        let mut compute =
            Series::new(ctx.t("serving-line-compute").into(), line(|x| x.compute), Part::Optimizer as usize);
        compute.dash = Dash::Dotted;
        // The text's colour: the line a reader reads.
        let step = Series::new(ctx.t("serving-line-step").into(), line(|x| x.tpot), usize::MAX);
        // Where the two sides cross at this context, and the batches the KV pool cannot hold, shaded.
        let mut marks = Vec::new();
        if crossover.is_finite() {
            marks.push(Mark {
                x: crossover,
                label: format!("{} {}", ctx.t("serving-crossover"), grouped_sig(crossover)),
                beyond: false,
            });
        }
        if users >= 1.0 {
            marks.push(Mark { x: users.floor(), label: crate::i18n::serving_pool_mark(lang, users), beyond: true });
        }
        LineScene {
            series: vec![memory, compute, step],
            y: YAxis::Seconds,
            rules: Vec::new(),
            marks,
            marker: None,
            points: vec![Point { x: b, y: tpot, label: String::new() }],
            x_name: ctx.t("serving-axis-batch").into(),
            y_name: String::new(),
            lang,
        }
    });
    let label = Signal::derive(move || s.with(|s| crate::i18n::serving_chart_label(ctx.lang.get(), s)));
    view! {
        <div class="serving" class:big=big data-testid="serving-view">
            {headline}
            <p class="detail" data-testid="serving-verdict">{verdict}</p>
            <svg class="serving-bar" viewBox="0 0 1000 36" preserveAspectRatio="none" role="img" aria-label=move || ctx.t("serving-bar")>
                {bar}
            </svg>
            <ul class="chart-legend">{legend}</ul>
            <LineChart scene=Signal::from(scene) label=label testid="serving-chart" size=mode.chart(300.0) font=mode.font() />
        </div>
    }
}
