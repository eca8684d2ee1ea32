//! The embed dialog: the snippet for the current state and language, a copy
//! button, and the figure itself beside it, live, at the article column's
//! 720 px. The snippet's `height` is the taller of the heights that figure
//! reports at 720 px and, in a second frame out of sight, at a phone's 360 px:
//! a host that strips scripts cuts the figure at neither width. Beneath it,
//! the module's snippet for hosts that run scripts (embed.js: one load of the
//! calculator for every figure of the page; see `module_embed`).

use super::url::{link_to, site_dir};
use crate::ctx::use_ctx;
use crate::i18n;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::page::View;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// Which view's embed code the dialog shows (`None`: closed).
#[derive(Clone, Copy)]
pub struct EmbedOpen(pub RwSignal<Option<View>>);

/// The article column a figure is measured at.
const COLUMN_PX: i32 = 720;
/// The narrowest phone column it must also fit.
const PHONE_PX: i32 = 360;

/// Text for a double-quoted HTML attribute.
fn attr(s: &str) -> String {
    s.replace('&', "&amp;").replace('"', "&quot;").replace('<', "&lt;")
}

/// The `<iframe>` a page pastes: the state, a title, lazy loading and the figure's height.
pub fn snippet(src: &str, title: &str, height: i32) -> String {
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"{height}\" loading=\"lazy\" style=\"border:0;width:100%;max-width:{COLUMN_PX}px\"></iframe>",
        attr(src),
        attr(title)
    )
}

/// The module's snippet: the figure's element, at the frame's place and size,
/// loading as it comes near the screen, and the script that serves every
/// figure of the page (once per page). `query` is the frame's link's query;
/// its `embed=1` goes (every figure the module mounts is one).
pub fn module_snippet(query: &str, script: &str, height: i32) -> String {
    let query = query.trim_start_matches('?').split('&').filter(|p| *p != "embed=1").collect::<Vec<_>>().join("&");
    format!(
        "<div data-tmath=\"{}\" data-loading=\"lazy\" style=\"min-height:{height}px;max-width:{COLUMN_PX}px\"></div>\n<script type=\"module\" src=\"{}\"></script>",
        attr(&query),
        attr(script)
    )
}

