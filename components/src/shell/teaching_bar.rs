//! Lecture presets as links, exports (PNG, JSON, CSV) and presentation mode.

use crate::bind::text;
use crate::ctx::use_ctx;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::presets::PRESETS;
use wasm_bindgen::JsCast;

/// Offers `data` as a file download (a blob URL on a temporary link).
fn download(name: &str, mime: &str, data: &str) {
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(data));
    let bag = web_sys::BlobPropertyBag::new();
    bag.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &bag) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    click_link(name, &url);
    let _ = web_sys::Url::revoke_object_url(&url);
}

fn click_link(name: &str, href: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(a) = doc.create_element("a") else { return };
    let a: web_sys::HtmlAnchorElement = a.unchecked_into();
    a.set_href(href);
    a.set_download(name);
    a.click();
}

/// The memory chart as PNG, straight from its canvas.
fn download_chart() {
    let canvas = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("[data-testid=memory-chart]").ok().flatten())
        .and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok());
    if let Some(url) = canvas.and_then(|c| c.to_data_url().ok()) {
        click_link("transformer-math-memory.png", &url);
    }
}

#[component]
pub fn TeachingBar() -> impl IntoView {
    let ctx = use_ctx();
    let json = move |_| {
        let text = ctx.shown.with(|r| crate::export::json(r, &ctx.settings.get_untracked()));
        download("transformer-math.json", "application/json", &text);
    };
    let csv = move |_| {
        let text = ctx.shown.with(|r| crate::export::csv(r, &ctx.settings.get_untracked()));
        download("transformer-math.csv", "text/csv", &text);
    };
    // The slides start at the deck's first slide, on its own state.
    let present = move |_| {
        let mut state = ctx.state();
        state.page.present = true;
        state.page.slide = 1;
        super::slides::apply_slide(&mut state);
        ctx.settings.set(state.settings);
        ctx.page.set(state.page);
    };
    view! {
        <div class="teaching">
        <nav aria-label=move || ctx.t("presets")>
            <details class="presets">
                <summary><Tr key="presets" /></summary>
                <ul>
                    {PRESETS
                        .iter()
                        .map(|p| {
                            let lang = move || ctx.lang.get().as_str();
                            view! {
                                <li>
                                    <a data-preset=p.name href=text(move || format!("?{}&lang={}", p.query, lang()))>
                                        {move || ctx.t(&format!("preset-{}", p.name))}
                                    </a>
                                </li>
                            }
                        })
                        .collect_view()}
                </ul>
            </details>
        </nav>
            <div class="exports" role="group" aria-label=move || ctx.t("exports")>
                <button type="button" data-export="png" on:click=move |_| download_chart()>"PNG"</button>
                <button type="button" data-export="json" on:click=json>"JSON"</button>
                <button type="button" data-export="csv" on:click=csv>"CSV"</button>
                <button type="button" data-testid="present" on:click=present>
                    <Tr key="present" />
                </button>
            </div>
        </div>
    }
}
