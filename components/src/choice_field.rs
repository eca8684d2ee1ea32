//! A select whose `name` is the URL key and whose options are the core's spellings.

use crate::ctx::use_ctx;
use crate::field_notes::FieldNotes;
use crate::tr::Tr;
use leptos::prelude::*;

#[component]
pub fn ChoiceField(
    /// The URL key this control sets.
    key: &'static str,
    /// (value, label) pairs; labels already in the page's language.
    options: Signal<Vec<(String, String)>>,
) -> impl IntoView {
    let ctx = use_ctx();
    let value = Memo::new(move |_| ctx.value(key));
    let id = format!("f-{key}");
    view! {
        <div class="field choice" data-field=key>
            <label for=id.clone()><Tr key=key /></label>
            <select
                id=id
                name=key
                prop:value=move || value.get()
                on:change=move |ev| ctx.set(key, &event_target_value(&ev))
            >
                {move || {
                    let current = value.get();
                    options
                        .get()
                        .into_iter()
                        .map(|(v, label)| {
                            let selected = v == current;
                            view! { <option value=v selected=selected>{label}</option> }
                        })
                        .collect_view()
                }}
            </select>
            <FieldNotes key=key />
        </div>
    }
}
