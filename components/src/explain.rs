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
    // Worked out only while open: a closed formula costs nothing per slider step.
    let open = RwSignal::new(false);
    let e = Memo::new(move |_| open.get().then(|| ctx.shown.with(|r| explain(r, item, ctx.units()))));
    let words = move |text: &str| {
        let lang = ctx.lang.get();
        crate::i18n::formula_counts(lang, &tmath::explain::render(text, |w| crate::i18n::formula_word(lang, w)))
    };
    let formula = move || e.with(|e| e.as_ref().map(|e| words(&e.formula)));
    let substituted = move || e.with(|e| e.as_ref().map(|e| format!("= {}", words(&e.substituted))));
    let sources = move || e.with(|e| e.as_ref().map(|e| crate::i18n::sources(ctx.lang.get(), e.sources)));
    view! {
        <details
            class="explain"
            data-explain=item.as_str()
            on:toggle=move |ev| {
                use wasm_bindgen::JsCast;
                let is_open = ev
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok())
                    .is_some_and(|d| d.open());
                open.set(is_open);
            }
        >
            <summary aria-label=move || ctx.t("explain")>"ƒ"</summary>
            <div class="explain-body">
                <code>{formula}</code>
                <code>{substituted}</code>
                <cite>{sources}</cite>
                {move || e.with(|e| e.as_ref().and_then(|e| e.note)).map(|n| view! { <p class="note">{ctx.t(n)}</p> })}
            </div>
        </details>
    }
}
