//! A numeric control: label, optional slider, and a text entry that takes the
//! core's number forms (7B, 1.4T, 2k). Its `name` is the URL key.

use crate::ctx::use_ctx;
use crate::field_notes::FieldNotes;
use crate::geometry::Scale;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::units::format_count;

/// How the entry shows a number: counts with a suffix, small numbers plainly.
fn shown(key: &str, raw: &str) -> String {
    match (key, raw.parse::<f64>()) {
        ("params" | "active-params" | "tokens" | "max-live-params", Ok(x)) if x >= 1e4 => compact(x),
        _ => raw.to_string(),
    }
}

/// Up to four significant digits with a suffix the parser reads back (7B, 6.738B).
fn compact(x: f64) -> String {
    let s = format_count(crate::geometry::round_sig(x, 4));
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
    /// CSS class giving its colour (`floor`, `optimal`).
    pub class: &'static str,
    pub label: String,
}

#[component]
pub fn NumberField(
    /// The URL key this control sets.
    key: &'static str,
    /// A slider beside the entry, if any.
    #[prop(optional)]
    scale: Option<Scale>,
    /// Unit shown after the entry.
    #[prop(optional)]
    unit: &'static str,
    /// Reference values marked under the slider.
    #[prop(optional)]
    marks: Option<Signal<Vec<Mark>>>,
) -> impl IntoView {
    let ctx = use_ctx();
    let value = Memo::new(move |_| ctx.value(key));
    let numeric = move || value.get().parse::<f64>().unwrap_or(0.0);
    let id = format!("f-{key}");
    let slider = scale.map(|scale| {
        let (lo, hi) = scale.positions();
        let step = if matches!(scale, Scale::Pow2 { .. }) { "1" } else { "any" };
        // Ticks under the slider; their labels in a line below, so close marks never collide.
        let marks = marks.map(|marks| {
            view! {
                <div class="slider-marks" aria-hidden="true">
                    {move || {
                        marks
                            .get()
                            .into_iter()
                            .map(|Mark { value, class, .. }| {
                                let frac = (scale.position(value) - lo) / (hi - lo);
                                // The thumb's centre travels from 8 px to width − 8 px.
                                let style = format!("left:calc(8px + (100% - 16px) * {frac:.4})");
                                view! { <span class=format!("mark {class}") style=style></span> }
                            })
                            .collect_view()
                    }}
                </div>
                <div class="mark-labels">
                    {move || {
                        marks
                            .get()
                            .into_iter()
                            .map(|Mark { class, label, .. }| view! { <span class=format!("mark {class}")>{label}</span> })
                            .collect_view()
                    }}
                </div>
            }
        });
        view! {
            <div class="slider-wrap">
            <input
                type="range"
                class="slider"
                data-key=key
                min=lo
                max=hi
                step=step
                aria-label=move || ctx.t(key)
                prop:value=move || scale.position(numeric()).to_string()
                on:input=move |ev| {
                    if let Ok(pos) = event_target_value(&ev).parse::<f64>() {
                        ctx.set(key, &format!("{}", scale.value(pos)));
                    }
                }
            />
            {marks}
            </div>
        }
    });
    view! {
        <div class="field number" data-field=key>
            <label for=id.clone()><Tr key=key /></label>
            <div class="inputs">
                {slider}
                <input
                    id=id
                    name=key
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    spellcheck="false"
                    prop:value=move || shown(key, &value.get())
                    on:change=move |ev| ctx.set(key, &event_target_value(&ev))
                />
                {(!unit.is_empty()).then(|| view! { <span class="unit">{unit}</span> })}
            </div>
            <FieldNotes key=key />
        </div>
    }
}