#[component]
pub fn EmbedDialog() -> impl IntoView {
    let ctx = use_ctx();
    let open = expect_context::<EmbedOpen>();
    let dialog = NodeRef::<leptos::html::Dialog>::new();
    let preview = NodeRef::<leptos::html::Iframe>::new();
    let phone = NodeRef::<leptos::html::Iframe>::new();
    // The heights the two frames reported, with the link each was reported for:
    // a height from the previous figure never goes with the next one's link.
    let reported = RwSignal::new(None::<(String, i32)>);
    let reported_phone = RwSignal::new(None::<(String, i32)>);
    let copied = RwSignal::new(false);
    let copied_module = RwSignal::new(false);
    // The preview reports its height like any embedding would receive it.
    let listener = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |ev: web_sys::MessageEvent| {
        let from = |frame: NodeRef<leptos::html::Iframe>| {
            frame
                .get_untracked()
                .and_then(|f| f.content_window())
                .zip(ev.source())
                .is_some_and(|(w, s)| js_sys::Object::is(&w, &s))
        };
        let into = if from(preview) {
            reported
        } else if from(phone) {
            reported_phone
        } else {
            return;
        };
        let data = ev.data();
        let kind = js_sys::Reflect::get(&data, &"type".into()).ok().and_then(|t| t.as_string());
        if kind.as_deref() == Some("tmath:resize") {
            // The figure says which link it is: a late report of the previous one is not this one's.
            let href = js_sys::Reflect::get(&data, &"href".into()).ok().and_then(|h| h.as_string());
            if let (Some(h), Some(href)) =
                (js_sys::Reflect::get(&data, &"height".into()).ok().and_then(|h| h.as_f64()), href)
            {
                into.set(Some((href, h as i32)));
            }
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback("message", listener.as_ref().unchecked_ref());
    }
    listener.forget();
    let view = move || open.0.get().unwrap_or(View::Memory);
    // Closed (an empty link), the dialog follows nothing: a slider step does not
    // build its link, nor its snippet, nor write it into the hidden text area.
    let src = Memo::new(move |_| {
        let Some(view) = open.0.get() else { return String::new() };
        ctx.track_state();
        let mut state = ctx.state();
        state.page.embed = true;
        state.page.present = false;
        state.page.view = Some(view);
        state.page.lang = Some(ctx.lang.get());
        link_to(&state)
    });
    let of = move |r: RwSignal<Option<(String, i32)>>| {
        src.with(|src| r.with(|r| r.as_ref().filter(|(s, _)| s == src).map(|(_, h)| *h)))
    };
    // Both widths reported: the taller.
    let height = Memo::new(move |_| of(reported).zip(of(reported_phone)).map(|(a, b)| a.max(b)));
    Effect::new(move |_| {
        src.track();
        copied.set(false);
        copied_module.set(false);
    });
    let frame_title = move || format!("{} · {}", i18n::view_title(ctx.lang.get(), view()), ctx.t("frame-title"));
    // The reported height, or until both frames report, the figure's own from the layout table.
    let figure_height = move || height.get().unwrap_or_else(|| crate::layout::figure(view()).height as i32);
    // Narrower than the column (a phone, a 720 px window less the dialog's margins), the
    // preview keeps its 720 px layout and is drawn smaller, whole, instead of scrolling.
    let holder = NodeRef::<leptos::html::Div>::new();
    let scale = RwSignal::new(1.0f64);
    let measure = move || {
        if let Some(el) = holder.get_untracked() {
            let w = el.client_width() as f64;
            if w > 0.0 {
                scale.set((w / COLUMN_PX as f64).min(1.0));
            }
        }
    };
    Effect::new(move |_| {
        if open.0.get().is_some() {
            request_animation_frame(measure);
        }
    });
    let resize = window_event_listener(leptos::ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());
    let code = move || {
        src.with(|src| (!src.is_empty()).then(|| snippet(src, &frame_title(), figure_height()))).unwrap_or_default()
    };
    let module_code = move || {
        src.with(|src| {
            src.split_once('?')
                .map(|(_, query)| module_snippet(query, &format!("{}embed.js", site_dir()), figure_height()))
                .unwrap_or_default()
        })
    };
    Effect::new(move |_| {
        let Some(d) = dialog.get() else { return };
        match (open.0.get().is_some(), d.open()) {
            (true, false) => {
                let _ = d.show_modal();
            }
            (false, true) => d.close(),
            _ => {}
        }
    });
    let copy = move |text: String, done: RwSignal<bool>| {
        if let Some(w) = web_sys::window() {
            let _ = w.navigator().clipboard().write_text(&text);
            done.set(true);
        }
    };
    let options = move || {
        let lang = ctx.lang.get();
        View::ALL
            .iter()
            .map(|&v| view! { <option value=v.as_str() selected=move || view() == v>{i18n::view_title(lang, v)}</option> })
            .collect_view()
    };
    view! {
        <dialog
            class="embed-dialog"
            node_ref=dialog
            aria-labelledby="embed-title"
            on:close=move |_| open.0.set(None)
        >
            <header class="embed-head">
                <h2 id="embed-title"><Tr key="embed-title" /></h2>
                <button type="button" on:click=move |_| open.0.set(None)><Tr key="close" /></button>
            </header>
            <div class="embed-grid">
                <div class="embed-code">
                    <label>
                        <Tr key="embed-view" />
                        <select
                            name="embed-view"
                            on:change=move |ev| open.0.set(View::parse(&event_target_value(&ev)))
                        >
                            {options}
                        </select>
                    </label>
                    <label for="embed-snippet"><Tr key="embed-code-label" /></label>
                    <textarea
                        id="embed-snippet"
                        data-testid="embed-snippet"
                        data-height=move || height.get().map(|h| h.to_string()).unwrap_or_default()
                        readonly=true
                        rows="7"
                        prop:value=code
                    ></textarea>
                    <button type="button" data-testid="embed-copy" on:click=move |_| copy(code(), copied) disabled=move || code().is_empty()>
                        {move || if copied.get() { ctx.t("copied") } else { ctx.t("copy") }}
                    </button>
                    <p class="detail"><Tr key="embed-note" /></p>
                    <label for="embed-module-snippet"><Tr key="embed-module-label" /></label>
                    <textarea
                        id="embed-module-snippet"
                        data-testid="embed-module-snippet"
                        readonly=true
                        rows="5"
                        prop:value=module_code
                    ></textarea>
                    <button
                        type="button"
                        data-testid="embed-module-copy"
                        on:click=move |_| copy(module_code(), copied_module)
                        disabled=move || module_code().is_empty()
                    >
                        {move || if copied_module.get() { ctx.t("copied") } else { ctx.t("copy") }}
                    </button>
                    <p class="detail"><Tr key="embed-module-note" /></p>
                </div>
                <figure class="embed-preview">
                    <figcaption>
                        {move || if scale.get() < 1.0 { ctx.t("embed-preview-scaled") } else { ctx.t("embed-preview") }}
                    </figcaption>
                    <div
                        class="preview-scroll"
                        node_ref=holder
                        style=move || {
                            let k = scale.get();
                            if k < 1.0 { format!("height:{}px;overflow:hidden", (figure_height() as f64 * k).ceil()) } else { String::new() }
                        }
                    >
                        <Show when=move || open.0.get().is_some()>
                            <iframe
                                node_ref=preview
                                data-testid="embed-preview"
                                src=move || src.get()
                                title=frame_title
                                width=COLUMN_PX
                                // Until it reports, the figure's own height: no scrollbar narrows
                                // the figure below 720 px (which would change its height).
                                style=move || {
                                    let k = scale.get();
                                    let fit = if k < 1.0 { format!(";transform:scale({k:.4});transform-origin:0 0") } else { String::new() };
                                    format!("height:{}px{fit}", figure_height())
                                }
                            ></iframe>
                            // The same figure at a phone's width, out of sight: it only reports its height.
                            <iframe
                                node_ref=phone
                                class="embed-phone"
                                aria-hidden="true"
                                tabindex="-1"
                                src=move || src.get()
                                title=frame_title
                                width=PHONE_PX
                            ></iframe>
                        </Show>
                    </div>
                </figure>
            </div>
        </dialog>
    }
}
