//! The page: reads the URL once, keeps it in step with the state, and shows
//! the full calculator, a figure (`embed=1`) or the slides (`present=1`).

use super::figure::Figure;
use super::full_page::FullPage;
use super::slides::{self, Slides};
use super::url::{browser_lang, current_query, replace_query, set_document};
use crate::ctx::Ctx;
use crate::debounce::Debounce;
use crate::i18n;
use leptos::prelude::*;
use tmath::keys::Target;

/// Writing the query on every slider step costs 3–4 ms per event (measured);
/// it is written once the input settles.
const URL_DEBOUNCE_MS: u32 = 150;

/// The HTML's skeleton (what a slow link shows until now) gives way to the app.
fn drop_skeleton() {
    if let Some(el) = web_sys::window().and_then(|w| w.document()).and_then(|d| d.get_element_by_id("skeleton")) {
        el.remove();
    }
}

/// The state an address gives. A slide's link without the state
/// (`?present=1&slide=3`) opens on that slide's own state; one with a state
/// other than its slide's, and no deck, presents that state (a lecturer's own
/// numbers never go under a preset's title).
fn state_at(query: &str) -> (tmath::keys::State, Vec<tmath::keys::SettingError>) {
    let (mut state, errors) = tmath::link::load(query);
    let names_state = tmath::link::parse_query(query)
        .iter()
        .any(|(k, _)| tmath::keys::key(k).is_some_and(|k| k.target() != Target::Page));
    if state.page.present && !names_state {
        slides::apply_slide(&mut state);
    } else if state.page.present && slides::changed_from_slide(&state.page, &state.settings) {
        slides::deck_for_state(&mut state.page);
    }
    (state, errors)
}

#[component]
pub fn App() -> impl IntoView {
    drop_skeleton();
    let (state, errors) = state_at(&current_query());
    let ctx = Ctx::new(state, browser_lang(), errors);
    provide_context(ctx);
    // Back and Forward (to and from the slides) bring their entry's state.
    let back = window_event_listener(leptos::ev::popstate, move |_| {
        let (state, errors) = state_at(&current_query());
        ctx.url_errors.set(errors);
        ctx.load(state);
    });
    on_cleanup(move || back.remove());

    // The query is built when it is written, not on every step.
    let write_url = Debounce::new(URL_DEBOUNCE_MS, move || replace_query(&tmath::link::query(&ctx.state())));
    Effect::new(move |_| {
        ctx.track_state();
        write_url.poke();
    });
    let embed = ctx.page.with_untracked(|p| p.embed);
    let present = move || ctx.page.with(|p| p.present);
    Effect::new(move |_| {
        let lang = ctx.lang.get();
        let title = if embed {
            let view = ctx.page.with(|p| p.view).unwrap_or(tmath::page::View::Memory);
            format!("{} · {}", i18n::view_title(lang, view), i18n::tr(lang, "title"))
        } else if present() {
            format!("{} · {}", slides::title(ctx), i18n::tr(lang, "title"))
        } else {
            i18n::tr(lang, "doc-title").to_string()
        };
        set_document(lang, &title);
    });
    if embed {
        return view! { <Figure /> }.into_any();
    }
    view! {
        <Show when=present fallback=|| view! { <FullPage /> }>
            <Slides />
        </Show>
    }
    .into_any()
}
