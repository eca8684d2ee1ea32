//! The full page's controls, grouped as the layout table says.

use crate::ctx::use_ctx;
use crate::fields::Field;
use crate::layout::{Section, PAGE};
use crate::tr::Tr;
use leptos::prelude::*;

/// One fieldset. Like a view of the page, its controls follow input while on
/// screen (or within half a screen), else once input pauses (`Ctx::gated`): a
/// slider step on a phone updates the few controls in sight, not all seventy.
#[component]
fn Group(section: &'static Section) -> impl IntoView {
    let ctx = use_ctx();
    let el = NodeRef::<leptos::html::Fieldset>::new();
    let live = RwSignal::new(true);
    let gated = ctx.gated(live);
    super::panel::on_screen(el, live, move || gated.revealed(live));
    // The controls are made below, under the gated context.
    provide_context(gated);
    let rows = section
        .rows
        .iter()
        .map(|row| match row {
            [k] => view! { <Field key=*k /> }.into_any(),
            keys => view! { <div class="grid2">{keys.iter().map(|&k| view! { <Field key=k /> }).collect_view()}</div> }
                .into_any(),
        })
        .collect_view();
    // The shape's fieldset also takes a Hugging Face config.json.
    let hf = (section.legend == "section-shape").then(|| {
        use crate::fields::hf_config::{HfConfig, Source};
        view! { <HfConfig /> <HfConfig source=Source::Megatron /> }
    });
    view! {
        <fieldset node_ref=el data-live="true">
            <legend><Tr key=section.legend /></legend>
            {hf}
            {rows}
        </fieldset>
    }
}

#[component]
pub fn Controls() -> impl IntoView {
    let sections = PAGE.iter().map(|section| view! { <Group section=section /> }).collect_view();
    view! {
        <div class="controls" data-view="controls">
            {sections}
        </div>
    }
}
