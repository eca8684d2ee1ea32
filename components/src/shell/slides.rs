//! The slides (`present=1`): one view per slide, filling the screen, readable
//! from the back row. ← → (and PageUp/PageDown, which clickers send) walk the
//! deck in the page, the address following; F goes full screen; Esc leaves,
//! as a new history entry (Back returns to the slide).

use super::url::navigate;
use crate::ctx::{use_ctx, Ctx};
use crate::fields::Field;
use crate::i18n;
use crate::layout::{figure, SLIDE_CONTROLS};
use crate::panels::{body, Mode};
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::keys::State;
use tmath::page::{PageOptions, View};
use tmath::presets::{self, Preset, DEFAULT_DECK};
use tmath::Settings;
use wasm_bindgen::JsCast;

/// One slide: a preset (its state and view) or a view of the current state.
#[derive(Clone, Copy)]
enum Entry {
    Preset(&'static Preset),
    View(View),
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Entry::Preset(a), Entry::Preset(b)) => a.name == b.name,
            (Entry::View(a), Entry::View(b)) => a == b,
            _ => false,
        }
    }
}

impl Entry {
    fn view(self) -> View {
        match self {
            Entry::Preset(p) => p.view,
            Entry::View(v) => v,
        }
    }
}

/// The deck's slides: the link's `deck=`, else the article's story.
fn deck(page: &PageOptions) -> Vec<Entry> {
    let names: Vec<&str> =
        if page.deck.is_empty() { DEFAULT_DECK.to_vec() } else { page.deck.iter().map(String::as_str).collect() };
    names
        .into_iter()
        .filter_map(|n| presets::preset(n).map(Entry::Preset).or_else(|| View::parse(n).map(Entry::View)))
        .collect()
}

/// The current slide's index (from 0) and entry.
fn current(page: &PageOptions) -> Option<(usize, Entry)> {
    let d = deck(page);
    let i = (page.slide.max(1) as usize - 1).min(d.len().checked_sub(1)?);
    Some((i, d[i]))
}

/// The view the current slide shows.
pub fn view_of(page: &PageOptions) -> View {
    current(page).map_or(View::Memory, |(_, e)| e.view())
}

/// Puts the current slide's state in place: a preset's own keys on the defaults.
pub fn apply_slide(state: &mut State) {
    if let Some((_, Entry::Preset(p))) = current(&state.page) {
        let pairs = tmath::link::parse_query(p.query);
        state.settings = Settings::from_pairs(pairs).0;
    }
}

/// The current slide's title, tracked: a preset's own (two slides of one view
/// tell different stories), else the view's.
pub fn title(ctx: Ctx) -> String {
    let lang = ctx.lang.get();
    ctx.page.with(|p| match current(p) {
        Some((_, Entry::Preset(preset))) => i18n::tr(lang, &format!("preset-{}", preset.name)).to_string(),
        Some((_, Entry::View(v))) => i18n::view_title(lang, v).to_string(),
        None => i18n::view_title(lang, View::Memory).to_string(),
    })
}

/// Moves `step` slides (wrapping), in the page: the state, the view and the address follow.
fn go(ctx: Ctx, step: i64) {
    let page = ctx.page.get_untracked();
    let n = deck(&page).len() as i64;
    if n == 0 {
        return;
    }
    let i = (page.slide.max(1) as i64 - 1 + step).rem_euclid(n) as u64 + 1;
    let mut state = ctx.state();
    state.page.slide = i;
    apply_slide(&mut state);
    ctx.settings.set(state.settings);
    ctx.page.update(|p| p.slide = i);
}

/// Leaves the deck for the full page on the slide's state, as a new history
/// entry: Back returns to the slide.
pub fn leave(ctx: Ctx) {
    let mut state = ctx.state();
    state.page.present = false;
    state.page.slide = 1;
    navigate(ctx, state);
}

