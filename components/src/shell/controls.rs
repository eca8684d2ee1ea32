//! The full page's controls, grouped as the layout table says.

use crate::fields::Field;
use crate::layout::PAGE;
use crate::tr::Tr;
use leptos::prelude::*;

#[component]
pub fn Controls() -> impl IntoView {
    let sections = PAGE
        .iter()
        .map(|s| {
            let rows = s
                .rows
                .iter()
                .map(|row| match row {
                    [k] => view! { <Field key=*k /> }.into_any(),
                    keys => view! { <div class="grid2">{keys.iter().map(|&k| view! { <Field key=k /> }).collect_view()}</div> }
                        .into_any(),
                })
                .collect_view();
            // The shape's fieldset also takes a Hugging Face config.json.
            let hf = (s.legend == "section-shape").then(|| view! { <crate::fields::hf_config::HfConfig /> });
            view! {
                <fieldset>
                    <legend><Tr key=s.legend /></legend>
                    {hf}
                    {rows}
                </fieldset>
            }
        })
        .collect_view();
    view! {
        <div class="controls" data-view="controls">
            {sections}
        </div>
    }
}
