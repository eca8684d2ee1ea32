//! Messages next to a control: a rejected entry, an impossible combination,
//! or a rule of the article that the configuration bends.

use crate::ctx::use_ctx;
use crate::i18n;
use leptos::prelude::*;
use tmath::keys::K;

#[component]
pub fn FieldNotes(
    /// The key of the control these notes belong to.
    key: K,
    /// The element id the control points at with `aria-describedby`.
    id: String,
) -> impl IntoView {
    let ctx = use_ctx();
    // A memo: the list re-renders only when its text changes, not on every slider step.
    let notes = Memo::new(move |_| {
        let here = ctx.page.with(crate::ctx::topic);
        let lang = ctx.lang.get();
        let mut out: Vec<(&'static str, String)> = Vec::new();
        ctx.field_errors.with(|errs| {
            out.extend(errs.iter().filter(|(k, _)| *k == key).map(|(_, e)| ("error", i18n::setting_error(lang, e))))
        });
        ctx.result.with(|r| {
            if let Err(e) = r {
                if e.key() == key {
                    out.push(("error", i18n::config_error(lang, e)));
                }
            }
        });
        ctx.shown.with(|r| {
            out.extend(
                r.warnings
                    .iter()
                    .filter(|w| w.key() == key && here.is_none_or(|v| w.on_topic(v)))
                    .map(|w| ("warning", i18n::warning(lang, w))),
            )
        });
        // "128k" is 128,000 tokens, not 131,072: say so where a length reads as such.
        if matches!(key, K::Context | K::SeqLen) {
            let n = ctx.view.with(|s| tmath::decimal::parse(&key.row().shown_in(s))).unwrap_or(0.0) as u64;
            out.extend(i18n::thousands_not_kibi(lang, n).map(|t| ("info", t)));
        }
        // A bare P takes a published shape: say which.
        if key == K::Params {
            if let tmath::settings::ShapeSource::Derived(shape) = ctx.view.with(|s| s.shape_source()) {
                out.push(("info", i18n::derived_shape(lang, shape)));
            }
        }
        out
    });
    // One element per (position, kind): a step that only changes a note's
    // numbers (the attention share as P moves) rewrites its text node, not the element.
    let kinds = Memo::new(move |_| notes.with(|n| n.iter().map(|(kind, _)| *kind).collect::<Vec<_>>()));
    view! {
        <div class="notes" id=id aria-live="polite">
            {move || {
                kinds
                    .get()
                    .into_iter()
                    .enumerate()
                    .map(|(i, kind)| {
                        let text = move || notes.with(|n| n.get(i).map(|(_, t)| t.clone()).unwrap_or_default());
                        view! { <p class=kind role=if kind == "error" { "alert" } else { "note" }>{text}</p> }
                    })
                    .collect_view()
            }}
        </div>
    }
}
