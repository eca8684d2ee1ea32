//! 3D parallelism (the article's "3D Parallelism"): the same N GPUs split as
//! data parallelism alone, tensor × data, pipeline × data, and this run's
//! t × p × d, each bar one GPU's memory with its verdict; how far each state
//! is divided, why a divisor is not t·p, and what the other convention gives.

use super::memory::{capacity_label, legend_of, segments};
use super::Mode;
use crate::bind::text;
use crate::charts::geometry::Bar;
use crate::charts::stacked_bars::StackedBars;
use crate::ctx::{use_ctx, Ctx};
use crate::i18n::grouped_sig;
use leptos::prelude::*;
use tmath::config::{Convention, Layout};
use tmath::memory::Part;
use tmath::page::Lang;
use tmath::{evaluate, Report};

/// A bar's verdict in words and a mark (colour is never the only signal): "✓ fits", "✗ 메모리 부족".
pub fn verdict_mark(ctx: Ctx, fits: bool) -> String {
    if fits {
        format!("✓\u{a0}{}", ctx.t("fits").replace(' ', "\u{a0}"))
    } else {
        format!("✗\u{a0}{}", ctx.t("does-not-fit").replace(' ', "\u{a0}"))
    }
}

/// Why a divisor is not t·p, when it is not: Megatron's heaviest stage holds
/// ⌈L/p⌉ layers and the embedding; the article's 3D formula divides gradients
/// by p only; routed experts are divided by ep as well.
fn divisor_notes(lang: Lang, r: &Report) -> Vec<String> {
    let c = &r.config;
    let Layout { tp, pp, .. } = c.layout;
    let mut notes = Vec::new();
    if c.convention == Convention::Megatron && pp > 1 {
        let (held, layers) = (c.arch.layers.div_ceil(pp), c.arch.layers);
        let (by, tp_pp) = (grouped_sig(r.divisors.model), tp * pp);
        notes.push(match lang {
            Lang::En => format!(
                "÷\u{a0}{by}, not t·p\u{a0}=\u{a0}{tp_pp}: the first stage holds {held} of {layers} layers and the embedding"
            ),
            Lang::Ko => format!(
                "t·p\u{a0}=\u{a0}{}가 아니라 {} 나누는 까닭은 첫 스테이지가 층 {layers}개 중 {held}개와 임베딩을 맡기 때문입니다",
                crate::i18n::josa(&tp_pp.to_string(), "이", "가").trim_end_matches(['이', '가']).to_string()
                    + if crate::i18n::josa(&tp_pp.to_string(), "이", "가").ends_with('이') { "이" } else { "" },
                crate::i18n::josa(&by, "으로", "로")
            ),
        });
    }
    if c.convention == Convention::Article && tp > 1 && !c.tsp {
        notes.push(
            match lang {
                Lang::En => "gradients ÷ p only, as the article's 3D formula has it",
                Lang::Ko => "그래디언트는 원문의 3D 식대로 p로만 나눕니다",
            }
            .to_string(),
        );
    }
    if c.layout.ep > 1 && c.arch.is_moe() {
        notes.push(match lang {
            Lang::En => format!("routed experts ÷ ep\u{a0}=\u{a0}{} as well", c.layout.ep),
            Lang::Ko => format!("라우팅 전문가는 ep\u{a0}=\u{a0}{}로도 나눕니다", c.layout.ep),
        });
    }
    notes
}

