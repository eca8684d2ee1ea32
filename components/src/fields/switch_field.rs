//! A checkbox for a switch key (`sequence-parallel`, `partition-activations`, `tsp`).

use super::field_notes::FieldNotes;
use crate::ctx::use_ctx;
use crate::i18n;
use leptos::prelude::*;
use tmath::keys::K;

#[component]
pub fn SwitchField(
    /// The key this control sets.
    key: K,
) -> impl IntoView {
    let ctx = use_ctx();
    let on = Memo::new(move |_| ctx.value(key) == "1");
    let id = format!("f-{}", key.name());
    let notes_id = format!("n-{}", key.name());
    view! {
        <div class="field switch" data-field=key.name()>
            <input
                id=id.clone()
                name=key.name()
                type="checkbox"
                aria-describedby=notes_id.clone()
                prop:checked=move || on.get()
                on:change=move |ev| ctx.set(key, if event_target_checked(&ev) { "1" } else { "0" })
            />
            <label for=id>{move || i18n::label(ctx.lang.get(), key)}</label>
            <FieldNotes key=key id=notes_id />
        </div>
    }
}
