//! "How close is this to reality": the core's validation table under the
//! memory breakdown, computed when it is opened (it does not follow input:
//! each row is a fixed published run).

use crate::ctx::use_ctx;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::validation::{table, Checked, Metric};

/// The published figure's metric, in the page's language.
fn metric_key(m: Metric) -> &'static str {
    match m {
        Metric::Estimator => "validation-metric-estimator",
        Metric::Allocated => "validation-metric-allocated",
        Metric::Reserved => "validation-metric-reserved",
        Metric::NvidiaSmi => "validation-metric-nvidia-smi",
    }
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
            let error = format!("{:+.1}%", 100.0 * r.error()).replace('-', "−");
            let th = |key: &'static str| ctx.t(key);
            let name = format!("validation-{}", r.row.name);
            let link = format!("?{}", r.row.query);
            view! {
                <tr data-testid="validation-row" data-error=r.error().to_string()>
                    <th scope="row">
                        <a href=link>{ctx.t(&name)}</a>
                        {r.row.inferred.then(|| view! { <span class="detail">" "<Tr key="validation-inferred" /></span> })}
                    </th>
                    // data-label: the column's name, shown beside the value where rows become cards (phones).
                    <td data-label=th("validation-metric")><a href=r.row.source target="_blank" rel="noopener">{ctx.t(metric_key(r.row.metric))}</a></td>
                    <td class="num" data-label=th("validation-published")>{move || size(r.published)}</td>
                    <td class="num" data-label=th("validation-predicted")>{move || size(r.predicted)}</td>
                    <td class="num" class:warn=!r.within() data-label=th("validation-error")>{error}</td>
                    <td class="num" data-label=th("validation-threshold")>{format!("±{}%", tmath::units::format_short(100.0 * r.row.threshold))}</td>
                </tr>
            }
        }).collect_view()
    };
    view! {
        <details class="validation" data-testid="validation" on:toggle=open>
            <summary><Tr key="validation-title" /></summary>
            <p class="detail"><Tr key="validation-intro" /></p>
            <div class="table-scroll">
                <table class="breakdown">
                    <thead>
                        <tr>
                            <th scope="col"><Tr key="validation-run" /></th>
                            <th scope="col"><Tr key="validation-metric" /></th>
                            <th scope="col" class="num"><Tr key="validation-published" /></th>
                            <th scope="col" class="num"><Tr key="validation-predicted" /></th>
                            <th scope="col" class="num"><Tr key="validation-error" /></th>
                            <th scope="col" class="num"><Tr key="validation-threshold" /></th>
                        </tr>
                    </thead>
                    <tbody>{body}</tbody>
                </table>
            </div>
        </details>
    }
}
