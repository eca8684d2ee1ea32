//! Memory per GPU: the verdict, the stacked bar beside the inference bar (or a
//! comparison slide's bars), the capacity line, and the same numbers as a table.

use super::breakdown_table::BreakdownTable;
use super::Mode;
use crate::bind::text;
use crate::charts::geometry::Bar;
use crate::charts::stacked_bars::StackedBars;
use crate::ctx::{use_ctx, Ctx};
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::keys::K;
use tmath::memory::Part;
use tmath::presets::Variant;
use tmath::remedy::{Kind as RemedyKind, Remedy};
use tmath::units::Bytes;
use tmath::{evaluate, Report};

/// "✓ fits — 12 GB headroom" or "✗ does not fit — over by 63 GB", tracked.
pub fn verdict(ctx: Ctx) -> String {
    ctx.shown.with(|r| verdict_of(ctx, r))
}

/// The verdict of one report, in the page's language and unit, tracked.
pub fn verdict_of(ctx: Ctx, r: &Report) -> String {
    let u = ctx.units();
    let amount = u.format(Bytes(r.headroom().get().abs()));
    crate::i18n::verdict(ctx.lang.get(), r.fits(), &amount)
}

/// The warnings that change what the verdict means (a pipeline that never
/// fills, a layout DeepSpeed refuses, TP across nodes), in the page's language; tracked.
pub fn qualifiers(ctx: Ctx) -> Vec<String> {
    let lang = ctx.lang.get();
    ctx.shown
        .with(|r| r.warnings.iter().filter(|w| w.qualifies_verdict()).map(|w| crate::i18n::warning(lang, w)).collect())
}

/// A remedy's name, in the page's language.
fn remedy_text(ctx: Ctx, r: &Remedy) -> String {
    let lang = ctx.lang.get();
    let what = match r.kind {
        RemedyKind::FullRecompute => ctx.t("remedy-recompute").to_string(),
        RemedyKind::Offload => ctx.t("remedy-offload").to_string(),
        RemedyKind::Zero3 => "ZeRO-3".to_string(),
        RemedyKind::SeqLen(s) => {
            format!("{} s\u{a0}=\u{a0}{}", ctx.t("remedy-seq"), crate::i18n::count(lang, s as f64))
        }
        RemedyKind::Gpus(n) => crate::i18n::gpus(lang, n),
        RemedyKind::Lora => ctx.t("remedy-lora").to_string(),
        RemedyKind::Qlora => ctx.t("remedy-qlora").to_string(),
    };
    // On one rank of its shard group ZeRO shards nothing: offload's ZeRO-1 (DeepSpeed asks for a stage)
    // changes no byte there, and is not named.
    let alone = ctx.shown.with_untracked(|s| s.config.layout.shard_group() == 1);
    let extra: Vec<String> = r
        .changes
        .iter()
        .filter(|(k, _)| !matches!((r.kind, k), (RemedyKind::Gpus(_), K::Dp) | (RemedyKind::SeqLen(_), K::SeqLen)))
        .filter(|(k, _)| !(alone && r.kind == RemedyKind::Offload && *k == K::Zero))
        .filter(|(k, _)| {
            !matches!(
                (r.kind, k),
                (RemedyKind::FullRecompute, K::Recompute)
                    | (RemedyKind::Offload, K::Offload)
                    | (RemedyKind::Zero3, K::Zero)
                    | (RemedyKind::Lora | RemedyKind::Qlora, K::Finetune)
            )
        })
        .map(|(k, v)| crate::i18n::change_text(lang, *k, v))
        .collect();
    let what = if extra.is_empty() { what } else { format!("{what} + {}", extra.join(", ")) };
    let verdict =
        if r.fits { format!("✓\u{a0}{}", ctx.t("fits")) } else { format!("✗\u{a0}{}", ctx.t("does-not-fit")) };
    format!("{what}: {} {verdict}", ctx.units().format(Bytes(r.bytes)))
}

/// What would make it fit, each a button that applies it (the calculator's own remedies).
#[component]
pub fn Remedies(
    /// The remedies to offer.
    remedies: Signal<Vec<Remedy>>,
) -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <Show when=move || remedies.with(|r| !r.is_empty())>
            <div class="remedies" data-testid="remedies">
                <p><Tr key="remedies" /></p>
                <ul>
                    {move || {
                        remedies
                            .get()
                            .into_iter()
                            .map(|r| {
                                let label = remedy_text(ctx, &r);
                                let pairs: Vec<(&'static str, String)> = r.changes.iter().map(|(k, v)| (k.name(), v.clone())).collect();
                                view! {
                                    <li class:ok=r.fits>
                                        <button type="button" data-remedy=format!("{:?}", r.kind) on:click=move |_| ctx.set_all(&pairs)>
                                            {label}
                                        </button>
                                    </li>
                                }
                            })
                            .collect_view()
                    }}
                </ul>
            </div>
        </Show>
    }
}

