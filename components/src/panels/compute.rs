//! Training compute 6PD (with recomputation), PetaFLOP-days, GPU-hours, days
//! and cost; alone (a figure, a slide), with days against the GPU count.

use super::Mode;
use crate::bind::text;
use crate::charts::line_chart::{LineChart, LineScene, Point, Series, YAxis};
use crate::ctx::use_ctx;
use crate::explain::Explain;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::explain::Item;
use tmath::sweep;
use tmath::units::format_sig;
use tmath::Report;

/// A number with thousands separators for money and hours.
fn grouped(x: f64) -> String {
    if !(x.is_finite() && x.abs() < 1e15) {
        return format_sig(x);
    }
    let digits = format!("{:.0}", x.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if x < 0.0 {
        format!("-{out}")
    } else {
        out
    }
}

/// Training compute as the page writes it: "8.4e22 FLOPs".
pub fn flops_text(r: &Report) -> String {
    format!("{} FLOPs", format_sig(r.flops().get()))
}

/// The cost in dollars with thousands separators.
pub fn cost_text(r: &Report) -> String {
    format!("${}", grouped(r.cost_usd()))
}

#[component]
pub fn ComputeView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    let r = ctx.shown;
    // Alone, the view shows the days as a line against N, this run marked.
    let chart = (mode != Mode::Page).then(|| {
        let scene = Signal::derive(move || {
            r.with(|r| {
                let n = r.config.layout.gpus();
                let lo = r.config.layout.replica();
                let counts = sweep::gpu_counts(&r.config, (n * 64).max(lo * 1024));
                LineScene {
                    series: vec![Series::new(ctx.t("days").into(), sweep::days_vs_gpus(&r.config, &counts), 2)],
                    y: YAxis::Days,
                    marks: Vec::new(),
                    rules: Vec::new(),
                    marker: Some(n as f64),
                    points: vec![Point {
                        x: n as f64,
                        y: r.days(),
                        label: crate::i18n::days(ctx.lang.get(), r.days()),
                    }],
                    x_name: ctx.t("gpus-axis").into(),
                    y_name: String::new(),
                    lang: ctx.lang.get(),
                }
            })
        });
        let label = Signal::derive(move || ctx.t("sweep-days").to_string());
        view! { <LineChart scene=scene label=label testid="compute-chart" size=mode.chart(200.0) font=mode.font() /> }
    });
    let flops = move || r.with(|r| r.flops().get());
    let split = text(move || {
        r.with(|r| {
            // Under megatron the passes count attention, and recomputation is
            // hardware work: in the time, not in C.
            let megatron = r.config.convention == tmath::config::Convention::Megatron;
            let (fwd, bwd, rec) = if megatron {
                ("forward-attention", "backward-attention", "recompute-hardware")
            } else {
                ("forward", "backward", "recompute-extra")
            };
            format!(
                "{} {} + {} {}{} {} {}",
                ctx.t(fwd),
                format_sig(r.compute.forward.get()),
                ctx.t(bwd),
                format_sig(r.compute.backward.get()),
                if megatron { ";" } else { " +" },
                ctx.t(rec),
                format_sig(r.compute.recompute.get())
            )
        })
    });
    let days = move || r.with(|r| r.days());
    view! {
            <dl class="figures">
                <div data-testid="flops" data-flops=text(move || flops().to_string())>
                    <dt><Tr key="flops" /></dt>
                    <dd class="big">{text(move || r.with(flops_text))}</dd>
                    <dd class="detail">{split} <Explain item=Item::Flops /></dd>
                    // C with attention (megatron) is not 6PD: both, so the title's "C ≈ 6PD" is never read wrong.
                    <Show when=move || r.with(|r| r.flops().get() != r.six_pd().get())>
                        <dd class="detail" data-testid="flops-6pd">
                            {text(move || r.with(|r| {
                                let six = format_sig(r.six_pd().get());
                                let attention = format_sig(r.flops().get() - r.six_pd().get());
                                format!("C = 6PD {six} + {} {attention}\u{a0}FLOPs ", ctx.t("attention-flops-term"))
                            }))}
                            <cite><Tr key="attention-flops-source" /></cite>
                        </dd>
                    </Show>
                </div>
                <div data-testid="petaflop-days" data-value=text(move || r.with(|r| r.petaflop_days()).to_string())>
                    <dt><Tr key="petaflop-days" /></dt>
                    <dd>{text(move || crate::i18n::grouped_sig(r.with(|r| r.petaflop_days())))}</dd>
                </div>
                <div data-testid="gpu-hours" data-value=text(move || r.with(|r| r.gpu_hours()).to_string())>
                    <dt><Tr key="gpu-hours" /></dt>
                    <dd>{text(move || grouped(r.with(|r| r.gpu_hours())))}</dd>
                    <dd class="detail">
                        {text(move || r.with(|r| {
                            let tau = format!("τ\u{a0}=\u{a0}{}\u{a0}TFLOP/s", format_sig(r.step.tau / 1e12));
                            // Under megatron the time runs on C plus the recomputation.
                            if r.hardware_flops() != r.flops() {
                                format!("{tau} · {} {}\u{a0}FLOPs", ctx.t("with-recompute"), format_sig(r.hardware_flops().get()))
                            } else {
                                tau
                            }
                        }))}
                        <Explain item=Item::GpuHours />
                    </dd>
                    // Which τ: the shape's says how it is found; the GPU's default says so, with its
                    // share of the dense peak and its source.
                    {move || r.with(|r| {
                        let g = r.config.system.gpu;
                        if mode != Mode::Page {
                            None
                        } else if r.config.system.tau_from_shape {
                            let text = crate::i18n::tau_from_shape(ctx.lang.get(), g.label, g.sustained_tflops());
                            Some(view! { <dd class="detail" data-testid="tau-source">{text}</dd> }.into_any())
                        } else if r.config.system.flops_per_gpu == g.achieved_tflops * 1e12 {
                            let lead = crate::i18n::tau_default(ctx.lang.get(), g.label, g.achieved_tflops / g.peak_tflops);
                            Some(view! { <dd class="detail" data-testid="tau-source">{lead}<cite>{g.achieved_source}</cite></dd> }.into_any())
                        } else {
                            None
                        }
                    })}
                </div>
                <div data-testid="days" data-days=text(move || days().to_string())>
                    <dt><Tr key="days" /></dt>
                    <dd>{text(move || crate::i18n::grouped_sig(days()))}</dd>
                    <dd class="detail">
                        {text(move || r.with(|r| format!("N\u{a0}=\u{a0}{}", r.config.layout.gpus())))} <Explain item=Item::Days />
                    </dd>
                </div>
                <div data-testid="cost" data-value=text(move || r.with(|r| r.cost_usd()).to_string())>
                    <dt><Tr key="cost" /></dt>
                    <dd>{text(move || r.with(cost_text))}</dd>
                    <dd class="detail">
                        {text(move || r.with(|r| format!("${}/{}", r.config.system.usd_per_gpu_hour, ctx.t("gpu-hour"))))} <Explain item=Item::Cost />
                    </dd>
                </div>
                // Beyond the article's compute: on the full page only.
                {(mode == Mode::Page).then(|| view! {
                <div data-testid="bubble" data-value=text(move || r.with(|r| r.bubble_fraction()).to_string())>
                    <dt><Tr key="bubble" />{move || r.with(|r| format!(", b\u{a0}=\u{a0}{}", tmath::step::bubble_formula(&r.config)))}</dt>
                    <dd>{text(move || format!("{}% {}", format_sig(100.0 * r.with(|r| r.bubble_fraction())), ctx.t("of-the-step")))}</dd>
                    <dd class="detail">
                        {text(move || {
                            r.with(|r| {
                                format!(
                                    "{} {}",
                                    ctx.t("global-batch-label"),
                                    crate::i18n::sequences(ctx.lang.get(), r.global_batch()),
                                )
                            })
                        })}
                    </dd>
                </div>
                <div data-testid="step-time" data-value=text(move || r.with(|r| r.step.total).to_string())>
                    <dt><Tr key="step-time" /></dt>
                    <dd>{text(move || format!("{}\u{a0}s", format_sig(r.with(|r| r.step.total))))}</dd>
                    <dd class="detail">
                        {text(move || r.with(|r| {
                            let tps = crate::i18n::grouped_sig(r.tokens_per_second_per_gpu());
                            let mfu = format_sig(100.0 * r.mfu());
                            // Korean puts the count after its unit's description: "GPU당 초당 736 토큰".
                            match ctx.lang.get() {
                                tmath::page::Lang::Ko => format!("{} {tps} · MFU {mfu}%", ctx.t("step-throughput")),
                                tmath::page::Lang::En => format!("{tps} {} · MFU {mfu}%", ctx.t("step-throughput")),
                            }
                        }))}
                    </dd>
                </div>
                })}
            </dl>
            {(mode == Mode::Page).then(|| view! { <StepBar /> })}
            {chart}
    }
}

