//! A figure (`embed=1&view=V`): what a reader of one section of the article
//! needs, in a frame of another page. The view's result and chart, only the
//! few controls that move it, and a link to the full calculator on the same
//! state. A figure has a fixed height (its chart takes what the rest leaves),
//! so the frame's `height` attribute holds at any width from 360 to 720 px;
//! the height is also posted to the parent, on every change.

use super::notices::Notices;
use super::url::{link_to, report_height};
use crate::ctx::use_ctx;
use crate::fields::Field;
use crate::i18n;
use crate::layout::figure;
use crate::panels::{body, Mode};
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::keys::K;
use tmath::page::View;

/// A figure's or a slide's control of `key`; the one that stands in for it
/// ([`crate::layout::STANDS_IN`]) beside it, each shown while the other is moot.
pub fn control(key: K) -> AnyView {
    let (moot, instead, when) = crate::layout::STANDS_IN;
    if key != moot {
        return view! { <Field key=key /> }.into_any();
    }
    let ctx = use_ctx();
    view! {
        <div class="stands-in" hidden=move || ctx.view.with(when)><Field key=key /></div>
        <div class="stands-in" hidden=move || !ctx.view.with(when)><Field key=instead /></div>
    }
    .into_any()
}

#[component]
pub fn Figure() -> impl IntoView {
    let ctx = use_ctx();
    // The view is fixed by the link the frame was given.
    let view = ctx.page.with_untracked(|p| p.view).unwrap_or(View::Memory);
    let f = figure(view);
    report_height(move || ctx.track_state());
    let full = move || {
        ctx.track_state();
        let mut state = ctx.state();
        state.page.embed = false;
        state.page.view = None;
        link_to(&state)
    };
    let style = format!("--figure-height:{}px", f.height);
    let controls = f.controls.iter().map(|&k| control(k)).collect_view();
    view! {
        <div class="figure" data-view=view.as_str() style=style>
            <header class="figure-head">
                <h1 class="figure-title">{move || i18n::view_title(ctx.lang.get(), view)}</h1>
                <a class="open-full" data-testid="open-full" href=full target="_blank" rel="noopener">
                    <Tr key="open-full" /> " ↗"
                </a>
            </header>
            <Notices />
            <div class="figure-body">{body(view, Mode::Figure, &[])}</div>
            {(!f.controls.is_empty()).then(|| view! { <div class="figure-controls">{controls}</div> })}
            <footer class="figure-foot"><Tr key="source-short" /></footer>
        </div>
    }
}
