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
            let gib = |b: f64| format!("{}\u{a0}GiB", tmath::units::format_short(b / 1_073_741_824.0));
            let error = format!("{:+.1}\u{a0}%", 100.0 * r.error());
            let name = format!("validation-{}", r.row.name);
            let link = format!("?{}", r.row.query);
            view! {
                <tr data-testid="validation-row" data-error=r.error().to_string()>
                    <th scope="row">
                        <a href=link>{ctx.t(&name)}</a>
                        {r.row.inferred.then(|| view! { <span class="detail">" "<Tr key="validation-inferred" /></span> })}
                    </th>
                    <td><a href=r.row.source target="_blank" rel="noopener">{ctx.t(metric_key(r.row.metric))}</a></td>
                    <td class="num">{gib(r.published)}</td>
                    <td class="num">{gib(r.predicted)}</td>
                    <td class="num" class:warn=!r.within()>{error}</td>
                    <td class="num">{format!("±{}\u{a0}%", tmath::units::format_short(100.0 * r.row.threshold))}</td>
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
