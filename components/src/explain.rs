//! A number opens to its formula, the values substituted, and its source.

use crate::ctx::use_ctx;
use leptos::prelude::*;
use tmath::explain::{explain, Item};

#[component]
pub fn Explain(
    /// Which number to explain.
    item: Item,
) -> impl IntoView {
    let ctx = use_ctx();
    let e = Memo::new(move |_| ctx.shown.with(|r| explain(r, item, ctx.page.with(|p| p.units))));
    view! {
        <details class="explain" data-explain=format!("{item:?}").to_lowercase()>
            <summary aria-label=move || ctx.t("explain")>"ƒ"</summary>
            <div class="explain-body">
                <code>{move || e.with(|e| e.formula.clone())}</code>
                <code>{move || e.with(|e| format!("= {}", e.substituted))}</code>
                <cite>{move || e.with(|e| e.source)}</cite>
                {move || e.with(|e| e.note).map(|n| view! { <p class="note">{ctx.t(n)}</p> })}
            </div>
        </details>
    }
}
