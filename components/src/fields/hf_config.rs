//! A Hugging Face `config.json` or a Megatron-LM launch (its flags, or a
//! `model_config.yaml`), pasted or dropped on the shape's fieldset: the core
//! maps its fields to the keys (offline); the page applies them and says
//! which fields it used and which it did not.

use crate::ctx::use_ctx;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::keys::K;
use wasm_bindgen::closure::Closure;

/// What is pasted: a model's `config.json` (the shape alone), or a
/// Megatron-LM launch (the shape, the layout and the training keys).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Hf,
    Megatron,
}

/// A flag as shown: its hyphens no-break (U+2011), so `--hidden-size` never splits across lines.
fn unbroken(flag: &str) -> String {
    flag.replace('-', "\u{2011}")
}

#[component]
pub fn HfConfig(
    /// Which reader.
    #[prop(default = Source::Hf)]
    source: Source,
) -> impl IntoView {
    let ctx = use_ctx();
    let (title, placeholder, testid, result_testid) = match source {
        Source::Hf => ("hf-title", "hf-placeholder", "hf-config", "hf-result"),
        Source::Megatron => ("megatron-title", "megatron-placeholder", "megatron-args", "megatron-result"),
    };
    // What the last config gave, in the page's language: the fields used and
    // those not used, or why it was not read (then `failed`).
    let result = RwSignal::new(String::new());
    let failed = RwSignal::new(false);
    let apply = move |text: String| {
        let lang = ctx.lang.get_untracked();
        let read = match source {
            Source::Hf => tmath::hf::read(&text).map_err(|e| crate::i18n::hf_error(lang, &e)),
            Source::Megatron => tmath::megatron::read(&text).map_err(|e| crate::i18n::megatron_error(lang, &e)),
        };
        match read {
            Ok(m) => {
                ctx.settings.update(|s| {
                    // A config.json is the shape only: the layout (N, d) stays as it was. A launch
                    // is the whole run: it starts from the defaults, keeping the GPU, its price and D.
                    if source == Source::Megatron {
                        let kept = (s.gpu, s.gpu_mem, s.tflops, s.usd_per_gpu_hour, s.tokens);
                        *s = tmath::settings::Settings::default();
                        (s.gpu, s.gpu_mem, s.tflops, s.usd_per_gpu_hour, s.tokens) = kept;
                    }
                    for (k, v, _) in &m.pairs {
                        let _ = s.set(k, v);
                    }
                });
                // Each field with the control it set, by the control's label; a switch as JSON wrote it.
                let used: Vec<String> = m
                    .pairs
                    .iter()
                    .filter(|(_, _, field)| !field.is_empty())
                    .map(|(k, v, field)| {
                        let label = K::of(k).map_or(*k, |k| crate::i18n::label(lang, k));
                        let value = match (*k, v.as_str()) {
                            ("tie-embeddings", "1") => "true",
                            ("tie-embeddings", _) => "false",
                            _ => v,
                        };
                        format!("{} → {label}\u{a0}=\u{a0}{value}", unbroken(field))
                    })
                    .collect();
                // The three lists, each with its heading: used, not read, without effect.
                let mut said = String::new();
                for (heading, names, plain) in
                    [("hf-used", used, true), ("hf-unused", m.unused, false), ("hf-no-effect", m.no_effect, false)]
                {
                    let names = names.join(", ");
                    let names = if names.is_empty() {
                        "—".to_string()
                    } else if plain {
                        names
                    } else {
                        unbroken(&names)
                    };
                    said.push_str(&format!("{}: {names}. ", crate::i18n::tr(lang, heading)));
                }
                result.set(said.trim_end().to_string());
                failed.set(false);
            }
            Err(e) => {
                result.set(e);
                failed.set(true);
            }
        }
    };
    let on_input = move |ev: web_sys::Event| {
        let text = event_target_value(&ev);
        if !text.trim().is_empty() {
            apply(text);
        }
    };
    // A dropped file is read as text (Blob.text(), a promise).
    let on_drop = move |ev: web_sys::DragEvent| {
        ev.prevent_default();
        if let Some(file) = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
            let done = Closure::once(move |v: wasm_bindgen::JsValue| apply(v.as_string().unwrap_or_default()));
            let _ = file.text().then(&done);
            done.forget();
        }
    };
    view! {
        <details class="hf-config" data-testid=testid>
            <summary><Tr key=title /></summary>
            <textarea
                rows="4"
                spellcheck="false"
                aria-label=move || ctx.t(title)
                placeholder=move || ctx.t(placeholder)
                on:input=on_input
                on:dragover=|ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=on_drop
            ></textarea>
            <p class="detail" class:error=failed data-testid=result_testid role="status">{result}</p>
        </details>
    }
}
