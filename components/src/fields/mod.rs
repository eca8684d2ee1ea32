//! The controls: one [`Field`] per key, its widget chosen by the key's kind
//! in the core's table and the hints in [`hints`].

pub mod choice_field;
pub mod field_notes;
pub mod hf_config;
pub mod hints;
pub mod number_field;
pub mod scale;
pub mod switch_field;
pub mod text_field;

use choice_field::ChoiceField;
use hints::{widget, Widget};
use leptos::prelude::*;
use number_field::NumberField;
use switch_field::SwitchField;
use text_field::TextField;
use tmath::keys::K;

/// The control of one key.
#[component]
pub fn Field(
    /// The key.
    key: K,
) -> impl IntoView {
    match widget(key) {
        Widget::Number { scale, unit, marks } => {
            view! { <NumberField key=key scale=scale unit=unit marks=marks /> }.into_any()
        }
        Widget::Select(kind) => view! { <ChoiceField key=key kind=kind /> }.into_any(),
        Widget::Checkbox => view! { <SwitchField key=key /> }.into_any(),
        Widget::Text => view! { <TextField key=key /> }.into_any(),
    }
}
