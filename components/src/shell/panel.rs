//! A view on the full page: its title, an embed button, and the view itself.

use super::embed_code::EmbedOpen;
use crate::ctx::use_ctx;
use crate::i18n;
use crate::panels::{body, Mode};
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::page::View;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// Keeps `live`: whether `el` is on screen or within half a screen of it, by an
/// IntersectionObserver (true until it first reports: a view mounts current);
/// `came` runs when it comes on screen.
pub fn on_screen<E>(el: NodeRef<E>, live: RwSignal<bool>, came: impl Fn() + 'static)
where
    E: leptos::html::ElementType + 'static,
    E::Output: JsCast + Clone + 'static,
{
    let came = std::rc::Rc::new(came);
    type Observer = (web_sys::IntersectionObserver, Closure<dyn FnMut(js_sys::Array)>);
    let observer = StoredValue::new_local(None::<Observer>);
    Effect::new(move |_| {
        let Some(el) = el.get() else { return };
        if observer.with_value(|o| o.is_some()) {
            return;
        }
        let came = came.clone();
        let callback = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            // The last entry is the latest state.
            let last = entries.get(entries.length().saturating_sub(1));
            if let Ok(entry) = last.dyn_into::<web_sys::IntersectionObserverEntry>() {
                let now = entry.is_intersecting();
                if now != live.get_untracked() {
                    live.set(now);
                    // For tests and the curious: whether the view follows input now.
                    let _ = entry.target().set_attribute("data-live", if now { "true" } else { "false" });
                    if now {
                        came();
                    }
                }
            }
        });
        let init = web_sys::IntersectionObserverInit::new();
        // Half a screen ahead: scrolling at a reading pace finds the view current.
        init.set_root_margin("50% 0px");
        if let Ok(io) = web_sys::IntersectionObserver::new_with_options(callback.as_ref().unchecked_ref(), &init) {
            io.observe(el.unchecked_ref());
            observer.set_value(Some((io, callback)));
        }
    });
    on_cleanup(move || {
        if let Some((io, _)) = observer.try_update_value(|o| o.take()).flatten() {
            io.disconnect();
        }
    });
}

#[component]
pub fn Panel(
    /// The view this panel shows.
    view: View,
) -> impl IntoView {
    let ctx = use_ctx();
    let open = expect_context::<EmbedOpen>();
    // The view follows input while it is on screen, else once input pauses (Ctx::gated).
    let section = NodeRef::<leptos::html::Section>::new();
    let live = RwSignal::new(true);
    let gated = ctx.gated(live);
    on_screen(section, live, move || gated.revealed(live));
    provide_context(gated);
    let id = format!("h-{}", view.as_str());
    let labelled_by = id.clone();
    view! {
        <section node_ref=section data-live="true" class=format!("panel view-{}", view.as_str()) data-view=view.as_str() aria-labelledby=labelled_by>
            <header class="panel-head">
                <h2 id=id>{move || i18n::view_title(ctx.lang.get(), view)}</h2>
                <button
                    type="button"
                    class="embed-button"
                    data-testid="embed-code"
                    aria-haspopup="dialog"
                    on:click=move |_| open.0.set(Some(view))
                >
                    <Tr key="embed" />
                </button>
            </header>
            {body(view, Mode::Page, &[])}
        </section>
    }
}
