//! Inference (the article's "Total Inference Memory"): weights in each data
//! type plus the ≤ 20 % the article adds, against one GPU's memory; beside it,
//! practice: the KV cache for the batch and context served, and the serving
//! memory against the context.

use super::memory::{capacity_label, legend_of, only};
use super::Mode;
use crate::bind::text;
use crate::charts::geometry::Bar;
use crate::charts::line_chart::{LineChart, LineScene, Point, Rule, Series, YAxis};
use crate::charts::stacked_bars::StackedBars;
use crate::charts::theme::{KV_CACHE, OVERHEAD};
use crate::ctx::use_ctx;
use crate::i18n;
use leptos::prelude::*;
use tmath::config::InferenceDtype;
use tmath::memory::Part;
use tmath::memory::{
    inference_parts, inference_total_bytes, inference_weight_bytes, kv_cache_bytes, longest_context,
    max_context_tokens, ContextBound, INFERENCE_OVERHEAD,
};

/// The bars: fp16 and bf16 hold the same 2 bytes, so they share one; so do fp8 and int8.
const DTYPES: [(InferenceDtype, &str); 4] = [
    (InferenceDtype::Fp32, "fp32"),
    (InferenceDtype::Fp16, "fp16 · bf16"),
    (InferenceDtype::Int8, "fp8 · int8"),
    (InferenceDtype::Int4, "int4"),
];