/// Segments that hold only the given (palette index, bytes): a bar of one part,
/// or the serving bar's weights and overhead.
pub fn only(parts: &[(usize, f64)]) -> Vec<f64> {
    let mut out = vec![0.0; crate::charts::theme::KV_CACHE + 1];
    for &(i, bytes) in parts {
        out[i] = bytes;
    }
    out
}

/// The segments of a report's per-GPU memory, bottom first.
pub fn segments(m: &tmath::memory::MemoryBreakdown) -> Vec<f64> {
    m.parts().iter().map(|(_, b)| b.get()).collect()
}

/// The legend of what some bar shows: a part at zero in every bar is left out
/// (no "ZeRO-3 live params" without ZeRO-3), the serving overhead named when shown.
pub fn legend_of(ctx: Ctx, bars: Signal<Vec<Bar>>) -> Signal<Vec<(usize, String)>> {
    // A memo: a slider step that shows the same parts leaves the legend's DOM alone.
    Memo::new(move |_| {
        bars.with(|bars| {
            let shown = |i: usize| bars.iter().any(|b| b.segments.get(i).is_some_and(|&x| x > 0.0));
            // Gradients kept in another type than the weights say which (Megatron-LM's fp32
            // main_grad beside bf16 weights: why they stand twice as tall).
            let grads = ctx.shown.with(|r| {
                let [w, g, _] = tmath::memory::state_bytes_per_param(&r.config);
                (g.0 != w.0).then(|| r.config.dtypes.grad_dtype.as_str())
            });
            let parts = Part::ALL.iter().map(|&p| (p as usize, p.key()));
            parts
                .chain([
                    (crate::charts::theme::OVERHEAD, "part-overhead"),
                    (crate::charts::theme::KV_CACHE, "kv-cache"),
                ])
                .filter(|&(i, _)| shown(i))
                .map(|(i, key)| match grads {
                    Some(dtype) if i == Part::Gradients as usize => (i, format!("{} ({dtype})", ctx.t(key))),
                    _ => (i, ctx.t(key).to_string()),
                })
                .collect::<Vec<_>>()
        })
    })
    .into()
}

/// The capacity line's label, tracked: "GPU memory 85.9 GB = 80 GiB" (the
/// GiB the driver reports beside the GB the page counts in), or "80.0 GiB".
pub fn capacity_label(ctx: Ctx, r: Memo<Report>) -> Signal<String> {
    Signal::derive(move || {
        let bytes = r.with(|r| r.gpu_mem());
        let u = ctx.units();
        let gib = if u == tmath::units::ByteUnit::Gb {
            format!(" = {}", tmath::units::ByteUnit::Gib.format(bytes).replace(".0\u{a0}", "\u{a0}"))
        } else {
            String::new()
        };
        format!("{} {}{gib}", ctx.t("capacity"), u.format(bytes))
    })
}

/// The training bar and the inference bar of the current report.
fn training_and_inference(ctx: Ctx) -> Vec<Bar> {
    ctx.shown.with(|r| {
        let serving = r.inference_per_gpu().get();
        let weights = serving / tmath::memory::INFERENCE_OVERHEAD;
        // Once a context or a batch is given, the serving bar is the weights and their KV cache.
        let (extra, extra_at) = if r.config.serving.serving_given {
            let mp = r.config.layout.model_parallel() as f64;
            (tmath::memory::kv_cache_bytes(&r.config).get() / mp, crate::charts::theme::KV_CACHE)
        } else {
            (serving - weights, crate::charts::theme::OVERHEAD)
        };
        let mp = r.config.layout.model_parallel();
        let inference_label = if mp > 1 {
            format!("{} ÷ t·p\u{a0}=\u{a0}{mp} ({})", ctx.t("inference"), r.config.serving.inference_dtype)
        } else {
            format!("{} ({})", ctx.t("inference"), r.config.serving.inference_dtype)
        };
        vec![
            Bar {
                label: ctx.t("training").to_string(),
                segments: segments(&r.per_gpu),
                current: true,
                ..Bar::default()
            },
            Bar {
                label: inference_label,
                segments: only(&[(Part::Model as usize, weights), (extra_at, extra)]),
                ..Bar::default()
            },
        ]
    })
}

