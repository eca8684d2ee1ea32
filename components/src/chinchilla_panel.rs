//! Chinchilla guidance: D/P against 20, what D = 20P would be, and the article's 200B floor.

use crate::bind::text;
use crate::ctx::use_ctx;
use crate::explain::Explain;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::compute::{CHINCHILLA_TOKENS_PER_PARAM, MIN_RECOMMENDED_TOKENS};
use tmath::units::{format_count, format_sig};

#[component]
pub fn ChinchillaPanel() -> impl IntoView {
    let ctx = use_ctx();
    let r = ctx.shown;
    let optimal = move || r.with(|r| r.chinchilla_tokens().get());
    let ratio = move || r.with(|r| r.tokens_per_param());
    let below_floor = move || r.with(|r| r.config.tokens.get() < MIN_RECOMMENDED_TOKENS);
    // Position of D on a log axis spanning the slider's 1B–100T, with markers at 20P and 200B.
    let pos = |tokens: f64| format!("left:{:.2}%", ((tokens.log10() - 9.0) / 5.0 * 100.0).clamp(0.0, 100.0));
    view! {
        <section class="panel chinchilla" data-view="chinchilla" aria-labelledby="h-chinchilla">
            <h2 id="h-chinchilla"><Tr key="section-chinchilla" /></h2>
            <p data-testid="chinchilla" data-tokens=text(move || optimal().to_string())>
                <Tr key="chinchilla-optimal" /> ": " <strong>{text(move || format_count(optimal()))}</strong>
                " tokens " <Explain item=tmath::explain::Item::Chinchilla />
            </p>
            <p data-testid="tokens-per-param" data-value=text(move || ratio().to_string())>
                <Tr key="chinchilla-ratio" /> ": " <strong>{text(move || format_sig(ratio()))}</strong>
                {format!(" / {CHINCHILLA_TOKENS_PER_PARAM}")}
            </p>
            <div class="token-axis" aria-hidden="true">
                {["1B", "10B", "100B", "1T", "10T", "100T"]
                    .iter()
                    .enumerate()
                    .map(|(i, t)| view! { <span class="tick" style=format!("left:{}%", i * 20)>{*t}</span> })
                    .collect_view()}
                <span class="mark floor" style=pos(MIN_RECOMMENDED_TOKENS)></span>
                <span class="mark optimal" style=text(move || pos(optimal()))></span>
                <span class="mark current" style=text(move || r.with(|r| pos(r.config.tokens.get())))></span>
            </div>
            <ul class="axis-legend">
                <li><span class="key current"></span>"D = " {text(move || r.with(|r| format_count(r.config.tokens.get())))}</li>
                <li><span class="key optimal"></span>"20P = " {text(move || format_count(optimal()))}</li>
                <li><span class="key floor"></span>"200B"</li>
            </ul>
            <p class="floor-note" class:warn=below_floor><Tr key="chinchilla-floor" /></p>
        </section>
    }
}
