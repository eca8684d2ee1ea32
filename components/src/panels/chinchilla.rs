//! Chinchilla guidance: D/P against 20, what D = 20P would be, and the
//! article's 200B floor, on a log-log chart of tokens against parameters.

use super::Mode;
use crate::bind::text;
use crate::charts::line_chart::{LineChart, LineScene, Point, Rule, Series, YAxis};
use crate::ctx::use_ctx;
use crate::explain::Explain;
use crate::i18n;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::compute::{chinchilla_tokens, CHINCHILLA_TOKENS_PER_PARAM, MIN_RECOMMENDED_TOKENS};
use tmath::units::Params;

#[component]
pub fn ChinchillaView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    let r = ctx.shown;
    let optimal = move || r.with(|r| r.chinchilla_tokens().get());
    let ratio = move || r.with(|r| r.tokens_per_param());
    let below_floor = move || r.with(|r| r.config.tokens.get() < MIN_RECOMMENDED_TOKENS);
    let scene = Signal::derive(move || {
        let lang = ctx.lang.get();
        let (p, d) = r.with(|r| (r.config.params.get(), r.config.tokens.get()));
        // Two decades either side of the model, and always past 1B and 1T parameters' worth.
        let (lo, hi) = ((p / 100.0).min(1e9), (p * 100.0).max(1e12));
        let line =
            tmath::sweep::log_points(lo, hi, 12).into_iter().map(|x| (x, chinchilla_tokens(Params(x)).get())).collect();
        LineScene {
            series: vec![Series::new(ctx.t("chinchilla-line").into(), line, 2)],
            y: YAxis::Count,
            marks: Vec::new(),
            rules: vec![Rule { y: MIN_RECOMMENDED_TOKENS, label: ctx.t("chinchilla-floor-short").into() }],
            marker: None,
            points: vec![Point {
                x: p,
                y: d,
                label: format!("{} · D/P\u{a0}=\u{a0}{}", ctx.t("this-run"), crate::i18n::grouped_sig(d / p)),
            }],
            x_name: ctx.t("params-axis").into(),
            y_name: ctx.t("tokens-axis").into(),
            lang,
        }
    });
    let label = Signal::derive(move || {
        format!("{}: {} / {CHINCHILLA_TOKENS_PER_PARAM}", ctx.t("chinchilla-ratio"), crate::i18n::grouped_sig(ratio()))
    });
    view! {
        <p data-testid="chinchilla" data-tokens=text(move || optimal().to_string())>
            <Tr key="chinchilla-optimal" /> ": " <strong>{text(move || i18n::count(ctx.lang.get(), optimal()))}</strong>
            " " <Tr key="tokens-word" /> " " <Explain item=tmath::explain::Item::Chinchilla />
        </p>
        <p data-testid="tokens-per-param" data-value=text(move || ratio().to_string())>
            <Tr key="chinchilla-ratio" /> ": " <strong>{text(move || crate::i18n::grouped_sig(ratio()))}</strong>
            " / 20"
        </p>
        <LineChart scene=scene label=label testid="chinchilla-chart" size=mode.chart(220.0) font=mode.font() />
        <p class="floor-note" class:warn=below_floor><Tr key="chinchilla-floor" /></p>
    }
}
