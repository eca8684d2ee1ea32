//! "How close is this to reality": the core's validation table under the
//! memory breakdown, computed when it is opened (it does not follow input:
//! each row is a fixed published run), with a chart of predicted against
//! measured (log–log, the y = x line and its ±10 % band).

use crate::charts::geometry::{log_pos, log_ticks, tick_number, Area};
use crate::charts::svg::{chart_view, Align, Baseline, ChartSize, Dash, FontSize, Svg};
use crate::charts::theme::{css_color, theme};
use crate::ctx::{use_ctx, Ctx};
use crate::i18n::change_text;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::keys::K;
use tmath::page::Lang;
use tmath::throughput::Rate;
use tmath::units::ByteUnit;
use tmath::validation::{median_error, table, Checked, Framework, Metric, Published, Rank, MEDIAN_LIMIT};

/// The published figure's metric, in the page's language.
fn metric_key(m: Metric) -> &'static str {
    match m {
        Metric::Estimator => "validation-metric-estimator",
        Metric::Allocated => "validation-metric-allocated",
        Metric::Active => "validation-metric-active",
        Metric::Reserved => "validation-metric-reserved",
        Metric::NvidiaSmi => "validation-metric-nvidia-smi",
    }
}

/// A framework's colour in the chart (palette index).
fn framework_color(f: Framework) -> usize {
    match f {
        Framework::MegatronLm => 0,
        Framework::Torchtitan => 1,
        Framework::Torchtune => 2,
        Framework::LlamaRecipes => 8,
        Framework::Transformers => 9,
        Framework::LitGpt => 3,
        Framework::AnswerAi => 4,
        Framework::MsSwift => 5,
    }
}

/// Frameworks in the legend's order.
const FRAMEWORKS: [Framework; 5] = [
    Framework::MegatronLm,
    Framework::Torchtitan,
    Framework::Torchtune,
    Framework::LlamaRecipes,
    Framework::Transformers,
];

/// The choices a row's query makes that tell runs of one model apart, as a person says them.
const TOLD: [K; 6] = [K::Zero, K::Recompute, K::Attention, K::SequenceParallel, K::Optimizer, K::Precision];

/// A row's run in words: the model, its layout (t·p·d, cp) and the choices that set it apart.
fn run_text(lang: Lang, r: &Checked) -> String {
    run_words(lang, r.row.model, r.row.query, r.layout, r.layout.vpp)
}

/// A run in words from its model, its query and the layout its check resolved.
fn run_words(lang: Lang, model: &str, query: &str, l: tmath::config::Layout, vpp: u64) -> String {
    let pairs = tmath::link::parse_query(query);
    let value = |k: K| pairs.iter().find(|(key, _)| key == k.row().name).map(|(_, v)| v.clone());
    let mut parts = vec![model.to_string()];
    parts.push(format!("t·p·d\u{a0}=\u{a0}{}·{}·{}", l.tp, l.pp, l.dp));
    if l.cp > 1 {
        parts.push(format!("cp\u{a0}{}", l.cp));
    }
    // A mixture's experts and their layout: runs of one model differ by them.
    if let (Some(e), Some(k)) = (value(K::Experts), value(K::TopK)) {
        parts.push(format!("E\u{a0}=\u{a0}{e}, top-k\u{a0}=\u{a0}{k}, ep\u{a0}{}", l.ep));
        if let Some(etp) = l.etp {
            parts.push(format!("etp\u{a0}{etp}"));
        }
    }
    // The sequence and micro-batch, where the row gives them: runs of one model and layout differ by them.
    if let (Some(sq), Some(b)) = (value(K::SeqLen), value(K::MicroBatch)) {
        parts.push(format!("s·b\u{a0}=\u{a0}{sq}·{b}"));
    }
    if vpp > 1 {
        parts.push(format!("v\u{a0}=\u{a0}{vpp}"));
    }
    for k in TOLD {
        // Only what differs from this convention's default: flash under megatron is the default, stored scores are news.
        match (k, value(k)) {
            (K::Attention, Some(v)) if v == "flash" => {}
            (K::Attention, Some(_)) => parts.push(crate::i18n::tr(lang, "validation-scores-stored").to_string()),
            (K::SequenceParallel, Some(v)) if v == "0" => {}
            (_, Some(v)) => parts.push(change_text(lang, k, &v)),
            (_, None) => {}
        }
    }
    parts.join(", ")
}

