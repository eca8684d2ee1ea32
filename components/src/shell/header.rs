//! Title, language, units and the copy-link button (inside an iframe the
//! address bar is the parent's, so the link must be copyable from here).

use super::full_page::Painted;
use crate::ctx::use_ctx;
use crate::fields::Field;
use crate::i18n;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::keys::K;

/// Where a page option's select goes until the first frame is painted: its
/// label and a box of the select's size (the stylesheet fixes both), so
/// nothing moves when the select takes its place.
#[component]
fn SelectSlot(
    /// The page key whose select comes here.
    key: K,
) -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <div class="field choice">
            <label>{move || i18n::label(ctx.lang.get(), key)}</label>
            <span class="select-slot" aria-hidden="true"></span>
        </div>
    }
}

#[component]
pub fn Header() -> impl IntoView {
    let ctx = use_ctx();
    let copied = RwSignal::new(false);
    let copy = move |_| {
        // The address is written once input settles: the link is made from the state itself.
        if let Some(w) = web_sys::window() {
            let _ = w.navigator().clipboard().write_text(&super::url::link_to(&ctx.state()));
            copied.set(true);
        }
    };
    view! {
        <header class="top">
            <div class="titles">
                <h1><Tr key="title" /></h1>
                <p class="subtitle"><Tr key="subtitle" /></p>
            </div>
            <div class="page-controls">
                {move || {
                    if Painted::get() {
                        view! {
                            <Field key=K::Lang />
                            <Field key=K::Units />
                        }
                        .into_any()
                    } else {
                        view! {
                            <SelectSlot key=K::Lang />
                            <SelectSlot key=K::Units />
                        }
                        .into_any()
                    }
                }}
                <button type="button" class="copy" on:click=copy>
                    {move || if copied.get() { ctx.t("copied") } else { ctx.t("copy-link") }}
                </button>
            </div>
        </header>
    }
}
