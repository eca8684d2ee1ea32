//! A label in the page's language. One component for every label means one
//! reactive closure type in the binary instead of one per label (Leptos
//! instantiates its render code per closure type: that was most of the size).

use crate::ctx::use_ctx;
use leptos::prelude::*;

#[component]
pub fn Tr(
    /// The translation key (see [`crate::i18n::tr`]).
    key: &'static str,
) -> impl IntoView {
    let ctx = use_ctx();
    move || ctx.t(key)
}