#[component]
pub fn InferenceView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    let r = ctx.shown;
    let units = Signal::derive(move || ctx.units());
    let bars = Signal::derive(move || {
        let lang = ctx.lang.get();
        r.with(|r| {
            let current = inference_weight_bytes(r.config.serving.inference_dtype);
            // With a context or a batch given, each bar is its weights and the KV cache (the verdict's).
            let kv = r.config.serving.serving_given.then(|| kv_cache_bytes(&r.config).get());
            DTYPES
                .iter()
                .map(|&(dtype, name)| {
                    let (weights, overhead) = inference_parts(r.config.params, dtype);
                    let bytes = inference_weight_bytes(dtype).0;
                    Bar {
                        label: name.to_string(),
                        sub: i18n::bytes_per_param_short(lang, bytes),
                        segments: match kv {
                            Some(kv) => only(&[(Part::Model as usize, weights.get()), (KV_CACHE, kv)]),
                            None => only(&[(Part::Model as usize, weights.get()), (OVERHEAD, overhead.get())]),
                        },
                        current: bytes == current.0,
                    }
                })
                .collect()
        })
    });
    let capacity = Signal::derive(move || r.with(|r| r.config.system.gpu_mem_bytes));
    let formula = move || {
        r.with(|r| {
            let c = &r.config;
            let lang = ctx.lang.get();
            format!(
                "{} × {} × {} = {}",
                INFERENCE_OVERHEAD,
                // A quantized file's bytes per parameter, its tensors averaged: the "=" holds for every format.
                i18n::bytes_per_param(lang, tmath::serving::formats::bytes_per_param(c)),
                i18n::count(lang, c.params.get()),
                ctx.units().format(r.inference)
            )
        })
    };
    let summary =
        Signal::derive(move || r.with(|r| format!("{}: {}", ctx.t("inference-note"), ctx.units().format(r.inference))));
    // Practice beside the article: the KV cache of `batch` sequences of `context` tokens.
    let kv_line = move || {
        r.with(|r| {
            let c = &r.config;
            let u = ctx.units();
            let tokens = |n: u64| i18n::tokens(ctx.lang.get(), n);
            // At a batch of several sequences, the length is each one's.
            let longest_key = if c.serving.batch > 1 { "longest-context-each" } else { "longest-context" };
            let longest = match longest_context(c) {
                (0, _) => ctx.t("weights-alone-too-big").to_string(),
                (n, ContextBound::Memory) => format!("{} {}", ctx.t(longest_key), tokens(n)),
                // The model reads no more: say so, and what the memory alone would hold.
                (n, ContextBound::Positions) => format!(
                    "{} {} ({}, {} {})",
                    ctx.t(longest_key),
                    tokens(n),
                    ctx.t("position-limit"),
                    ctx.t("memory-would-hold"),
                    tokens(max_context_tokens(c))
                ),
            };
            format!(
                "{} 2·L·k·(h/a)·{}·{}·{} = {} · {} {} · {longest}",
                ctx.t("kv-cache"),
                tokens(c.serving.context),
                i18n::sequences(ctx.lang.get(), c.serving.batch as f64).replace(' ', "\u{a0}"),
                i18n::bytes_per_value(ctx.lang.get(), c.serving.kv_dtype.bytes()),
                u.format(kv_cache_bytes(c)),
                ctx.t("weights-plus-kv"),
                u.format(inference_total_bytes(c)),
            )
        })
    };
    let context_scene = Signal::derive(move || {
        let lang = ctx.lang.get();
        let u = ctx.units();
        r.with(|r| {
            let c = &r.config;
            LineScene {
                series: vec![Series::new(ctx.t("weights-plus-kv").into(), tmath::sweep::serving_vs_context(c), 3)],
                y: YAxis::Bytes(u),
                marks: Vec::new(),
                rules: vec![Rule { y: c.system.gpu_mem_bytes, label: ctx.t("capacity").into() }],
                marker: None,
                points: vec![Point {
                    x: c.serving.context as f64,
                    y: inference_total_bytes(c).get(),
                    label: ctx.t("this-run").into(),
                }],
                x_name: ctx.t("context-axis").into(),
                y_name: String::new(),
                lang,
            }
        })
    });
    let context_label = Signal::derive(move || format!("{}: {}", ctx.t("serving-vs-context"), kv_line()));
    view! {
        <p
            class="result-line"
            data-testid="inference-total"
            data-bytes=text(move || r.with(|r| r.inference.get()).to_string())
            data-serving-bytes=text(move || r.with(|r| r.serving_bytes().get()).to_string())
            data-fits=text(move || r.with(|r| r.serving_fits()).to_string())
        >
            <strong>{text(formula)}</strong>
            {text(move || r.with(|r| {
                let fits = r.serving_fits();
                // The mark and its words stay on one line.
                let words = ctx.t(if fits { "fits" } else { "does-not-fit" }).replace(' ', "\u{a0}");
                // Once a context or a batch is given, the verdict weighs the weights and their KV cache.
                let what = if r.config.serving.serving_given {
                    format!(" · {} {}", ctx.t("weights-plus-kv"), ctx.units().format(r.serving_bytes()))
                } else {
                    String::new()
                };
                format!("{what} · {}\u{a0}{words}", if fits { "✓" } else { "✗" })
            }))}
        </p>
        <StackedBars
            bars=bars
            capacity=capacity
            capacity_label=capacity_label(ctx, r)
            units=units
            label=summary
            testid="inference-chart"
            size=mode.chart(240.0)
            font=mode.font()
            legend=legend_of(ctx, bars)
        />
        <p class="detail" data-testid="kv-cache" data-bytes=text(move || r.with(|r| kv_cache_bytes(&r.config).get()).to_string())
            data-max-context=text(move || r.with(|r| max_context_tokens(&r.config)).to_string())
            data-longest-context=text(move || r.with(|r| longest_context(&r.config).0).to_string())>
            {text(kv_line)}
        </p>
        // On the full page: a figure keeps its height, a slide its one chart.
        {(mode == Mode::Page).then(|| view! {
            <figure class="context-chart">
                <figcaption>{move || ctx.t("serving-vs-context")}</figcaption>
                <LineChart scene=context_scene label=context_label testid="context-chart" size=mode.chart(200.0) font=mode.font() />
            </figure>
        })}
    }
}
