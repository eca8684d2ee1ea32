//! Lecture presets as links, exports (PNG, JSON, CSV) and presentation mode.

use super::full_page::Painted;
use crate::bind::text;
use crate::ctx::use_ctx;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::presets::PRESETS;

use crate::export::{download, download_chart, Format};

#[component]
pub fn TeachingBar() -> impl IntoView {
    let ctx = use_ctx();
    let json = move |_| {
        let text = ctx.shown.with(|r| crate::export::json(r, &ctx.state()));
        download("transformer-math.json", "application/json", &text);
    };
    let csv = move |_| {
        let text = ctx.shown.with(|r| crate::export::csv(r, &ctx.state()));
        download("transformer-math.csv", "text/csv", &text);
    };
    // The slides present what is on the screen: the lecturer's deck if the link has one, else the
    // article's views, all on the current state, from the section the page shows. The canned deck
    // (each slide its preset's state) is among the presets.
    let present = move |_| {
        let mut state = ctx.state();
        state.page.present = true;
        super::slides::deck_for_state(&mut state.page);
        let at = state.page.view.and_then(|v| state.page.deck.iter().position(|d| d == v.as_str()));
        state.page.slide = at.map_or(1, |i| i as u64 + 1);
        super::slides::apply_slide(&mut state);
        super::url::navigate(ctx, state);
    };
    view! {
        <div class="teaching">
        <nav aria-label=move || ctx.t("presets")>
            <details class="presets">
                <summary><Tr key="presets" /></summary>
                // Folded away at first: the links come once the first frame is painted.
                <ul>
                    {move || Painted::get().then(|| PRESETS
                        .iter()
                        .map(|p| (p.query, format!("preset-{}", p.name), p.name))
                        // The article's story as slides, each on its preset: one of the presets.
                        .chain([("present=1", "deck-article".to_string(), "deck")])
                        .map(|(query, label, name)| {
                            let lang = move || ctx.lang.get().as_str();
                            view! {
                                <li>
                                    <a data-preset=name href=text(move || format!("?{query}&lang={}", lang()))>
                                        {move || ctx.t(&label)}
                                    </a>
                                </li>
                            }
                        })
                        .collect_view())}
                </ul>
            </details>
        </nav>
            <div class="exports" role="group" aria-label=move || ctx.t("exports")>
                <button type="button" data-export="png" on:click=move |_| download_chart(ctx, Format::Png)>"PNG"</button>
                <button type="button" data-export="svg" on:click=move |_| download_chart(ctx, Format::Svg)>"SVG"</button>
                <button type="button" data-export="json" on:click=json>"JSON"</button>
                <button type="button" data-export="csv" on:click=csv>"CSV"</button>
                <button type="button" data-testid="present" on:click=present>
                    <Tr key="present" />
                </button>
            </div>
        </div>
    }
}
