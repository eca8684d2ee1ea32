//! A numeric control: label, optional slider, and a text entry that takes the
//! core's number forms (7B, 1.4T, 2k, 70억). Its `name` is the URL key.

use super::field_notes::FieldNotes;
use super::hints::counted;
use super::scale::{round_sig, Scale};
use crate::bind::text;
use crate::ctx::use_ctx;
use crate::debounce::Debounce;
use crate::i18n;
use leptos::prelude::*;
use tmath::keys::K;
use tmath::page::Lang;

/// How long typing pauses before the entry computes (the URL waits 150 ms more).
const TYPING_DEBOUNCE_MS: u32 = 350;

/// How the entry shows a number: counts as the page's language writes them
/// (7B, 1.4T; 70억, 1.4조), small numbers plainly.
fn shown(k: K, raw: &str, lang: Lang) -> String {
    match tmath::decimal::parse(raw) {
        Some(x) if counted(k) && x >= 1e4 => compact(x, lang),
        _ => raw.to_string(),
    }
}

/// Up to four significant digits with a unit the parser reads back (6.738B,
/// 70.55B, 67.38억): enough that the entry and a formula's three digits agree.
fn compact(x: f64, lang: Lang) -> String {
    let rounded = round_sig(x, 4);
    let s = match lang {
        Lang::En => tmath::units::count_with(rounded, 4),
        Lang::Ko => i18n::count4(rounded),
    };
    if tmath::units::parse_number(&s).is_ok() {
        s
    } else {
        format!("{x}")
    }
}

/// A reference value marked under a slider.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub value: f64,
    pub label: String,
}

/// The marks' classes, in [`chinchilla_marks`]'s order.
const MARK_CLASSES: [&str; 2] = ["mark floor", "mark optimal"];

/// The marks under the token slider: the article's 200B floor and Chinchilla's 20P.
fn chinchilla_marks() -> Signal<Vec<Mark>> {
    let ctx = use_ctx();
    Signal::derive(move || {
        let optimal = ctx.shown.with(|r| r.chinchilla_tokens().get());
        let lang = ctx.lang.get();
        vec![
            Mark {
                value: tmath::compute::MIN_RECOMMENDED_TOKENS,
                label: format!(
                    "{}\u{a0}{}",
                    i18n::tr(lang, "floor"),
                    i18n::count(lang, tmath::compute::MIN_RECOMMENDED_TOKENS)
                ),
            },
            Mark { value: optimal, label: format!("20P\u{a0}=\u{a0}{}", i18n::count(lang, optimal)) },
        ]
    })
}

fn slider(k: K, scale: Scale, marks: bool, value: Memo<String>) -> impl IntoView {
    let ctx = use_ctx();
    let (lo, hi) = scale.positions();
    let step = if matches!(scale, Scale::Pow2 { .. }) { "1" } else { "any" };
    let numeric = move || tmath::decimal::parse(&value.get()).unwrap_or(0.0);
    // Ticks under the slider; their labels in a line below, so close marks never collide.
    let marks = marks.then(|| {
        let marks = chinchilla_marks();
        // Two marks, made once: a step moves the optimum's tick and rewrites its
        // label, and touches nothing else.
        let ticks = (0..2)
            .map(|i| {
                let style = move || {
                    marks.with(|m| {
                        let frac = m.get(i).map_or(0.0, |m| (scale.position(m.value) - lo) / (hi - lo));
                        // The thumb's centre travels from 8 px to width − 8 px.
                        format!("left:calc(8px + (100% - 16px) * {frac:.4})")
                    })
                };
                view! { <span class=MARK_CLASSES[i] style=style></span> }
            })
            .collect_view();
        let labels = (0..2)
            .map(|i| {
                let label = move || marks.with(|m| m.get(i).map(|m| m.label.clone()).unwrap_or_default());
                view! { <span class=MARK_CLASSES[i]>{label}</span> }
            })
            .collect_view();
        view! {
            <div class="slider-marks" aria-hidden="true">{ticks}</div>
            <div class="mark-labels" aria-hidden="true">{labels}</div>
        }
    });
    view! {
        <div class="slider-wrap">
            // Not a Tab stop of its own: the entry beside it is the keyboard's way in
            // (a log slider's arrow step is a thousandth of its range).
            <input
                type="range"
                class="slider"
                data-key=k.name()
                tabindex="-1"
                min=lo
                max=hi
                step=step
                aria-label=move || i18n::label(ctx.lang.get(), k)
                aria-valuetext=text(move || i18n::spoken(ctx.lang.get(), k, numeric()))
                prop:value=move || scale.position(numeric()).to_string()
                on:input=move |ev| {
                    if let Some(pos) = tmath::decimal::parse(&event_target_value(&ev)) {
                        ctx.set(k, &format!("{}", scale.value(pos)));
                    }
                }
            />
            {marks}
        </div>
    }
}

