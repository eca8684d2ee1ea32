//! A select whose `name` is the URL key and whose option values are the core's spellings.

use super::field_notes::FieldNotes;
use super::hints::Options;
use crate::ctx::{use_ctx, Ctx};
use crate::i18n;
use leptos::prelude::*;
use tmath::catalog::{GPUS, MODELS};
use tmath::keys::K;

/// Divisors of `n` up to `limit`, plus `current` so the select always shows it.
fn divisors(n: u64, limit: u64, current: u64) -> Vec<u64> {
    let mut d: Vec<u64> = (1..=n.min(limit)).filter(|k| n.is_multiple_of(*k)).collect();
    if let Err(at) = d.binary_search(&current) {
        d.insert(at, current);
    }
    d
}

/// (value, label) pairs of a select, labels in the page's language; tracked.
fn options(ctx: Ctx, key: K, kind: Options) -> Vec<(String, String)> {
    let numbered = |d: Vec<u64>| d.into_iter().map(|d| (d.to_string(), d.to_string())).collect();
    match kind {
        Options::Models => {
            let custom = i18n::tr(ctx.lang.get(), "custom").to_string();
            std::iter::once(("custom".to_string(), custom))
                .chain(MODELS.iter().map(|m| (m.name.to_string(), i18n::model_label(ctx.lang.get(), m))))
                .collect()
        }
        Options::Gpus => GPUS.iter().map(|g| (g.name.to_string(), g.short_label().to_string())).collect(),
        Options::HeadDivisors => numbered(ctx.view.with(|s| divisors(s.architecture().tp_divides(), 64, s.tp))),
        // The divisors of L and the uneven pipelines the planner tries (405B: 16 stages of 126 layers).
        Options::LayerDivisors => numbered(ctx.view.with(|s| {
            let mut d: Vec<u64> =
                tmath::planner::pp_choices(s.architecture().layers).into_iter().filter(|&p| p <= 128).collect();
            if let Err(at) = d.binary_search(&s.pp) {
                d.insert(at, s.pp);
            }
            d
        })),
        Options::ZeroStages => (0..=3).map(|z| (z.to_string(), format!("ZeRO-{z}"))).collect(),
        Options::Choices => {
            let lang = ctx.lang.get();
            key.row().choices().into_iter().map(|v| (v.to_string(), i18n::choice(lang, key, v).to_string())).collect()
        }
    }
}

#[component]
pub fn ChoiceField(
    /// The key this control sets.
    key: K,
    /// Which options it offers.
    kind: Options,
) -> impl IntoView {
    let ctx = use_ctx();
    let value = Memo::new(move |_| ctx.value(key));
    let invalid = Memo::new(move |_| ctx.has_error(key));
    // The options as a memo: a slider step that leaves them as they were (the
    // usual case for t and p) touches none of the <option> elements.
    let list = Memo::new(move |_| options(ctx, key, kind));
    let id = format!("f-{}", key.name());
    let notes_id = format!("n-{}", key.name());
    view! {
        <div class="field choice" class:invalid=invalid data-field=key.name()>
            <label for=id.clone()>{move || i18n::label(ctx.lang.get(), key)}</label>
            <select
                id=id
                name=key.name()
                aria-invalid=move || invalid.get().to_string()
                aria-describedby=notes_id.clone()
                prop:value=move || value.get()
                on:change=move |ev| ctx.set(key, &event_target_value(&ev))
            >
                {move || {
                    let current = value.get_untracked();
                    list.get()
                        .into_iter()
                        .map(|(v, label)| {
                            let selected = v == current;
                            view! { <option value=v selected=selected>{label}</option> }
                        })
                        .collect_view()
                }}
            </select>
            <FieldNotes key=key id=notes_id />
        </div>
    }
}
