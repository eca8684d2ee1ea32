//! Title, language, units and the copy-link button (inside an iframe the
//! address bar is the parent's, so the link must be copyable from here).

use crate::ctx::use_ctx;
use crate::i18n::Lang;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::units::ByteUnit;

#[component]
pub fn Header() -> impl IntoView {
    let ctx = use_ctx();
    let copied = RwSignal::new(false);
    let copy = move |_| {
        if let Some(w) = web_sys::window() {
            if let Ok(href) = w.location().href() {
                let _ = w.navigator().clipboard().write_text(&href);
                copied.set(true);
            }
        }
    };
    view! {
        <header class="top">
            <div class="titles">
                <h1><Tr key="title" /></h1>
                <p class="subtitle"><Tr key="subtitle" /></p>
            </div>
            <div class="page-controls">
                <label>
                    <Tr key="lang" />
                    <select
                        name="lang"
                        prop:value=move || ctx.lang.get().as_str()
                        on:change=move |ev| {
                            let lang = Lang::parse(&event_target_value(&ev));
                            ctx.page.update(|p| p.lang = lang);
                        }
                    >
                        <option value="ko" selected=move || ctx.lang.get() == Lang::Ko>"한국어"</option>
                        <option value="en" selected=move || ctx.lang.get() == Lang::En>"English"</option>
                    </select>
                </label>
                <label>
                    <Tr key="units" />
                    <select
                        name="units"
                        prop:value=move || ctx.page.with(|p| p.units.as_str())
                        on:change=move |ev| {
                            let u = ByteUnit::parse(&event_target_value(&ev)).unwrap_or_default();
                            ctx.page.update(|p| p.units = u);
                        }
                    >
                        <option value="gb">"GB (10⁹)"</option>
                        <option value="gib">"GiB (2³⁰)"</option>
                    </select>
                </label>
                <button type="button" class="copy" on:click=copy>
                    {move || if copied.get() { ctx.t("copied") } else { ctx.t("copy-link") }}
                </button>
            </div>
        </header>
    }
}
