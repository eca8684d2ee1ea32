//! The planner: the fewest GPUs that can train this model and the fastest
//! layouts on the current N, in a sortable table; a row applies its layout.

use super::Mode;
use crate::ctx::use_ctx;
use crate::fields::Field;
use crate::layout::PLANNER_OPTIONS;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::planner::{plan, sort, Order, Plan};
use tmath::units::format_sig;

#[component]
pub fn PlannerView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    // Rows shown: the fastest that fit.
    let rows_shown = if mode == Mode::Page { 25 } else { 8 };
    let sort_by = RwSignal::new(Order::Speed);
    // On the full page it follows the settled result (the search waits until
    // input pauses); alone, it is the view and searches at once.
    let base = Memo::new(move |_| match mode {
        Mode::Page => ctx.settled.get(),
        _ => Some(ctx.shown.get()),
    });
    // How many times the search ran: a test checks that what does not feed it
    // (a keystroke in the float explorer, the unit) never runs it.
    let runs = StoredValue::new(0u32);
    let report = Memo::new(move |_| {
        runs.update_value(|n| *n += 1);
        // The serving tab hides the layouts: no search for them while it shows.
        if ctx.plan.with(|o| o.serve) {
            return None;
        }
        base.with(|r| r.as_ref().map(|r| ctx.plan.with(|o| plan(&r.config, o, Some(r.config.layout.gpus())))))
    });
    let ready = move || report.with(|r| r.is_some());
    let report = Signal::derive(move || {
        report.get().unwrap_or_else(|| tmath::planner::PlanReport {
            min_gpus: None,
            gpus: 0,
            layouts: Vec::new(),
            none: None,
        })
    });
    let rows = move || {
        let mut fitting: Vec<Plan> =
            report.with(|r| r.layouts.iter().filter(|l| l.fits).take(rows_shown).cloned().collect());
        sort(&mut fitting, sort_by.get());
        fitting
    };
    // A sortable column's header: `label` as is, or translated as a key.
    let header = move |label: &'static str, translated: bool, by: Order| {
        view! {
            <th scope="col" aria-sort=move || if sort_by.get() == by { "ascending" } else { "none" }>
                <button type="button" class="sort" on:click=move |_| sort_by.set(by)>
                    {move || if translated { ctx.t(label) } else { label }}
                </button>
            </th>
        }
    };
    let use_min = move |_| {
        let base = ctx.shown.with_untracked(|r| r.config.clone());
        let opts = ctx.plan.get_untracked();
        if let Some(first) = plan(&base, &opts, None).layouts.into_iter().find(|l| l.fits) {
            ctx.set_all(&first.to_pairs());
        }
    };
    let serve = move || ctx.plan.with(|o| o.serve);
    view! {
            {(mode == Mode::Page).then(|| view! {
                <details class="plan-options">
                    <summary><Tr key="plan-assumptions" /></summary>
                    <div class="grid2">
                        {PLANNER_OPTIONS.iter().map(|&k| view! { <Field key=k /> }).collect_view()}
                    </div>
                </details>
            })}
            <Show when=serve>
                <ServePlanner />
            </Show>
            <div hidden=serve>
            // Follows the search's inputs (a memo that recomputes to an equal value notifies no one).
            <span hidden data-testid="planner-runs" data-runs=move || {
                base.track();
                ctx.plan.track();
                report.track();
                runs.get_value().to_string()
            }></span>
            <Show when=ready fallback=move || view! { <p class="detail">"…"</p> }>
            <p data-testid="min-gpus" data-gpus=move || report.with(|r| r.min_gpus.map_or(0, |n| n).to_string())>
                <Tr key="min-gpus" /> ": "
                <strong>
                    {move || {
                        report.with(|r| match r.min_gpus {
                            Some(n) => n.to_string(),
                            None => format!("> {}", ctx.plan.with(|o| o.max_gpus)),
                        })
                    }}
                </strong>
                " "
                <button type="button" on:click=use_min disabled=move || report.with(|r| r.min_gpus.is_none())>
                    <Tr key="use-min" />
                </button>
            </p>
            </Show>
            <p class="detail">
                {move || {
                    let (reserve, fragmentation, intra, inter, cp, g) = base.with(|r| {
                        r.as_ref().map_or((0.0, 0.0, 0.0, 0.0, 1, 0), |r| {
                            let c = &r.config;
                            (
                                c.system.reserve_bytes / 1e9,
                                c.system.fragmentation * 100.0,
                                c.system.intra_node_bytes_per_s / 1e9,
                                c.system.inter_node_bytes_per_s / 1e9,
                                c.layout.cp,
                                c.global_batch,
                            )
                        })
                    });
                    // Context parallelism kept as given (`keep-cp`): every layout below is t·p·d of N/cp.
                    let cp = if cp > 1 && ctx.plan.with(|o| o.keep_cp) {
                        format!(" · cp\u{a0}=\u{a0}{cp} (N\u{a0}=\u{a0}t·p·cp·d)")
                    } else {
                        String::new()
                    };
                    format!(
                        "{} {}\u{a0}GB + {}% · {} G\u{a0}=\u{a0}{} · NVLink\u{a0}{}\u{a0}GB/s · InfiniBand\u{a0}{}\u{a0}GB/s{cp}",
                        ctx.t("reserve"),
                        reserve,
                        fragmentation,
                        ctx.t("global-batch-label"),
                        crate::i18n::grouped_sig(g as f64),
                        intra,
                        inter,
                    )
                }}
            </p>
            <div class="table-wrap" hidden=move || report.with(|r| !r.layouts.iter().any(|l| l.fits))>
                <table class="layouts" data-testid="layouts">
                    <caption>
                        {move || format!("{} N\u{a0}=\u{a0}{}", ctx.t("fastest-on"), ctx.shown.with(|r| r.config.layout.gpus()))}
                    </caption>
                    <thead>
                        <tr>
                            {header("t", false, Order::Tp)}
                            {header("p", false, Order::Pp)}
                            <th scope="col">"cp"</th>
                            {header("d", false, Order::Dp)}
                            {header("ZeRO", false, Order::Zero)}
                            <th scope="col"><Tr key="recompute-short" /></th>
                            <th scope="col"><Tr key="sp-short" /></th>
                            <th scope="col">"b × m"</th>
                            {header("mem-per-gpu", true, Order::Memory)}
                            {header("s-per-step", true, Order::Speed)}
                            <th scope="col"></th>
                        </tr>
                    </thead>
                    <tbody>
                        {move || {
                            let u = ctx.units();
                            rows()
                                .into_iter()
                                .map(|l| {
                                    let pairs = l.to_pairs();
                                    view! {
                                        <tr data-bytes=l.needed_bytes.to_string()>
                                            <td>{l.tp}</td>
                                            // Interleaved: p stages of v virtual stages each ("16 (v 5)").
                                            <td>{if l.vpp > 1 { format!("{} (v\u{a0}{})", l.pp, l.vpp) } else { l.pp.to_string() }}</td>
                                            <td>{l.cp}</td>
                                            <td>{l.dp}</td>
                                            <td>{l.zero.get()}</td>
                                            <td>{ctx.t(l.recompute.as_str())}</td>
                                            <td>{if l.sequence_parallel { "✓" } else { "–" }}</td>
                                            <td>{format!("{} × {}", l.micro_batch, l.grad_accum)}</td>
                                            <td class="num">{u.format(tmath::Bytes(l.needed_bytes))}</td>
                                            <td class="num">{format_sig(l.step_seconds)}</td>
                                            <td>
                                                <button type="button" on:click=move |_| ctx.set_all(&pairs)>
                                                    <Tr key="apply" />
                                                </button>
                                            </td>
                                        </tr>
                                    }
                                })
                                .collect_view()
                        }}
                    </tbody>
                </table>
            </div>
            <p class="detail" data-testid="no-layout" hidden=move || report.with(|r| r.none.is_none())>
                {move || report.with(|r| r.none.map(|why| crate::i18n::no_layout(ctx.lang.get(), why, ctx.units())))}
            </p>
            // Nothing fits on these GPUs: what would, each with its verdict and one click.
            <crate::panels::memory::Remedies remedies=Signal::derive(move || {
                let nothing = report.with(|r| !r.layouts.iter().any(|l| l.fits));
                if !nothing || serve() {
                    return Vec::new();
                }
                base.with(|r| {
                    r.as_ref().map(|r| ctx.plan.with(|o| tmath::remedy::for_layouts(&r.config, o, r.config.layout.gpus()))).unwrap_or_default()
                })
            }) />
            </div>
    }
}