/// The step's seconds as one stacked bar, part by part, with a legend that
/// names each part and its seconds (colour is never the only signal): the
/// step-time model the planner ranks with ([`tmath::step`]).
#[component]
fn StepBar() -> impl IntoView {
    let ctx = use_ctx();
    let r = ctx.shown;
    // Palette places: compute as the weights, the bubble grey, each link and the optimizer's
    // update a colour of its own.
    const COLORS: [usize; 8] = [0, 7, 1, 8, 2, 6, 3, 5];
    let parts = Memo::new(move |_| {
        r.with(|r| {
            let total = r.step.total.max(f64::MIN_POSITIVE);
            r.step
                .segments()
                .iter()
                .zip(COLORS)
                .filter(|((_, s), _)| *s > 0.0)
                .map(|(&(key, s), color)| (key, s, s / total, color))
                .collect::<Vec<_>>()
        })
    });
    view! {
        <div class="step-bar" role="img" data-testid="step-bar"
            aria-label=move || parts.with(|p| p.iter().map(|(k, s, ..)| format!("{} {}\u{a0}s", ctx.t(k), format_sig(*s))).collect::<Vec<_>>().join(", "))>
            {move || parts.get().into_iter().map(|(_, _, share, color)| view! {
                <span style=format!("width:{:.3}%;background:{}", 100.0 * share, crate::charts::theme::css_color(color))></span>
            }).collect_view()}
        </div>
        <ul class="chart-legend">
            {move || parts.get().into_iter().map(|(key, s, share, color)| view! {
                <li>
                    <span class="swatch" style=format!("background:{}", crate::charts::theme::css_color(color)) aria-hidden="true"></span>
                    // A part under 1 % says so rather than "(0%)".
                    {format!("{} {}\u{a0}s ({})", ctx.t(key), format_sig(s), if share < 0.005 { "<1%".to_string() } else { format!("{:.0}%", 100.0 * share) })}
                </li>
            }).collect_view()}
        </ul>
        <p class="detail">{move || {
            let megatron = r.with(|r| r.config.convention == tmath::config::Convention::Megatron);
            ctx.t(if megatron { "step-note-megatron" } else { "step-note-article" })
        }}</p>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn grouped_digits() {
        assert_eq!(super::grouped(1234567.4), "1,234,567");
        assert_eq!(super::grouped(999.0), "999");
        assert_eq!(super::grouped(-1000.0), "-1,000");
    }
}