/// One bar per variant of a comparison slide, each the current settings with
/// the variant's keys (a degree it sets replaces the GPU count, which follows
/// it). Each label is written from the bar's own state: the GPUs it runs on and
/// the value of every other key the variants set, so after a live change the
/// labels still say what each bar is.
fn variant_bars(ctx: Ctx, variants: &'static [Variant]) -> Vec<Bar> {
    let settings = ctx.settings.get();
    let lang = ctx.lang.get();
    // In the key table's order, each once; the degrees are said as the GPU count.
    let set: Vec<(String, String)> = variants.iter().flat_map(|v| tmath::link::parse_query(v.query)).collect();
    let named: Vec<K> = K::ALL
        .iter()
        .copied()
        .filter(|k| !matches!(k, K::Dp | K::Tp | K::Pp | K::Cp | K::Gpus) && set.iter().any(|(n, _)| n == k.name()))
        .collect();
    variants
        .iter()
        .map(|v| {
            let pairs = tmath::link::parse_query(v.query);
            let mut s = settings.clone();
            if pairs.iter().any(|(k, _)| matches!(k.as_str(), "dp" | "tp" | "pp" | "cp")) {
                s.gpus = None;
            }
            let applied = pairs.iter().all(|(k, val)| s.set(k, val).is_ok());
            let report = applied.then(|| s.resolve().ok()).flatten().map(|c| evaluate(&c));
            let fits = report.as_ref().is_some_and(|r| r.fits());
            let label = report.as_ref().map_or_else(
                || ctx.t("invalid-variant").to_string(),
                |r| {
                    let mut parts = vec![crate::i18n::gpus(lang, r.config.layout.gpus())];
                    parts.extend(
                        named.iter().filter_map(|&k| s.value(k.name()).map(|v| crate::i18n::change_text(lang, k, &v))),
                    );
                    parts.join(", ")
                },
            );
            Bar {
                label,
                sub: if fits {
                    format!("✓\u{a0}{}", ctx.t("fits"))
                } else {
                    format!("✗\u{a0}{}", ctx.t("does-not-fit"))
                },
                segments: report.as_ref().map(|r| segments(&r.per_gpu)).unwrap_or_default(),
                current: v.query.is_empty(),
            }
        })
        .collect()
}

#[component]
pub fn MemoryView(
    /// Where the view is drawn.
    mode: Mode,
    /// A comparison slide's bars; empty: the training and inference bars.
    variants: &'static [Variant],
) -> impl IntoView {
    let ctx = use_ctx();
    let units = Signal::derive(move || ctx.units());
    let bars =
        Signal::derive(
            move || {
                if variants.is_empty() {
                    training_and_inference(ctx)
                } else {
                    variant_bars(ctx, variants)
                }
            },
        );
    let capacity = Signal::derive(move || ctx.shown.with(|r| r.config.system.gpu_mem_bytes));
    let fits = move || ctx.shown.with(|r| r.fits());
    // The text alternative states every bar's label and total (a comparison slide's too).
    let summary = Signal::derive(move || {
        let u = ctx.units();
        let each: Vec<String> = bars.with(|bars| {
            bars.iter()
                .map(|b| {
                    let sub = if b.sub.is_empty() { String::new() } else { format!(" {}", b.sub) };
                    format!("{}: {}{sub}", b.label, u.format(Bytes(b.total())))
                })
                .collect()
        });
        format!("{}: {} · {}", ctx.t("total"), verdict(ctx), each.join("; "))
    });
    view! {
        <p
            class="verdict"
            class:ok=fits
            class:bad=move || !fits()
            data-testid="fits"
            data-fits=text(move || fits().to_string())
            aria-live="polite"
        >
            {move || verdict(ctx)}
        </p>
        // A pipeline's verdict depends on m: say which m it assumed and why.
        <Show when=move || ctx.shown.with(|r| r.config.layout.pp > 1)>
            <p class="detail" data-testid="batch-assumed">
                {move || ctx.shown.with(|r| crate::i18n::batch_assumed(ctx.lang.get(), r))}
            </p>
        </Show>
        // Beside the verdict, what changes its meaning.
        <ul class="qualifiers" data-testid="qualifiers">
            {move || qualifiers(ctx).into_iter().map(|w| view! { <li>{w}</li> }).collect_view()}
        </ul>
        <StackedBars
            bars=bars
            capacity=capacity
            capacity_label=capacity_label(ctx, ctx.shown)
            units=units
            label=summary
            testid="memory-chart"
            size=mode.chart(300.0)
            font=mode.font()
            legend=legend_of(ctx, bars)
        />
        {(mode == Mode::Page).then(|| {
            let remedies = Signal::derive(move || ctx.result.with(|r| r.as_ref().map(|r| tmath::remedy::for_config(&r.config)).unwrap_or_default()));
            view! { <Remedies remedies=remedies /> }
        })}
        {(mode == Mode::Page).then(|| view! { <super::stages::StageChart /> })}
        <BreakdownTable compact=mode != Mode::Page />
        {(mode == Mode::Page).then(|| view! { <super::validation::Validation /> })}
    }
}
