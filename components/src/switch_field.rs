//! A checkbox for a switch key (`sequence-parallel`, `partition-activations`, `tsp`).

use crate::ctx::use_ctx;
use crate::field_notes::FieldNotes;
use crate::tr::Tr;
use leptos::prelude::*;

#[component]
pub fn SwitchField(
    /// The URL key this control sets.
    key: &'static str,
) -> impl IntoView {
    let ctx = use_ctx();
    let on = Memo::new(move |_| ctx.value(key) == "1");
    let id = format!("f-{key}");
    view! {
        <div class="field switch" data-field=key>
            <input
                id=id.clone()
                name=key
                type="checkbox"
                prop:checked=move || on.get()
                on:change=move |ev| ctx.set(key, if event_target_checked(&ev) { "1" } else { "0" })
            />
            <label for=id><Tr key=key /></label>
            <FieldNotes key=key />
        </div>
    }
}
