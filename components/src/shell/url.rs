//! The browser around the app: the address bar, the document's language and
//! title, and the height a figure reports to the page that embeds it.

use leptos::prelude::*;
use tmath::keys::State;
use tmath::page::Lang;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The address's query string (with `?`).
pub fn current_query() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// The browser's preferred language, if it is one of the page's.
pub fn browser_lang() -> Lang {
    web_sys::window().and_then(|w| w.navigator().language()).and_then(|l| Lang::from_tag(&l)).unwrap_or(Lang::En)
}

/// Rewrites the address's query without a new history entry.
pub fn replace_query(query: &str) {
    let Some(w) = web_sys::window() else { return };
    let loc = w.location();
    if loc.search().ok().as_deref() == Some(query) {
        return;
    }
    let path = loc.pathname().unwrap_or_default();
    let hash = loc.hash().unwrap_or_default();
    if let Ok(history) = w.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{query}{hash}")));
    }
}

/// Puts `state` in place as a new history entry: the address now (the entry
/// left keeps its own, written first), then the page. Entering and leaving the
/// slides go through here, so Back returns to where the person was.
pub fn navigate(ctx: crate::ctx::Ctx, state: State) {
    replace_query(&tmath::link::query(&ctx.state()));
    if let Some(w) = web_sys::window() {
        let loc = w.location();
        let url = format!(
            "{}{}{}",
            loc.pathname().unwrap_or_default(),
            tmath::link::query(&state),
            loc.hash().unwrap_or_default()
        );
        if let Ok(history) = w.history() {
            let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
    }
    ctx.load(state);
}

/// This page's address without its query: where a link to another state of it points.
pub fn page_url() -> String {
    if let Some(base) = super::module_embed::base() {
        return base;
    }
    web_sys::window()
        .map(|w| {
            let loc = w.location();
            format!("{}{}", loc.origin().unwrap_or_default(), loc.pathname().unwrap_or_default())
        })
        .unwrap_or_default()
}

/// The folder the calculator's files are in (ending in `/`): where `embed.js` is.
pub fn site_dir() -> String {
    let url = page_url();
    match url.rfind('/') {
        Some(i) => url[..=i].to_string(),
        None => url,
    }
}

/// A link to this page in `state`.
pub fn link_to(state: &State) -> String {
    format!("{}{}", page_url(), tmath::link::query(state))
}

/// Sets `<html lang>` and the document's title.
pub fn set_document(lang: Lang, title: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    if let Some(el) = doc.document_element() {
        let _ = el.set_attribute("lang", lang.as_str());
    }
    if doc.title() != title {
        doc.set_title(title);
    }
}

/// Tells an embedding page our height: `postMessage({type: "tmath:resize", height, href})`.
/// The body's, not the document's: the document is at least as tall as the
/// frame, so a frame made too tall would never shrink. Reading it lays the
/// page out, which works off-screen too, where frames are not painted and
/// observers wait.
fn post_height(last: &std::cell::Cell<i32>) {
    let Some(w) = web_sys::window() else { return };
    let Some(body) = w.document().and_then(|d| d.body()) else { return };
    let height = body.get_bounding_client_rect().height().ceil() as i32;
    if height == last.get() {
        return;
    }
    last.set(height);
    let msg = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&msg, &"type".into(), &"tmath:resize".into());
    let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
    // Which figure this is: a host with several frames, or one frame whose link changed, can tell.
    if let Ok(href) = w.location().href() {
        let _ = js_sys::Reflect::set(&msg, &"href".into(), &href.into());
    }
    if let Ok(Some(parent)) = w.parent() {
        // Only a height leaves the frame, so any embedding origin may read it.
        let _ = parent.post_message(&msg, "*");
    }
}

/// Posts the height in the next task (painted or not), and again whenever the
/// figure's size changes or `changed` runs (every change of the state).
pub fn report_height(changed: impl Fn() + 'static) {
    // A figure the module mounted into the host's own page has no frame to size.
    if super::module_embed::base().is_some() {
        return;
    }
    let last = std::rc::Rc::new(std::cell::Cell::new(-1));
    let post = {
        let last = last.clone();
        move || post_height(&last)
    };
    let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) else { return };
    let observed = Closure::<dyn FnMut()>::new(post.clone());
    if let Ok(observer) = web_sys::ResizeObserver::new(observed.as_ref().unchecked_ref()) {
        observer.observe(&body);
    }
    // Lives as long as the page.
    observed.forget();
    // A task, not a frame: an off-screen frame gets tasks but no frames.
    let first = post.clone();
    set_timeout(first, std::time::Duration::ZERO);
    Effect::new(move |_| {
        changed();
        let post = post.clone();
        set_timeout(post, std::time::Duration::ZERO);
    });
}
