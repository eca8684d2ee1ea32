//! Figures that one module serves to a host page (`embed.js`, written by
//! `scripts/post-build.mjs`): where a host allows scripts, a page with
//! several figures loads the calculator once, not once per frame. The module
//! gives each `<div data-tmath="view=…">` a shadow root, its own stylesheet
//! (`embed.css`, the site's with the page rules on the shadow root) and one
//! call of [`mount_figure`]: a figure with its own state, as a frame would
//! hold it. The iframe snippet stays for hosts that strip scripts.
//!
//! The module names where it was loaded from in `globalThis.__tmath_embed`
//! before the wasm starts: `main` then mounts no page, the figures' "open the
//! calculator" links point there, and nothing touches the host's address,
//! title or history.

use super::figure::Figure;
use super::url::browser_lang;
use crate::ctx::Ctx;
use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;

thread_local! {
    static BASE: Option<String> = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"__tmath_embed".into()).ok())
        .and_then(|v| v.as_string());
}

/// The calculator's address when its module serves another page's figures;
/// `None` on the calculator's own page and in its frames.
pub fn base() -> Option<String> {
    BASE.with(Clone::clone)
}

/// Mounts the figure that `query` (`view=compute&lang=ko&…`, a frame's link
/// without the address) describes into `root`, with a state of its own. Keys
/// the query cannot take show as the frame shows them, as a notice.
#[wasm_bindgen]
pub fn mount_figure(root: web_sys::HtmlElement, query: &str) {
    let (mut state, errors) = tmath::link::load(query);
    state.page.embed = true;
    state.page.present = false;
    let lang_of = root.clone();
    let handle = leptos::mount::mount_to(root, move || {
        let ctx = Ctx::new(state, browser_lang(), errors);
        provide_context(ctx);
        // The figure's language on its own root: Korean breaks between words there,
        // and a screen reader reads it in its language whatever the host's is.
        Effect::new(move |_| {
            let _ = lang_of.set_attribute("lang", ctx.lang.get().as_str());
        });
        view! { <Figure /> }
    });
    // The figure lives as long as the host page.
    handle.forget();
}
