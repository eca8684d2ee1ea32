//! The planner: the fewest GPUs that can train this model and the fastest
//! layouts on the current N, in a sortable table; a row applies its layout.

use crate::ctx::use_ctx;
use crate::number_field::NumberField;
use crate::switch_field::SwitchField;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::planner::{plan, sort, Order, Plan};
use tmath::units::format_sig;

/// Rows shown: the fastest that fit.
const ROWS: usize = 25;

#[component]
pub fn PlannerPanel() -> impl IntoView {
    let ctx = use_ctx();
    let sort_by = RwSignal::new(Order::Speed);
    // Follows the settled result: the search waits until input pauses.
    let report = Memo::new(move |_| {
        ctx.settled
            .with(|r| r.as_ref().map(|r| ctx.page.with(|p| plan(&r.config, &p.plan, Some(r.config.layout.gpus())))))
    });
    let ready = move || report.with(|r| r.is_some());
    let report = Signal::derive(move || {
        report.get().unwrap_or_else(|| tmath::planner::PlanReport { min_gpus: None, gpus: 0, layouts: Vec::new() })
    });
    let rows = move || {
        let mut fitting: Vec<Plan> = report.with(|r| r.layouts.iter().filter(|l| l.fits).take(ROWS).cloned().collect());
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
        let opts = ctx.page.with_untracked(|p| p.plan.clone());
        if let Some(first) = plan(&base, &opts, None).layouts.into_iter().find(|l| l.fits) {
            ctx.set_all(&first.to_pairs());
        }
    };
    view! {
        <section class="panel planner" data-view="planner" aria-labelledby="h-planner">
            <h2 id="h-planner"><Tr key="section-planner" /></h2>
            <Show when=ready fallback=move || view! { <p class="detail">"…"</p> }>
            <p data-testid="min-gpus" data-gpus=move || report.with(|r| r.min_gpus.map_or(0, |n| n).to_string())>
                <Tr key="min-gpus" /> ": "
                <strong>
                    {move || {
                        report.with(|r| match r.min_gpus {
                            Some(n) => n.to_string(),
                            None => format!("> {}", ctx.page.with(|p| p.plan.max_gpus)),
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
                    ctx.page.with(|p| {
                        format!(
                            "{} {} GB + {}% · G = {} · NVLink {} GB/s · IB {} GB/s",
                            ctx.t("reserve"),
                            p.plan.reserve_bytes / 1e9,
                            p.plan.fragmentation * 100.0,
                            p.plan.global_batch,
                            p.plan.intra_node_bytes_per_s / 1e9,
                            p.plan.inter_node_bytes_per_s / 1e9,
                        )
                    })
                }}
            </p>
            <details class="plan-options">
                <summary><Tr key="plan-assumptions" /></summary>
                <div class="grid2">
                    <NumberField key="global-batch" />
                    <NumberField key="max-gpus" />
                    <NumberField key="reserve-gb" unit="GB" />
                    <NumberField key="fragmentation-pct" unit="%" />
                    <NumberField key="intra-node-gbs" unit="GB/s" />
                    <NumberField key="inter-node-gbs" unit="GB/s" />
                </div>
                <SwitchField key="tp-cross-node" />
            </details>
            <div class="table-wrap">
                <table class="layouts" data-testid="layouts">
                    <caption>
                        {move || format!("{} N = {}", ctx.t("fastest-on"), ctx.shown.with(|r| r.config.layout.gpus()))}
                    </caption>
                    <thead>
                        <tr>
                            {header("t", false, Order::Tp)}
                            {header("p", false, Order::Pp)}
                            {header("d", false, Order::Dp)}
                            {header("ZeRO", false, Order::Zero)}
                            <th scope="col"><Tr key="recompute" /></th>
                            <th scope="col">"SP"</th>
                            <th scope="col">"b × m"</th>
                            {header("GB/GPU", false, Order::Memory)}
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
                                        <tr data-bytes=l.per_gpu_bytes.to_string()>
                                            <td>{l.tp}</td>
                                            <td>{l.pp}</td>
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
            <p class="detail" hidden=move || report.with(|r| r.layouts.iter().any(|l| l.fits))><Tr key="no-layout" /></p>
        </section>
    }
}
