//! Title, language, units and the copy-link button (inside an iframe the
//! address bar is the parent's, so the link must be copyable from here).

use crate::ctx::use_ctx;
use crate::fields::Field;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::keys::K;

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
                <Field key=K::Lang />
                <Field key=K::Units />
                <button type="button" class="copy" on:click=copy>
                    {move || if copied.get() { ctx.t("copied") } else { ctx.t("copy-link") }}
                </button>
            </div>
        </header>
    }
}