/// An error as every table here shows it: signed, one decimal, a true minus sign.
/// A row's error: one decimal, two under 1 % (a file's −0.02 % is not "−0.0 %").
fn error_text(e: f64) -> String {
    let pct = 100.0 * e;
    let text = if pct.abs() < 1.0 { format!("{pct:+.2}%") } else { format!("{pct:+.1}%") };
    text.replace('-', "−")
}

/// A row's note on what the calculator knowingly leaves out, in the page's language.
fn gap_note(ctx: Ctx, key: String) -> impl IntoView {
    view! { <span class="detail gap">" "{move || ctx.t(&key)}</span> }
}

/// A table's header row: each column's text key, and whether it holds numbers.
fn head(columns: &'static [(&'static str, bool)]) -> impl IntoView {
    let cells = columns.iter().map(|&(key, num)| view! { <th scope="col" class:num=num><Tr key=key /></th> });
    view! { <thead><tr>{cells.collect_view()}</tr></thead> }
}

/// One table of "How close is this to reality?": its title and intro (text
/// keys), its summary line where it has one (its test id and text), and the
/// table under its header.
fn table_section(
    (title, intro): (&'static str, &'static str),
    summary: Option<(&'static str, Signal<String>)>,
    testid: &'static str,
    columns: &'static [(&'static str, bool)],
    body: impl IntoView + 'static,
) -> impl IntoView {
    view! {
        <h3><Tr key=title /></h3>
        <p class="detail"><Tr key=intro /></p>
        {summary.map(|(id, text)| view! { <p data-testid=id>{text}</p> })}
        <div class="table-scroll">
            <table class="breakdown" data-testid=testid>
                {head(columns)}
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

/// Which rank the figure is from, and the stage the calculator gives for it.
fn rank_text(ctx: Ctx, r: &Checked) -> String {
    let stage = ctx.t("stage");
    let l = r.layout;
    match (l.pp, r.row.rank) {
        (1, Rank::Peak) if l.tp * l.dp * l.cp == 1 => ctx.t("validation-rank-one").to_string(),
        (1, Rank::Peak) => ctx.t("validation-rank-max").to_string(),
        (1, _) => ctx.t("validation-rank-any").to_string(),
        (p, Rank::Peak) => format!("{} ({stage} {}/{p})", ctx.t("validation-rank-max"), r.stage + 1),
        (p, Rank::Stage(_)) => format!("{stage} {}/{p}", r.stage + 1),
    }
}

/// The chart's points: (measured, predicted, colour, setup partly inferred).
type Dot = (f64, f64, usize, bool);

fn draw(text: &mut Svg, dots: &[Dot], unit: ByteUnit, names: (&str, &str)) {
    let (w, h, em) = (text.width, text.height, text.em);
    let lo = dots.iter().flat_map(|d| [d.0, d.1]).fold(f64::INFINITY, f64::min) / 1.4;
    let hi = dots.iter().flat_map(|d| [d.0, d.1]).fold(0.0, f64::max) * 1.4;
    if !(lo > 0.0 && hi > lo) {
        return;
    }
    let th = theme();
    let ticks = log_ticks(lo, hi, 6);
    let label = |v: f64| format!("{} {}", tick_number(v / unit.bytes()), unit.symbol());
    let axis_w = ticks.iter().map(|&t| text.width(&label(t))).fold(0.0, f64::max);
    let a = Area { left: axis_w + 0.9 * em, top: 1.6 * em, right: w - 0.9 * em, bottom: h - 3.2 * em };
    let x = |v: f64| log_pos(v, lo, hi, a.left, a.right);
    let y = |v: f64| log_pos(v, lo, hi, a.bottom, a.top);
    let grid = "rgba(128,128,128,0.25)";
    for &t in &ticks {
        text.line((a.left, y(t)), (a.right, y(t)), 1.0, grid);
        text.line((x(t), a.top), (x(t), a.bottom), 1.0, grid);
    }
    // The ±10 % band around y = x, clipped to the square, and the line itself.
    let band = [(lo, lo * 1.1), (hi / 1.1, hi), (hi, hi), (hi, hi * 0.9), (lo / 0.9, lo), (lo, lo)];
    let band: Vec<(f64, f64)> = band.iter().map(|&(u, v)| (x(u), y(v.min(hi)))).collect();
    text.polygon(&band, "rgba(128,128,128,0.18)");
    text.line((x(lo), y(lo)), (x(hi), y(hi)), 1.0, th.fg_css);
    text.polyline(&[(a.left, a.top), (a.left, a.bottom), (a.right, a.bottom)], 1.0, th.fg_css, Dash::Solid);
    for &(m, p, c, inferred) in dots {
        let title = format!("{} → {}", unit.format(tmath::Bytes(m)), unit.format(tmath::Bytes(p)));
        if inferred {
            text.ring(x(m), y(p), 0.38 * em, &css_color(c), &title);
        } else {
            text.dot(x(m), y(p), 0.38 * em, &css_color(c), &title);
        }
    }
    for &t in &ticks {
        text.text(&label(t), a.left - 0.45 * em, y(t), Align::Right, Baseline::Middle, false, th.fg_css);
        text.text(&label(t), x(t), a.bottom + 0.35 * em, Align::Center, Baseline::Top, false, th.fg_css);
    }
    text.text(names.0, (a.left + a.right) / 2.0, h - 0.15 * em, Align::Center, Baseline::Bottom, false, th.fg_css);
    text.text(names.1, a.left, 0.2 * em, Align::Left, Baseline::Top, false, th.fg_css);
}

#[component]
pub fn Validation() -> impl IntoView {
    let ctx = use_ctx();
    let rows: RwSignal<Option<Vec<Checked>>> = RwSignal::new(None);
    let open = move |_| {
        if rows.with_untracked(|r| r.is_none()) {
            rows.set(Some(table()));
        }
    };
    let body = move || {
        rows.get().unwrap_or_default().into_iter().map(|r| {
            // In the page's unit, as every other byte figure.
            let size = move |b: f64| ctx.units().format(tmath::Bytes(b));
            let error = error_text(r.error());
            let th = |key: &'static str| ctx.t(key);
            let link = format!("?{}", r.row.query);
            let run = move || run_text(ctx.lang.get(), &r);
            let rank = rank_text(ctx, &r);
            view! {
                <tr data-testid="validation-row" data-error=r.error().to_string() data-counts=r.counts().to_string()>
                    <th scope="row">
                        <span class="framework">{r.row.framework.name()}</span>" "
                        <a href=link>{run}</a>
                        {r.row.inferred.then(|| view! { <span class="detail">" "<Tr key="validation-inferred" /></span> })}
                        {r.row.gap.map(|g| gap_note(ctx, format!("validation-gap-{}", g.as_str())))}
                    </th>
                    // data-label: the column's name, shown beside the value where rows become cards (phones).
                    <td data-label=th("validation-metric")><a href=r.row.source target="_blank" rel="noopener">{ctx.t(metric_key(r.row.metric))}</a></td>
                    <td data-label=th("validation-rank")>{rank}</td>
                    <td class="num" data-label=th("validation-published")>{move || size(r.published)}</td>
                    <td class="num" data-label=th("validation-predicted")>{move || size(r.predicted)}</td>
                    <td class="num" class:warn=!r.within() data-label=th("validation-error")>{error}</td>
                </tr>
            }
        }).collect_view()
    };
    let summary = move || {
        rows.with(|r| {
            r.as_ref().map(|r| {
                let counted = r.iter().filter(|c| c.counts()).count();
                let measured = r.iter().filter(|c| matches!(c.row.published, Published::Measured(_))).count();
                crate::i18n::validation_summary(ctx.lang.get(), measured, counted, median_error(r), MEDIAN_LIMIT)
            })
        })
    };
    let dots = Memo::new(move |_| {
        rows.with(|r| {
            r.iter()
                .flatten()
                .filter(|c| matches!(c.row.published, Published::Measured(_)))
                .map(|c| (c.published, c.predicted, framework_color(c.row.framework), c.row.inferred))
                .collect::<Vec<Dot>>()
        })
    });
    let label = Signal::derive(move || ctx.t("validation-chart").to_string());
    let chart = chart_view(ChartSize::Fixed(360.0), FontSize::Px(10.5), "validation-chart", label, move |svg| {
        let unit = ctx.units();
        let names = (ctx.t("validation-axis-measured"), ctx.t("validation-axis-predicted"));
        dots.with(|d| draw(svg, d, unit, names));
    });
    let legend = move || {
        FRAMEWORKS
            .iter()
            .map(|&f| {
                view! {
                    <li><span class="swatch" style=format!("background:{}", css_color(framework_color(f))) aria-hidden="true"></span>{f.name()}</li>
                }
            })
            .collect_view()
    };
    view! {
        <details class="validation" data-testid="validation" on:toggle=open>
            <summary><Tr key="validation-title" /></summary>
            <p class="detail"><Tr key="validation-intro" /></p>
            <p data-testid="validation-summary">{summary}</p>
            {chart}
            <ul class="chart-legend">
                {legend}
                <li><Tr key="validation-legend-hollow" /></li>
                <li><Tr key="validation-legend-band" /></li>
            </ul>
            <div class="table-scroll">
                <table class="breakdown">
                    {head(&[
                        ("validation-run", false),
                        ("validation-metric", false),
                        ("validation-rank", false),
                        ("validation-published", true),
                        ("validation-predicted", true),
                        ("validation-error", true),
                    ])}
                    <tbody>{body}</tbody>
                </table>
            </div>
            // Computed when opened, as the table above: nothing of it on the page's first paint.
            {move || rows.with(|r| r.is_some()).then(|| view! { <Throughput /> <Finetuning /> <Serving /> })}
        </details>
    }
}

/// The step time against measured throughput (`tmath::throughput`): Megatron-LM's
/// runs at the default rate (the shape's), eager stacks' at the rate their anchor,
/// the same software on the same GPU, achieved.
#[component]
fn Throughput() -> impl IntoView {
    let ctx = use_ctx();
    let rows = tmath::throughput::table();
    let summary = {
        let counted = rows.iter().filter(|r| r.counts()).count();
        let default = rows.iter().filter(|r| r.row.rate == Rate::Default).count();
        let median = tmath::throughput::median_error(&rows);
        // Whole published runs at the GPU's default rate: GPU-hours against theirs.
        let whole: Vec<(&'static str, f64, f64)> = tmath::throughput::WHOLE_RUNS
            .iter()
            .filter_map(|w| tmath::throughput::whole_run_hours(w).map(|h| (w.model, h, w.gpu_hours)))
            .collect();
        move || {
            let lang = ctx.lang.get();
            let mut text = crate::i18n::throughput_summary(lang, counted, default, median);
            for &(model, hours, published) in &whole {
                text.push(' ');
                text +=
                    &crate::i18n::whole_run_summary(lang, model, hours, published, tmath::throughput::WHOLE_RUN_LIMIT);
            }
            text
        }
    };
    let body = rows
        .into_iter()
        .map(|r| {
            let th = |key: &'static str| ctx.t(key);
            let run = move || run_words(ctx.lang.get(), r.row.model, r.row.query, r.layout, r.layout.vpp);
            let whole = |x: f64| tmath::units::group_thousands(&format!("{:.0}", x));
            let tau = format!("{:.0}\u{a0}({:.0}\u{a0}%)", r.tau / 1e12, 100.0 * r.peak_share);
            // An anchor's 0.0 % is not "−0.0 %".
            let e = if r.error().abs() < 5e-4 { 0.0 } else { r.error() };
            let error = error_text(e);
            view! {
                <tr data-testid="throughput-row" data-error=r.error().to_string() data-counts=r.counts().to_string()>
                    <th scope="row">
                        <span class="framework">{r.row.stack.name()}</span>" "
                        <a href=format!("?{}", r.row.query)>{run}</a>
                        {match r.row.rate {
                            Rate::Anchor => Some(view! { <span class="detail">" "<Tr key="throughput-anchor" /></span> }),
                            Rate::Default => Some(view! { <span class="detail">" "<Tr key="throughput-default" /></span> }),
                            Rate::Of(_) => None,
                        }}
                    </th>
                    <td class="num" data-label=th("throughput-gpus")>{r.layout.gpus()}</td>
                    <td class="num" data-label=th("throughput-tau")>{tau}</td>
                    <td class="num" data-label=th("throughput-measured")>
                        <a href=r.row.source target="_blank" rel="noopener">{whole(r.row.measured)}</a>
                    </td>
                    <td class="num" data-label=th("validation-predicted")>{whole(r.predicted)}</td>
                    <td class="num" class:warn=!r.within() data-label=th("validation-error")>{error}</td>
                </tr>
            }
        })
        .collect_view();
    table_section(
        ("throughput-title", "throughput-intro"),
        Some(("throughput-summary", Signal::derive(summary))),
        "throughput",
        &[
            ("validation-run", false),
            ("throughput-gpus", true),
            ("throughput-tau", true),
            ("throughput-measured", true),
            ("validation-predicted", true),
            ("validation-error", true),
        ],
        body,
    )
}

/// Fine-tuning against measured runs (`tmath::finetune_validation`): full, LoRA
/// and QLoRA peaks with their counters.
#[component]
fn Finetuning() -> impl IntoView {
    use tmath::finetune_validation as fv;
    let ctx = use_ctx();
    let rows = fv::table();
    let summary = {
        let counted = rows.iter().filter(|r| fv::counts(r)).count();
        let (n, median) = (rows.len(), fv::median_error(&rows));
        move || {
            crate::i18n::finetune_validation_summary(
                ctx.lang.get(),
                n,
                counted,
                median,
                fv::MEDIAN_LIMIT,
                fv::ROW_LIMIT,
            )
        }
    };
    let body = rows
        .into_iter()
        .map(|r| {
            let th = |key: &'static str| ctx.t(key);
            let size = move |b: f64| ctx.units().format(tmath::Bytes(b));
            let run = move || {
                let lang = ctx.lang.get();
                let words = run_words(lang, r.row.model, r.row.query, r.layout, r.layout.vpp);
                format!("{words}, {}", crate::i18n::finetune_words(lang, r.row.query))
            };
            let within = r.error().abs() <= fv::ROW_LIMIT || r.row.gap.is_some() || r.row.inferred;
            view! {
                <tr
                    data-testid="finetune-row"
                    data-error=r.error().to_string()
                    data-counts=fv::counts(&r).to_string()
                >
                    <th scope="row">
                        <span class="framework">{r.row.framework.name()}</span>" "
                        <a href=format!("?{}", r.row.query)>{run}</a>
                        {r.row.inferred.then(|| view! { <span class="detail">" "<Tr key="validation-inferred" /></span> })}
                        {r.row.gap.map(|g| gap_note(ctx, format!("validation-gap-{}", g.as_str())))}
                    </th>
                    <td data-label=th("validation-metric")>
                        <a href=r.row.source target="_blank" rel="noopener">{ctx.t(metric_key(r.row.metric))}</a>
                    </td>
                    <td class="num" data-label=th("validation-published")>{move || size(r.published)}</td>
                    <td class="num" data-label=th("validation-predicted")>{move || size(r.predicted)}</td>
                    <td class="num" class:warn=!within data-label=th("validation-error")>{error_text(r.error())}</td>
                </tr>
            }
        })
        .collect_view();
    table_section(
        ("finetune-validation-title", "finetune-validation-intro"),
        Some(("finetune-validation-summary", Signal::derive(summary))),
        "finetune-validation",
        &[
            ("validation-run", false),
            ("validation-metric", false),
            ("validation-published", true),
            ("validation-predicted", true),
            ("validation-error", true),
        ],
        body,
    )
}

/// A serving run in words: the model, the GPU, the weights' format, the
/// replica (t·p), the batch, the cache's type where not the weights', and the lengths.
fn serving_words(lang: Lang, model: &str, query: &str) -> String {
    let pairs = tmath::link::parse_query(query);
    let value = |k: K| pairs.iter().find(|(key, _)| key == k.row().name).map(|(_, v)| v.clone());
    let one = || "1".to_string();
    let mut parts = vec![model.to_string()];
    if let Some(g) = value(K::Gpu).and_then(|g| tmath::catalog::gpu(&g)) {
        parts.push(g.short_label().to_string());
    }
    parts.push(value(K::InferenceDtype).unwrap_or_else(|| "fp16".into()));
    parts.push(format!(
        "t·p\u{a0}=\u{a0}{}·{}",
        value(K::ServeTp).unwrap_or_else(one),
        value(K::ServePp).unwrap_or_else(one)
    ));
    if let Some(b) = value(K::Batch) {
        parts.push(match lang {
            Lang::En => format!("batch\u{a0}{b}"),
            Lang::Ko => format!("배치\u{a0}{b}"),
        });
    }
    if let Some(kv) = value(K::KvDtype) {
        parts.push(format!("KV\u{a0}{kv}"));
    }
    if let (Some(p), Some(o)) = (value(K::PromptTokens), value(K::OutputTokens)) {
        parts.push(match lang {
            Lang::En => format!("{p}\u{a0}+\u{a0}{o}\u{a0}tokens"),
            Lang::Ko => format!("{p}\u{a0}+\u{a0}{o}\u{a0}토큰"),
        });
    }
    parts.join(", ")
}

/// Serving against measured runs (`tmath::serving_validation`): time per token
/// and to the first token, then the KV pool against vLLM's startup logs.
#[component]
fn Serving() -> impl IntoView {
    use tmath::serving_validation as sv;
    let ctx = use_ctx();
    let rows = sv::table();
    let summary = {
        let counted = rows.iter().filter(|r| r.counts()).count();
        let ones = rows.iter().filter(|r| r.counts() && r.batch_one_decode).count();
        let median = sv::median_error(&rows, |_| true);
        let one = sv::median_error(&rows, |r| r.batch_one_decode);
        let n = rows.len();
        move || crate::i18n::serving_validation_summary(ctx.lang.get(), n, counted, median, ones, one)
    };
    let ms = |x: f64| format!("{} ms", crate::i18n::grouped_sig(x * 1e3));
    let body = rows
        .into_iter()
        .map(|r| {
            let th = |key: &'static str| ctx.t(key);
            let run = move || serving_words(ctx.lang.get(), r.row.model, r.row.query);
            let measure = format!("serving-measure-{}", r.row.measure.as_str());
            view! {
                <tr data-testid="serving-validation-row" data-error=r.error().to_string() data-counts=r.counts().to_string()>
                    <th scope="row">
                        <span class="framework">{r.row.engine.name()}" "{r.row.version}</span>" "
                        <a href=format!("?{}", r.row.query)>{run}</a>
                        {r.row.inferred.then(|| view! { <span class="detail">" "<Tr key="validation-inferred" /></span> })}
                        {r.row.gap.map(|g| gap_note(ctx, format!("serving-gap-{}", g.as_str())))}
                    </th>
                    <td data-label=th("serving-validation-measure")>
                        <a href=r.row.source target="_blank" rel="noopener">{move || ctx.t(&measure)}</a>
                    </td>
                    <td class="num" data-label=th("validation-published")>{ms(r.row.measured)}</td>
                    <td class="num" data-label=th("validation-predicted")>{ms(r.predicted)}</td>
                    <td class="num" class:warn=!r.within() data-label=th("validation-error")>{error_text(r.error())}</td>
                </tr>
            }
        })
        .collect_view();
    let tokens = |x: f64| tmath::units::group_thousands(&format!("{x:.0}"));
    let pools = sv::pool_table()
        .into_iter()
        .map(|r| {
            let th = |key: &'static str| ctx.t(key);
            let run = move || serving_words(ctx.lang.get(), r.row.model, r.row.query);
            view! {
                <tr
                    data-testid="serving-pool-row"
                    data-error=r.error().to_string()
                    data-concurrency-error=r.concurrency_error().to_string()
                >
                    <th scope="row">
                        <span class="framework">"vLLM "{r.row.version}</span>" "
                        <a href=format!("?{}", r.row.query)>{run}</a>
                        {r.row.gap.map(|g| gap_note(ctx, format!("serving-gap-{}", g.as_str())))}
                    </th>
                    <td class="num" data-label=th("serving-pool-log")>
                        <a href=r.row.source target="_blank" rel="noopener">{tokens(r.row.tokens)}</a>
                    </td>
                    <td class="num" data-label=th("validation-predicted")>{tokens(r.tokens)}</td>
                    <td class="num" class:warn=!r.within() data-label=th("validation-error")>{error_text(r.error())}</td>
                    <td class="num" data-label=th("serving-pool-users-log")>{format!("{:.2}×", r.row.concurrency)}</td>
                    <td class="num" data-label=th("serving-pool-users")>{format!("{:.2}×", r.concurrency)}</td>
                    <td class="num" class:warn=!r.within() data-label=th("validation-error")>{error_text(r.concurrency_error())}</td>
                </tr>
            }
        })
        .collect_view();
    let files = sv::file_table();
    let file_summary = {
        let median = sv::file_median_error(&files);
        let n = files.len();
        move || crate::i18n::file_validation_summary(ctx.lang.get(), n, median, sv::FILE_MEDIAN_LIMIT, sv::FILE_LIMIT)
    };
    let size = move |x: f64, exact: bool| {
        if exact {
            format!("{}\u{a0}B", tmath::units::group_thousands(&format!("{x:.0}")))
        } else {
            ctx.units().format(tmath::Bytes(x))
        }
    };
    let file_rows = files
        .into_iter()
        .map(|r| {
            let th = |key: &'static str| ctx.t(key);
            let format = r.row.format();
            let format = move || crate::i18n::choice_text(ctx.lang.get(), tmath::keys::K::InferenceDtype, format);
            view! {
                <tr data-testid="serving-file-row" data-error=r.error().to_string() data-bytes=r.bytes.to_string()>
                    <th scope="row">
                        <a href=r.row.url() target="_blank" rel="noopener"><cite>{r.row.repo}</cite></a>
                        <span class="detail">" "<code>{r.row.file}</code></span>
                    </th>
                    <td data-label=th("serving-file-format")>
                        <a href=format!("?{}", r.row.query)><cite>{r.row.model}</cite>", "{format}</a>
                    </td>
                    <td class="num" data-label=th("validation-published")>{size(r.row.bytes, r.row.exact)}</td>
                    <td class="num" data-label=th("validation-predicted")>{size(r.bytes, r.row.exact)}</td>
                    <td class="num" class:warn=!r.within() data-label=th("validation-error")>{error_text(r.error())}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        {table_section(
            ("serving-validation-title", "serving-validation-intro"),
            Some(("serving-validation-summary", Signal::derive(summary))),
            "serving-validation",
            &[
                ("serving-validation-run", false),
                ("serving-validation-measure", false),
                ("validation-published", true),
                ("validation-predicted", true),
                ("validation-error", true),
            ],
            body,
        )}
        {table_section(
            ("serving-pool-title", "serving-pool-intro"),
            None,
            "serving-pool",
            &[
                ("serving-validation-run", false),
                ("serving-pool-log", true),
                ("validation-predicted", true),
                ("validation-error", true),
                ("serving-pool-users-log", true),
                ("serving-pool-users", true),
                ("validation-error", true),
            ],
            pools,
        )}
        {table_section(
            ("serving-file-title", "serving-file-intro"),
            Some(("serving-file-summary", Signal::derive(file_summary))),
            "serving-files",
            &[
                ("serving-file-file", false),
                ("serving-file-format", false),
                ("validation-published", true),
                ("validation-predicted", true),
                ("validation-error", true),
            ],
            file_rows,
        )}
    }
}