/// The serving tab (`serve=1`): the replicas that serve `batch` users within
/// the targets, cheapest per million output tokens first (`tmath plan --serve`);
/// a row applies its replica, its format and its users.
#[component]
fn ServePlanner() -> impl IntoView {
    let ctx = use_ctx();
    let report = Memo::new(move |_| ctx.settings.with(|s| ctx.plan.with(|o| tmath::serve_plan::plan(s, o))));
    let ms = |x: f64| crate::i18n::grouped_sig(x * 1e3);
    view! {
        <p class="detail" data-testid="serve-plan-summary">
            {move || report.with(|r| crate::i18n::serve_plan_summary(
                ctx.lang.get(),
                r.users,
                r.replicas.iter().filter(|x| x.miss.is_none()).count(),
                r.max_tpot_seconds.map(|t| t * 1e3),
                r.max_ttft_seconds.map(|t| t * 1e3),
            ))}
        </p>
        <div class="table-wrap">
            <table class="layouts" data-testid="serve-plan">
                <thead>
                    <tr>
                        <th scope="col">"t"</th>
                        <th scope="col">"p"</th>
                        <th scope="col"><Tr key="serve-plan-format" /></th>
                        <th scope="col" class="num"><Tr key="serve-plan-users" /></th>
                        <th scope="col" class="num"><Tr key="serve-plan-gpus" /></th>
                        <th scope="col" class="num"><Tr key="serve-plan-ttft" /></th>
                        <th scope="col" class="num"><Tr key="serve-plan-tpot" /></th>
                        <th scope="col" class="num"><Tr key="serve-plan-usd" /></th>
                        <th scope="col"></th>
                    </tr>
                </thead>
                <tbody>
                    {move || report.with(|r| r.replicas.iter().filter(|x| x.miss.is_none()).take(12).map(|x| {
                        let pairs = x.to_pairs();
                        let v = &x.serving;
                        view! {
                            <tr data-testid="serve-plan-row" data-usd=v.usd_per_million_output_tokens.to_string()>
                                <td data-label="t">{x.serve_tp}</td>
                                <td data-label="p">{x.serve_pp}</td>
                                <td data-label=ctx.t("serve-plan-format")>
                                    {crate::i18n::choice_text(ctx.lang.get_untracked(), tmath::keys::K::InferenceDtype, x.format.as_str())}
                                </td>
                                <td class="num" data-label=ctx.t("serve-plan-users")>{x.users_per_replica}</td>
                                <td class="num" data-label=ctx.t("serve-plan-gpus")>{x.gpus}</td>
                                <td class="num" data-label=ctx.t("serve-plan-ttft")>{ms(v.ttft_seconds)}</td>
                                <td class="num" data-label=ctx.t("serve-plan-tpot")>{ms(v.tpot_seconds)}</td>
                                <td class="num" data-label=ctx.t("serve-plan-usd")>{format!("${}", crate::i18n::grouped_sig(v.usd_per_million_output_tokens))}</td>
                                <td>
                                    <button type="button" on:click=move |_| ctx.set_all(&pairs)>
                                        <Tr key="apply" />
                                    </button>
                                </td>
                            </tr>
                        }
                    }).collect_view())}
                </tbody>
            </table>
        </div>
    }
}
