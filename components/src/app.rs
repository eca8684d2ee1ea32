//! The page: reads the URL once, keeps it in step with the state, lays out the panels.

use crate::chinchilla_panel::ChinchillaPanel;
use crate::compute_panel::ComputePanel;
use crate::controls::Controls;
use crate::ctx::Ctx;
use crate::header::Header;
use crate::i18n::Lang;
use crate::memory_panel::MemoryPanel;
use crate::notices::Notices;
use crate::planner_panel::PlannerPanel;
use crate::state;
use crate::sweeps_panel::SweepsPanel;
use crate::zero_panel::ZeroPanel;
use gloo_timers::callback::Timeout;
use leptos::prelude::*;

/// Writing the query on every slider step costs 3–4 ms per event (measured);
/// it is written once the input settles.
const URL_DEBOUNCE_MS: u32 = 150;

fn browser_lang() -> Lang {
    web_sys::window().and_then(|w| w.navigator().language()).and_then(|l| Lang::parse(&l)).unwrap_or(Lang::En)
}

fn current_query() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

fn replace_query(query: &str) {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    let path = loc.pathname().unwrap_or_default();
    let hash = loc.hash().unwrap_or_default();
    if loc.search().ok().as_deref() == Some(query) {
        return;
    }
    if let Ok(history) = w.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{query}{hash}")));
    }
}

fn set_document_lang(lang: Lang) {
    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = el.set_attribute("lang", lang.as_str());
    }
}

#[component]
pub fn App() -> impl IntoView {
    let loaded = state::load(&current_query());
    let ctx = Ctx::new(loaded.settings, loaded.page, browser_lang(), loaded.errors);
    provide_context(ctx);

    let pending = StoredValue::new_local(None::<Timeout>);
    Effect::new(move |_| {
        let query = ctx.settings.with(|s| ctx.page.with(|p| state::query(s, p)));
        let timeout = Timeout::new(URL_DEBOUNCE_MS, move || replace_query(&query));
        // Dropping the previous timeout cancels it.
        pending.set_value(Some(timeout));
    });
    Effect::new(move |_| set_document_lang(ctx.lang.get()));

    let embed = move || ctx.page.with(|p| p.embed);
    let view_only = move || ctx.page.with(|p| p.view.clone());
    view! {
        <div class="app" class:embed=embed data-view-only=move || view_only().unwrap_or_default()>
            <Show when=move || !embed()>
                <Header />
            </Show>
            <Notices />
            <main class="layout">
                <Controls />
                <div class="results">
                    <MemoryPanel />
                    <ZeroPanel />
                    <ComputePanel />
                    <ChinchillaPanel />
                    <PlannerPanel />
                    <SweepsPanel />
                </div>
            </main>
            <Show when=move || !embed()>
                <footer>
                    <p>{move || ctx.t("source")} " · " {move || ctx.t(if ctx.page.with(|p| p.units) == tmath::units::ByteUnit::Gib { "unit-note-gib" } else { "unit-note-gb" })}</p>
                </footer>
            </Show>
        </div>
    }
}
