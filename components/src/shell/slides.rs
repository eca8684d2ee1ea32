//! The slides (`present=1`): one view per slide, filling the screen, readable
//! from the back row. ← → and Space (and PageUp/PageDown, which clickers send)
//! walk the deck in the page, stopping at its ends, Home and End go there, the
//! address following; F goes full screen; Esc leaves, as a new history entry
//! (Back returns to the slide). A preset's slide whose state was changed live
//! says so, and its title no longer names the preset's numbers.

use super::url::navigate;
use crate::ctx::{use_ctx, Ctx};
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

/// A preset's own settings: its keys on the defaults.
fn preset_settings(p: &Preset) -> Settings {
    Settings::from_pairs(tmath::link::parse_query(p.query)).0
}

/// Settings as a link writes them, with the layout given by its GPU count
/// (`dp=128` and `gpus=16384` at t·p = 128 are one state): what a slide compares.
fn canonical_pairs(s: &Settings) -> Vec<(&'static str, String)> {
    let mut s = s.clone();
    let n = s.data_parallel() * s.tp * s.pp * s.cp;
    (s.gpus, s.dp) = (Some(n), None);
    s.to_pairs()
}

/// Whether `settings` differ from the current slide's preset (a view's slide never does).
pub fn changed_from_slide(page: &PageOptions, settings: &Settings) -> bool {
    preset_of_slide(page).is_some_and(|own| canonical_pairs(&own) != canonical_pairs(settings))
}

/// The settings of the current slide's preset (`None` on a view's slide).
pub fn preset_of_slide(page: &PageOptions) -> Option<Settings> {
    match current(page) {
        Some((_, Entry::Preset(p))) => Some(preset_settings(p)),
        _ => None,
    }
}

/// Puts the current slide's state in place: a preset's own keys on the defaults.
pub fn apply_slide(state: &mut State) {
    if let Some(own) = preset_of_slide(&state.page) {
        state.settings = own;
    }
}

/// A link that names a state and no deck presents that state: the views of
/// [`presets::STATE_DECK`], not the canned deck's presets (which would show
/// their own numbers under the lecturer's).
pub fn deck_for_state(page: &mut PageOptions) {
    if page.deck.is_empty() {
        page.deck = presets::STATE_DECK.iter().map(|v| v.as_str().to_string()).collect();
    }
}

/// The keys whose values differ between the current settings and the slide's
/// preset (empty on a view's slide, or on the preset's own state).
fn changed_keys(page: &PageOptions, settings: &Settings) -> Vec<tmath::keys::K> {
    let Some(own) = preset_of_slide(page) else { return Vec::new() };
    // Compared as links (one canonical spelling each): Settings' own equality would cost the page 2 KB.
    let (mine, theirs) = (canonical_pairs(settings), canonical_pairs(&own));
    if mine == theirs {
        return Vec::new();
    }
    let value = |pairs: &[(&'static str, String)], k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone());
    // In the key table's order, each once.
    tmath::keys::K::ALL.iter().copied().filter(|k| value(&mine, k.name()) != value(&theirs, k.name())).collect()
}

/// The current slide's title, tracked: a preset's own (two slides of one view
/// tell different stories), else the view's. A preset whose state was changed
/// live takes its view's title: the preset's names numbers that no longer hold.
pub fn title(ctx: Ctx) -> String {
    let lang = ctx.lang.get();
    ctx.page.with(|p| match current(p) {
        Some((_, Entry::Preset(preset))) if ctx.settings.with(|s| changed_keys(p, s).is_empty()) => {
            i18n::tr(lang, &format!("preset-{}", preset.name)).to_string()
        }
        Some((_, e)) => i18n::view_title(lang, e.view()).to_string(),
        None => i18n::view_title(lang, View::Memory).to_string(),
    })
}

/// What a changed preset's slide says under its title: which preset, and what changed.
fn changed_note(ctx: Ctx) -> Option<String> {
    let lang = ctx.lang.get();
    ctx.page.with(|p| {
        let Some((_, Entry::Preset(preset))) = current(p) else { return None };
        let keys = ctx.settings.with(|s| changed_keys(p, s));
        (!keys.is_empty()).then(|| {
            // A label's "N = t·p·d" never breaks at its equals sign.
            let names: Vec<String> =
                keys.iter().map(|&k| i18n::label(lang, k).replace(" = ", "\u{a0}=\u{a0}")).collect();
            i18n::slide_changed(lang, i18n::tr(lang, &format!("preset-{}", preset.name)), &names.join(", "))
        })
    })
}

/// The slide `step` away, in the page, stopping at the deck's ends: the state, the view and the address follow.
fn go(ctx: Ctx, step: i64) {
    let page = ctx.page.get_untracked();
    let n = deck(&page).len() as i64;
    if n == 0 {
        return;
    }
    let i = (page.slide.max(1) as i64 - 1 + step).clamp(0, n - 1) as u64 + 1;
    if i == page.slide.max(1) {
        return;
    }
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

/// Whether a key press lands on a control that Space presses (a button, a menu, a switch, a slider).
fn on_control(ev: &web_sys::KeyboardEvent) -> bool {
    let Some(el) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else { return false };
    matches!(el.tag_name().as_str(), "BUTTON" | "SELECT" | "INPUT" | "TEXTAREA" | "SUMMARY" | "A")
}

/// The deck's keys. PageUp, PageDown (what clickers send), Esc and F are the
/// deck's wherever the focus is; ← → too, unless a text entry is being edited.
fn on_key(ev: &web_sys::KeyboardEvent, ctx: Ctx) {
    if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
        return;
    }
    let arrows = !editing_text(ev);
    // Space presses a focused button or switch; elsewhere it advances, as in every slide program.
    let space = arrows && !on_control(ev);
    match ev.key().as_str() {
        "PageDown" => go(ctx, 1),
        "PageUp" => go(ctx, -1),
        "ArrowRight" if arrows => go(ctx, 1),
        "ArrowLeft" if arrows => go(ctx, -1),
        " " if space => go(ctx, if ev.shift_key() { -1 } else { 1 }),
        "Home" if arrows => go(ctx, i64::MIN / 2),
        "End" if arrows => go(ctx, i64::MAX / 2),
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
        if let Some(note) = changed_note(ctx) {
            return note;
        }
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
            figure(v).controls.iter().take(SLIDE_CONTROLS).map(|&k| super::figure::control(k)).collect_view();
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
                    <p class="slide-sub" class:changed=move || changed_note(ctx).is_some() data-testid="slide-sub">{subtitle}</p>
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
            // The keys are the presenter's: once the deck is full screen (F), the audience sees the source alone.
            <footer class="slide-foot"><span class="slide-help"><Tr key="slides-help" /> " · "</span><Tr key="source-short" /></footer>
        </div>
    }
}
