//! Every input, grouped as the article is: model, data, training, parallelism, hardware.

use crate::bind::text;
use crate::choice_field::ChoiceField;
use crate::ctx::use_ctx;
use crate::geometry::Scale;
use crate::number_field::{Mark, NumberField};
use crate::switch_field::SwitchField;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::catalog::{GPUS, MODELS};
use tmath::settings::choices;

/// Divisors of `n` up to `limit`, plus `current` so the select always shows it.
fn divisors(n: u64, limit: u64, current: u64) -> Vec<u64> {
    let mut d: Vec<u64> = (1..=n.min(limit)).filter(|k| n.is_multiple_of(*k)).collect();
    if let Err(at) = d.binary_search(&current) {
        d.insert(at, current);
    }
    d
}

#[component]
pub fn Controls() -> impl IntoView {
    let ctx = use_ctx();
    // Options of a choice key, labelled in the page's language where a label exists.
    let opts = move |key: &'static str| -> Signal<Vec<(String, String)>> {
        Signal::derive(move || {
            let lang = ctx.lang.get();
            choices(key)
                .into_iter()
                .map(|v| {
                    let label = crate::i18n::tr(lang, v);
                    (v.to_string(), if label == "?" { v.to_string() } else { label.to_string() })
                })
                .collect()
        })
    };
    let models = Signal::derive(move || {
        let mut v = vec![(String::new(), ctx.t("custom").to_string())];
        v.extend(MODELS.iter().map(|m| (m.name.to_string(), m.label.to_string())));
        v
    });
    let gpus = Signal::derive(move || GPUS.iter().map(|g| (g.name.to_string(), g.label.to_string())).collect());
    let grad = Signal::derive(move || {
        let mut v = vec![(String::new(), ctx.t("grad-dtype-auto").to_string())];
        v.extend(choices("grad-dtype").into_iter().map(|g| (g.to_string(), g.to_string())));
        v
    });
    let zero = Signal::derive(move || (0..=3).map(|z| (z.to_string(), format!("ZeRO-{z}"))).collect());
    let tp = Signal::derive(move || {
        let (heads, t) = ctx.settings.with(|s| (s.architecture().heads, s.tp));
        divisors(heads, 64, t).into_iter().map(|d| (d.to_string(), d.to_string())).collect()
    });
    let pp = Signal::derive(move || {
        let (layers, p) = ctx.settings.with(|s| (s.architecture().layers, s.pp));
        divisors(layers, 128, p).into_iter().map(|d| (d.to_string(), d.to_string())).collect()
    });
    let gpu_count = move || ctx.shown.with(|r| r.config.layout.gpus());
    let token_marks = Signal::derive(move || {
        let optimal = ctx.shown.with(|r| r.chinchilla_tokens().get());
        vec![
            Mark { value: tmath::compute::MIN_RECOMMENDED_TOKENS, class: "floor", label: "200B".to_string() },
            Mark { value: optimal, class: "optimal", label: format!("20P = {}", tmath::units::format_count(optimal)) },
        ]
    });
    view! {
        <div class="controls" data-view="controls">
            <fieldset>
                <legend><Tr key="section-model" /></legend>
                <ChoiceField key="model" options=models />
                <NumberField key="params" scale=Scale::Log { min: 1e7, max: 2e12 } />
                <NumberField key="active-params" />
                <div class="grid2">
                    <NumberField key="layers" />
                    <NumberField key="hidden" />
                    <NumberField key="heads" />
                    <NumberField key="vocab" />
                </div>
                <NumberField key="seq-len" scale=Scale::Pow2 { min: 7, max: 17 } />
                <NumberField key="micro-batch" scale=Scale::Pow2 { min: 0, max: 6 } />
            </fieldset>
            <fieldset>
                <legend><Tr key="section-data" /></legend>
                <NumberField key="tokens" scale=Scale::Log { min: 1e9, max: 1e14 } marks=token_marks />
            </fieldset>
            <fieldset>
                <legend><Tr key="section-training" /></legend>
                <ChoiceField key="precision" options=opts("precision") />
                <ChoiceField key="grad-dtype" options=grad />
                <ChoiceField key="optimizer" options=opts("optimizer") />
                <ChoiceField key="recompute" options=opts("recompute") />
                <SwitchField key="sequence-parallel" />
                <SwitchField key="partition-activations" />
                <SwitchField key="tsp" />
                <ChoiceField key="offload" options=opts("offload") />
                <ChoiceField key="convention" options=opts("convention") />
            </fieldset>
            <fieldset>
                <legend><Tr key="section-parallel" /></legend>
                <ChoiceField key="zero" options=zero />
                <div class="grid2">
                    <ChoiceField key="tp" options=tp />
                    <ChoiceField key="pp" options=pp />
                </div>
                <NumberField key="dp" scale=Scale::Pow2 { min: 0, max: 14 } />
                <NumberField key="grad-accum" scale=Scale::Pow2 { min: 0, max: 9 } />
                <p class="derived" data-testid="gpus" data-gpus=text(move || gpu_count().to_string())>
                    <Tr key="gpus" /> " = " {text(move || gpu_count().to_string())}
                </p>
            </fieldset>
            <fieldset>
                <legend><Tr key="section-hardware" /></legend>
                <ChoiceField key="gpu" options=gpus />
                <NumberField key="gpu-mem" unit="GB" />
                <NumberField key="tflops" unit="TFLOP/s" />
                <NumberField key="usd-per-gpu-hour" unit="USD" />
                <ChoiceField key="inference-dtype" options=opts("inference-dtype") />
            </fieldset>
        </div>
    }
}