#[component]
pub fn NumberField(
    /// The key this control sets.
    key: K,
    /// A slider beside the entry, if any.
    scale: Option<Scale>,
    /// Unit shown after the entry.
    unit: &'static str,
    /// The Chinchilla marks under the slider.
    marks: bool,
) -> impl IntoView {
    let ctx = use_ctx();
    let value = Memo::new(move |_| ctx.value(key));
    let invalid = Memo::new(move |_| ctx.has_error(key));
    let id = format!("f-{}", key.name());
    let notes_id = format!("n-{}", key.name());
    let slider = scale.map(|scale| slider(key, scale, marks, value));
    // Typing computes once it pauses, when what is typed reads as a number; a
    // half-typed entry ("1e") waits for Enter or leaving the field to be judged.
    // While the entry has the focus the page does not rewrite it (70000000000
    // would turn into 70B under the cursor): it shows its own form on leaving.
    let entry = NodeRef::<leptos::html::Input>::new();
    let typing = StoredValue::new_local(false);
    let follow = Debounce::new(TYPING_DEBOUNCE_MS, move || {
        // The field may be gone by then (a slide turned): its node reads as none.
        if let Some(el) = entry.try_get_untracked().flatten() {
            let text = el.value();
            if key.row().parse(&text).is_ok() {
                ctx.set(key, &text);
            }
        }
    });
    view! {
        <div class="field number" class:invalid=invalid data-field=key.name()>
            <label for=id.clone()>{move || i18n::label(ctx.lang.get(), key)}</label>
            <div class="inputs">
                {slider}
                <input
                    id=id
                    name=key.name()
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    spellcheck="false"
                    aria-invalid=move || invalid.get().to_string()
                    aria-describedby=notes_id.clone()
                    node_ref=entry
                    prop:value=move || {
                        let v = shown(key, &value.get(), ctx.lang.get());
                        match entry.get_untracked() {
                            Some(el) if typing.get_value() => el.value(),
                            _ => v,
                        }
                    }
                    on:input=move |_| {
                        typing.set_value(true);
                        follow.poke();
                    }
                    on:change=move |ev| {
                        typing.try_set_value(false);
                        ctx.set(key, &event_target_value(&ev));
                    }
                    on:blur=move |_| {
                        // Leaving without a change (an entry typed back to its value): show the page's form.
                        // An entry removed while focused (the slide turned) blurs after its
                        // signals are gone: `try_` reads, which then do nothing.
                        if typing.try_update_value(|t| std::mem::replace(t, false)) != Some(true) {
                            return;
                        }
                        if let (Some(el), Some(v), Some(lang)) =
                            (entry.try_get_untracked().flatten(), value.try_get_untracked(), ctx.lang.try_get_untracked())
                        {
                            el.set_value(&shown(key, &v, lang));
                        }
                    }
                />
                {(!unit.is_empty()).then(|| view! { <span class="unit">{unit}</span> })}
            </div>
            <FieldNotes key=key id=notes_id />
        </div>
    }
}
