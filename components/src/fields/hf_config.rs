//! A Hugging Face `config.json`, pasted or dropped on the shape's fieldset:
//! the core maps its fields to the shape keys (offline); the page applies
//! them and says which fields it used and which it did not.

use crate::ctx::use_ctx;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::keys::K;
use wasm_bindgen::closure::Closure;

#[component]
pub fn HfConfig() -> impl IntoView {
    let ctx = use_ctx();
    // What the last config gave, in the page's language: the fields used and
    // those not used, or why it was not read (then `failed`).
    let result = RwSignal::new(String::new());
    let failed = RwSignal::new(false);
    let apply = move |text: String| {
        let lang = ctx.lang.get_untracked();
        match tmath::hf::read(&text) {
            Ok(m) => {
                // The shape only: the layout (N, d) stays as it was.
                ctx.settings.update(|s| {
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
                        format!("{field} → {label}\u{a0}=\u{a0}{value}")
                    })
                    .collect();
                let unused = if m.unused.is_empty() { "—".to_string() } else { m.unused.join(", ") };
                result.set(format!(
                    "{}: {}. {}: {unused}.",
                    crate::i18n::tr(lang, "hf-used"),
                    used.join(", "),
                    crate::i18n::tr(lang, "hf-unused")
                ));
                failed.set(false);
            }
            Err(e) => {
                result.set(crate::i18n::hf_error(lang, &e));
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
        <details class="hf-config" data-testid="hf-config">
            <summary><Tr key="hf-title" /></summary>
            <textarea
                rows="4"
                spellcheck="false"
                aria-label=move || ctx.t("hf-title")
                placeholder=move || ctx.t("hf-placeholder")
                on:input=on_input
                on:dragover=|ev: web_sys::DragEvent| ev.prevent_default()
                on:drop=on_drop
            ></textarea>
            <p class="detail" class:error=failed data-testid="hf-result" role="status">{result}</p>
        </details>
    }
}