/// The same layout under the other convention, and the (at most `most`) parts
/// that differ most, each by more than `share` of this total: the article's
/// figure beside Megatron-LM's, each saying why they part.
fn other_convention(ctx: Ctx, here: &Report, (share, most): (f64, usize)) -> Option<String> {
    let other = match here.config.convention {
        Convention::Article => Convention::Megatron,
        Convention::Megatron => Convention::Article,
    };
    let there =
        ctx.view.with(|s| tmath::Settings { convention: other, ..s.clone() }.resolve().ok().map(|c| evaluate(&c)))?;
    let u = ctx.units();
    let lang = ctx.lang.get();
    let total = here.per_gpu.total().get();
    let fmt = |b: f64| u.format(tmath::units::Bytes(b));
    // No sort: a generic sort cost the page more than these few comparisons.
    let gap = |p: Part| (there.per_gpu.get(p).get() - here.per_gpu.get(p).get()).abs();
    let mut why: Vec<String> = Vec::new();
    let mut left: Vec<Part> = Part::ALL.iter().copied().filter(|&p| gap(p) > share * total).collect();
    while why.len() < most {
        let Some(i) = (0..left.len()).reduce(|a, b| if gap(left[b]) > gap(left[a]) { b } else { a }) else { break };
        let p = left.swap_remove(i);
        let (a, b) = (fmt(there.per_gpu.get(p).get()), fmt(here.per_gpu.get(p).get()));
        why.push(match lang {
            Lang::En => format!("{} {a} ({b} here)", ctx.t(p.key())),
            Lang::Ko => format!("{} {a}, 여기서는 {b}", ctx.t(p.key())),
        });
    }
    let key = match other {
        Convention::Article => "other-convention-article",
        Convention::Megatron => "other-convention-megatron",
    };
    let head = match lang {
        Lang::En => format!("{} give {} per GPU", ctx.t(key), fmt(there.per_gpu.total().get())),
        Lang::Ko => {
            format!("{} GPU당 {}", ctx.t(key), crate::i18n::josa(&fmt(there.per_gpu.total().get()), "이", "가"))
        }
    };
    Some(match (lang, why.is_empty()) {
        (Lang::Ko, true) => format!("{head} 됩니다"),
        (Lang::Ko, false) => format!("{head} 됩니다({})", why.join("; ")),
        (Lang::En, true) => head,
        (Lang::En, false) => format!("{head}: {}", why.join(", ")),
    })
}

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
            // Context parallelism aside (N = t·p·d here); the experts' split and v as the run's.
            let at = |tp, pp, dp| Layout { tp, pp, dp, cp: 1, ..r.config.layout };
            let mut layouts = vec![(first, at(1, 1, n))];
            if tp > 1 && pp > 1 {
                layouts.push(("axis-td", at(tp, 1, n / tp)));
                layouts.push(("axis-pd", at(1, pp, n / pp)));
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
                        // The mark on the chart, its words in the summary (see below).
                        sub: format!(
                            "{}·{}·{} {}",
                            layout.tp,
                            layout.pp,
                            layout.dp,
                            if alt.fits() { "✓" } else { "✗" }
                        ),
                        segments: segments(&alt.per_gpu),
                        current: layout == r.config.layout,
                    }
                })
                .collect()
        })
    });
    let capacity = Signal::derive(move || r.with(|r| r.config.system.gpu_mem_bytes));
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
            if d.model == d.gradients && d.model == d.optimizer {
                return format!("{} ÷\u{a0}{}", ctx.t("every-state"), grouped_sig(d.model));
            }
            format!(
                "{} ÷\u{a0}{} · {} ÷\u{a0}{} · {} ÷\u{a0}{}",
                ctx.t("part-model"),
                grouped_sig(d.model),
                ctx.t("part-gradients"),
                grouped_sig(d.gradients),
                ctx.t("part-optimizer"),
                grouped_sig(d.optimizer)
            )
        })
    };
    // Why a divisor is not t·p, and what the other convention gives: one line of detail.
    let why = move || {
        r.with(|r| {
            let mut lines = divisor_notes(ctx.lang.get(), r);
            // On the page and in a figure, the three parts over a twentieth of the total, so that
            // a reader can add the difference up (a 7B model's fp32 gradients, 14 GB, fell under a
            // tenth); a slide keeps its chart and names the two over a tenth.
            let parts = if mode == Mode::Slide { (0.1, 2) } else { (0.05, 3) };
            lines.extend(other_convention(ctx, r, parts));
            lines.join(". ")
        })
    };
    // For a screen reader, each bar with its total and verdict.
    let summary = Signal::derive(move || {
        let u = units.get();
        let cap = capacity.get();
        let each = bars.with(|bars: &Vec<Bar>| {
            bars.iter()
                .map(|b| {
                    let total = b.total();
                    let mark = verdict_mark(ctx, total <= cap);
                    let sub = b.sub.trim_end_matches(['✓', '✗', ' ']);
                    format!("{} {sub}: {} {mark}", b.label, u.format(tmath::units::Bytes(total)))
                })
                .collect::<Vec<_>>()
        });
        format!("{}; {}; {}", layout_line(), divided(), each.join("; "))
    });
    view! {
        <p class="result-line" data-testid="layout-3d" data-gpus=text(move || r.with(|r| r.config.layout.gpus()).to_string())>
            <strong>{text(layout_line)}</strong>
            " · "
            <span class="detail" data-testid="divisors">{text(divided)}</span>
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
        <p class="detail" data-testid="three-d-why">{text(why)}</p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(query: &str) -> Report {
        let (state, errors) = tmath::link::load(query);
        assert!(errors.is_empty(), "{errors:?}");
        evaluate(&state.settings.resolve().unwrap())
    }

    /// GPT-3 on 8·8·16 under megatron: ÷ 62.5, and the note says why it is not 64.
    #[test]
    fn a_divisor_that_is_not_t_p_says_why() {
        let r = report(tmath::presets::preset("gpt-3").unwrap().query);
        assert_eq!(grouped_sig(r.divisors.model), "62.5");
        let notes = divisor_notes(Lang::En, &r);
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("12 of 96 layers"), "{}", notes[0]);
        // The article's own 3D formula: gradients ÷ p, said as such.
        let article = report("model=gpt-3-175b&tp=8&pp=8&dp=16");
        assert!(divisor_notes(Lang::Ko, &article)[0].contains("p로만"));
        // t·p exactly: nothing to explain.
        assert!(divisor_notes(Lang::En, &report("model=gpt-3-175b&pp=8&dp=16")).is_empty());
    }
}
