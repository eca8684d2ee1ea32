//! The page: reads the URL once, keeps it in step with the state, lays out the panels.

use crate::bind::text;
use crate::chinchilla_panel::ChinchillaPanel;
use crate::compute_panel::ComputePanel;
use crate::controls::Controls;
use crate::ctx::Ctx;
use crate::debounce::Debounce;
use crate::fp_panel::FpPanel;
use crate::header::Header;
use crate::i18n::Lang;
use crate::memory_panel::MemoryPanel;
use crate::notices::Notices;
use crate::planner_panel::PlannerPanel;
use crate::presets::PRESETS;
use crate::state;
use crate::summary_bar::SummaryBar;
use crate::sweeps_panel::SweepsPanel;
use crate::teaching_bar::TeachingBar;
use crate::tr::Tr;
use crate::zero_panel::ZeroPanel;
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

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

/// Tells an embedding page our height: `postMessage({type: "tmath:resize", height})`.
fn post_height() {
    let Some(w) = web_sys::window() else { return };
    let Some(height) = w.document().and_then(|d| d.document_element()).map(|e| e.scroll_height()) else { return };
    let msg = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&msg, &"type".into(), &"tmath:resize".into());
    let _ = js_sys::Reflect::set(&msg, &"height".into(), &height.into());
    if let Ok(Some(parent)) = w.parent() {
        // Only a height leaves the frame, so any embedding origin may read it.
        let _ = parent.post_message(&msg, "*");
    }
}

/// Posts the height now and whenever the page's size changes.
fn watch_height() {
    let Some(body) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.body()) else { return };
    let callback = Closure::<dyn FnMut()>::new(post_height);
    if let Ok(observer) = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()) {
        observer.observe(&body);
    }
    // Lives as long as the page.
    callback.forget();
    post_height();
}

/// Presentation mode's keys: ← → walk the presets, F full screen, Esc leaves.
fn present_key(ev: &web_sys::KeyboardEvent, ctx: Ctx) {
    let typing = ev
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|e| matches!(e.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
    if typing || !ctx.page.with_untracked(|p| p.present) {
        return;
    }
    let Some(w) = web_sys::window() else { return };
    let step = match ev.key().as_str() {
        "ArrowRight" | "PageDown" => 1,
        "ArrowLeft" | "PageUp" => -1,
        "f" | "F" => {
            if let Some(el) = w.document().and_then(|d| d.document_element()) {
                let _ = el.request_fullscreen();
            }
            return;
        }
        "Escape" => {
            ctx.page.update(|p| p.present = false);
            return;
        }
        _ => return,
    };
    let query = w.location().search().unwrap_or_default();
    let current = PRESETS.iter().position(|p| query.trim_start_matches('?').starts_with(p.query));
    let n = PRESETS.len() as i64;
    let next = current.map_or(0, |i| (i as i64 + step).rem_euclid(n)) as usize;
    let lang = ctx.lang.get_untracked().as_str();
    let _ = w.location().set_search(&format!("{}&lang={lang}&present=1", PRESETS[next].query));
}

fn set_document_lang(lang: Lang) {
    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
        let _ = el.set_attribute("lang", lang.as_str());
    }
}

/// Runs `f` once, after the browser has painted the current frame; or after
/// half a second if frames are held back (a background tab, an off-screen frame).
fn after_first_paint(f: impl FnOnce() + 'static) {
    let once = Rc::new(Cell::new(Some(f)));
    let run = move || {
        if let Some(f) = once.take() {
            f();
        }
    };
    let early = run.clone();
    // A timeout queued from an animation frame runs after that frame is painted.
    request_animation_frame(move || set_timeout(early, Duration::ZERO));
    set_timeout(run, Duration::from_millis(500));
}

/// The controls and every panel. Mounted after the first paint (see `App`).
fn panels(ctx: Ctx, embed: bool) -> impl IntoView {
    view! {
        <main class="layout">
            <Controls />
            <div class="results">
                <MemoryPanel />
                <ZeroPanel />
                <ComputePanel />
                <ChinchillaPanel />
                <PlannerPanel />
                <SweepsPanel />
                <FpPanel />
            </div>
        </main>
        {(!embed).then(|| view! {
            <footer>
                <p><Tr key="source" /> " · " {move || ctx.t(if ctx.units() == tmath::units::ByteUnit::Gib { "unit-note-gib" } else { "unit-note-gb" })}</p>
            </footer>
        })}
    }
}

#[component]
pub fn App() -> impl IntoView {
    let loaded = state::load(&current_query());
    let ctx = Ctx::new(loaded.settings, loaded.page, browser_lang(), loaded.errors);
    provide_context(ctx);

    // The query is built when it is written, not on every step.
    let write_url = Debounce::new(URL_DEBOUNCE_MS, move || {
        replace_query(&ctx.settings.with_untracked(|s| ctx.page.with_untracked(|p| state::query(s, p))));
    });
    Effect::new(move |_| {
        ctx.settings.track();
        ctx.page.track();
        write_url.poke();
    });
    Effect::new(move |_| set_document_lang(ctx.lang.get()));
    // Embedding is fixed by the link the page was opened with.
    let embed = ctx.page.with_untracked(|p| p.embed);
    if embed {
        watch_height();
    }
    let keys = window_event_listener(leptos::ev::keydown, move |ev| present_key(&ev, ctx));
    on_cleanup(move || keys.remove());

    let view_only = move || ctx.page.with(|p| p.view.clone());
    // The first paint is the header and the summary; everything below it mounts
    // in the next task. Laying out and painting the whole page first put the
    // first result 236 ms later (paired median of 15 loads, 2026-11-30).
    let panels_ref = NodeRef::<leptos::html::Div>::new();
    after_first_paint(move || {
        if let Some(el) = panels_ref.get_untracked() {
            leptos::mount::mount_to(el.into(), move || {
                provide_context(ctx);
                panels(ctx, embed)
            })
            .forget();
        }
    });
    view! {
        <div
            class="app"
            class:embed=embed
            class:present=move || ctx.page.with(|p| p.present)
            data-view-only=text(move || view_only().unwrap_or_default())
        >
            {(!embed).then(|| view! { <Header /> <TeachingBar /> })}
            <Show when=move || ctx.page.with(|p| p.present)>
                <p class="present-help"><Tr key="present-help" /></p>
            </Show>
            <Notices />
            {(!embed).then(|| view! { <SummaryBar /> })}
            <div class="panels" node_ref=panels_ref></div>
        </div>
    }
}
