//! The full calculator: header, lecture bar, the summary line, the controls
//! and every view as a panel with its embed button.

use super::controls::Controls;
use super::embed_code::{EmbedDialog, EmbedOpen};
use super::header::Header;
use super::notices::Notices;
use super::panel::Panel;
use super::summary_bar::SummaryBar;
use super::teaching_bar::TeachingBar;
use crate::ctx::{use_ctx, Ctx};
use crate::tr::Tr;
use leptos::prelude::*;
use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;
use tmath::page::View;

/// The panels, in the order of the article after the headline memory chart.
const PANELS: [View; 13] = [
    View::Memory,
    View::ModelStates,
    View::Activations,
    View::Zero,
    View::Finetune,
    View::ThreeD,
    View::Inference,
    View::Serving,
    View::Compute,
    View::Chinchilla,
    View::Planner,
    View::Sweeps,
    View::Fp,
];

/// Runs `f` once, after the browser has painted the current frame; or after
/// half a second if frames are held back (a background tab).
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

/// Whether the first frame, the header and the summary line, has been painted.
/// What reading the result does not need waits for it: the header's two
/// selects (a `<select>` is costly for the browser to build: the pair put the
/// phone's first result about 50 ms later, measured) and the lecture bar's
/// list of presets, which is folded away. Each keeps its place meanwhile.
#[derive(Clone, Copy)]
pub struct Painted(pub RwSignal<bool>);

impl Painted {
    /// Tracked; true where no full page waits (a figure, a slide).
    pub fn get() -> bool {
        use_context::<Painted>().is_none_or(|p| p.0.get())
    }
}

/// The controls and every panel. Mounted after the first paint (see `FullPage`).
fn panels(ctx: Ctx) -> impl IntoView {
    view! {
        <main class="layout" id="main">
            <Controls />
            <div class="results" id="results" tabindex="-1">
                {PANELS.iter().map(|&v| view! { <Panel view=v /> }).collect_view()}
            </div>
        </main>
        <footer>
            <p><Tr key="source" /> " · " {move || ctx.t(if ctx.units() == tmath::units::ByteUnit::Gib { "unit-note-gib" } else { "unit-note-gb" })}</p>
        </footer>
        <EmbedDialog />
    }
}

/// Scrolls the panel of `view` into view (a link's `view=` on the full page).
fn scroll_to(view: View) {
    let el = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(&format!("section[data-view=\"{}\"]", view.as_str())).ok().flatten());
    if let Some(el) = el {
        el.scroll_into_view();
    }
}

#[component]
pub fn FullPage() -> impl IntoView {
    let ctx = use_ctx();
    provide_context(EmbedOpen(RwSignal::new(None)));
    let embed_open = expect_context::<EmbedOpen>();
    // The first paint is the header and the summary; everything below it mounts
    // in the next task. Laying out and painting the whole page first put the
    // first result 236 ms later (paired median of 15 loads, 2026-11-30).
    let panels_ref = NodeRef::<leptos::html::Div>::new();
    let painted = RwSignal::new(false);
    provide_context(Painted(painted));
    after_first_paint(move || {
        painted.set(true);
        if let Some(el) = panels_ref.get_untracked() {
            leptos::mount::mount_to(el.into(), move || {
                provide_context(ctx);
                provide_context(embed_open);
                panels(ctx)
            })
            .forget();
            if let Some(v) = ctx.page.with_untracked(|p| p.view) {
                scroll_to(v);
            }
            // A scroll is about to show views that wait for input to pause: they
            // catch up in the scroll's own frame, before it is painted.
            // (Dropping the handle keeps the listener.)
            let _ = window_event_listener(leptos::ev::scroll, move |_| ctx.settle_now());
        }
    });
    view! {
        <div class="app">
            <a class="skip" href="#results"><Tr key="skip-to-results" /></a>
            <Header />
            <TeachingBar />
            <Notices />
            <SummaryBar />
            <div class="panels" node_ref=panels_ref></div>
        </div>
    }
}
