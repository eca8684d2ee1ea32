//! A plain text entry for a text key (the floating-point explorer's value):
//! every keystroke applies, since nothing heavy follows it.

use crate::ctx::use_ctx;
use crate::i18n;
use leptos::prelude::*;
use tmath::keys::K;

#[component]
pub fn TextField(
    /// The key this control sets.
    key: K,
) -> impl IntoView {
    let ctx = use_ctx();
    let value = Memo::new(move |_| ctx.value(key));
    let id = format!("f-{}", key.name());
    view! {
        <div class="field text" data-field=key.name()>
            <label for=id.clone()>{move || i18n::label(ctx.lang.get(), key)}</label>
            <input
                id=id
                name=key.name()
                type="text"
                inputmode="decimal"
                autocomplete="off"
                spellcheck="false"
                prop:value=move || value.get()
                on:input=move |ev| ctx.set(key, &event_target_value(&ev))
            />
        </div>
    }
}