/// Whether a key press edits text: in a text entry ← → move the caret; on a
/// slider or a menu they belong to the deck (a slider moves by drag and ↑ ↓).
fn editing_text(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else { return false };
    match el.tag_name().as_str() {
        "TEXTAREA" => true,
        "INPUT" => !matches!(
            el.get_attribute("type").unwrap_or_default().as_str(),
            "range" | "checkbox" | "radio" | "button" | "submit" | "reset" | "color"
        ),
        _ => el.is_content_editable(),
    }
}

/// The deck's keys. PageUp, PageDown (what clickers send), Esc and F are the
/// deck's wherever the focus is; ← → too, unless a text entry is being edited.
fn on_key(ev: &web_sys::KeyboardEvent, ctx: Ctx) {
    if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
        return;
    }
    let arrows = !editing_text(ev);
    match ev.key().as_str() {
        "PageDown" => go(ctx, 1),
        "PageUp" => go(ctx, -1),
        "ArrowRight" if arrows => go(ctx, 1),
        "ArrowLeft" if arrows => go(ctx, -1),
        "f" | "F" => {
            if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.document_element()) {
                let _ = el.request_fullscreen();
            }
        }
        "Escape" => leave(ctx),
        _ => return,
    }
    ev.prevent_default();
}

#[component]
pub fn Slides() -> impl IntoView {
    let ctx = use_ctx();
    let keys = window_event_listener(leptos::ev::keydown, move |ev| on_key(&ev, ctx));
    on_cleanup(move || keys.remove());
    let slide = Memo::new(move |_| ctx.page.with(|p| current(p).map(|(i, e)| (i, deck(p).len(), e.view(), e))));
    // What the slide's body is made of: its view and a comparison's bars. Two
    // slides of one view (5 and 6 of the default deck) differ in their bars.
    let view = Memo::new(move |_| {
        slide.with(|s| match s {
            Some((_, _, v, Entry::Preset(p))) => (*v, p.variants),
            Some((_, _, v, _)) => (*v, &[][..]),
            None => (View::Memory, &[][..]),
        })
    });
    // Under a preset's title, the article's section it illustrates; under a view's, the model.
    let subtitle = move || {
        let lang = ctx.lang.get();
        slide.with(|s| match s {
            Some((_, _, v, Entry::Preset(_))) => i18n::view_title(lang, *v).to_string(),
            _ => ctx.shown.with(|r| {
                r.config.model.map_or_else(|| i18n::count(lang, r.config.params.get()), |m| i18n::model_label(lang, m))
            }),
        })
    };
    let counter = move || slide.with(|s| s.map(|(i, n, _, _)| format!("{} / {n}", i + 1)).unwrap_or_default());
    // Rebuilt when the slide's view changes, not on every value.
    let main = move || {
        let (v, variants) = view.get();
        let controls =
            figure(v).controls.iter().take(SLIDE_CONTROLS).map(|&k| view! { <Field key=k /> }).collect_view();
        view! {
            <div class="slide-main" data-view=v.as_str()>
                <div class="slide-body">{body(v, Mode::Slide, variants)}</div>
                <aside class="slide-controls">{controls}</aside>
            </div>
        }
    };
    view! {
        <div class="deck" role="region" aria-roledescription=move || ctx.t("slides-nav") aria-label=move || title(ctx)>
            <header class="slide-head">
                <div>
                    <h1 class="slide-title" data-testid="slide-title">{move || title(ctx)}</h1>
                    <p class="slide-sub">{subtitle}</p>
                </div>
                <nav class="slide-nav" aria-label=move || ctx.t("slides-nav")>
                    <button type="button" aria-label=move || ctx.t("prev-slide") on:click=move |_| go(ctx, -1)>"←"</button>
                    <span class="slide-counter" data-testid="slide-counter">{counter}</span>
                    <button type="button" aria-label=move || ctx.t("next-slide") on:click=move |_| go(ctx, 1)>"→"</button>
                    <button type="button" class="leave" on:click=move |_| leave(ctx)>
                        <Tr key="leave-slides" />
                    </button>
                </nav>
            </header>
            {main}
            <footer class="slide-foot"><Tr key="slides-help" /> " · " <Tr key="source-short" /></footer>
        </div>
    }
}
