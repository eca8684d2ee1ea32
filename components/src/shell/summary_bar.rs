//! The headline figures in one line that stays at the top of the window: memory
//! per GPU against the GPU's capacity with the verdict, training compute, days
//! and cost. It keeps the result in view while the controls scroll (a phone
//! puts the charts below them), and it is what the page paints first: the
//! panels mount a frame later (see `app.rs`).

use crate::bind::text;
use crate::ctx::use_ctx;
use crate::panels::compute::{cost_text, flops_text};
use crate::panels::memory::verdict;
use crate::tr::Tr;
use leptos::prelude::*;

#[component]
pub fn SummaryBar() -> impl IntoView {
    let ctx = use_ctx();
    let r = ctx.shown;
    let fits = move || r.with(|r| r.fits());
    // Element Timing reports when this is painted: the benchmark's "first result
    // on screen". Text counts for its nearest block, so the mark is on the flex item.
    let memory = view! {
        <span class="memory" class:ok=fits class:bad=move || !fits()>
            <span class="k"><Tr key="total" /></span>
            " "
            <b>{text(move || ctx.units().format(r.with(|r| r.per_gpu.total())))}</b>
            " / "
            {text(move || ctx.units().format(r.with(|r| r.gpu_mem())))}
            " "
            // The amount goes on a phone, where the line would wrap to a fourth line.
            {text(move || verdict(ctx).split_once(" — ").map_or_else(|| verdict(ctx), |(word, _)| word.to_string()))}
            <span class="amount">
                {text(move || verdict(ctx).split_once(" — ").map(|(_, amount)| format!(" — {amount}")).unwrap_or_default())}
            </span>
        </span>
    }
    .attr("elementtiming", "first-result");
    // The warnings that change the verdict's meaning, counted beside it.
    let qualifiers = Memo::new(move |_| crate::panels::memory::qualifiers(ctx));
    view! {
        <section class="summary" class:stale=move || ctx.stale() data-testid="summary" aria-label=move || ctx.t("summary")>
            <Show when=move || ctx.stale()>
                <span class="stale-mark" data-testid="stale"><Tr key="stale-short" /></span>
            </Show>
            {memory}
            <Show when=move || qualifiers.with(|q| !q.is_empty())>
                <span class="warn-count" data-testid="warning-count" title=move || qualifiers.get().join("\n")>
                    {move || format!("⚠ {}", crate::i18n::warnings_count(ctx.lang.get(), qualifiers.with(Vec::len)))}
                </span>
            </Show>
            <span>
                <span class="k"><Tr key="flops" /></span>
                " "
                <b>{text(move || r.with(flops_text))}</b>
            </span>
            <span>
                <span class="k"><Tr key="days" /></span>
                " "
                <b>{text(move || crate::i18n::grouped_sig(r.with(|r| r.days())))}</b>
            </span>
            <span>
                <span class="k"><Tr key="cost" /></span>
                " "
                <b>{text(move || r.with(cost_text))}</b>
            </span>
        </section>
    }
}
