//! Reactive text and attributes as a handful of types. Leptos compiles its
//! render and update code once per closure type, so a page with a hundred
//! `move || …` bindings carries a hundred copies; a `Signal<String>` is one
//! type however many closures feed it (each closure stays, boxed, as a small
//! function of its own).

use leptos::prelude::*;

/// Text or an attribute value that follows the state.
pub fn text(f: impl Fn() -> String + Send + Sync + 'static) -> Signal<String> {
    Signal::derive(f)
}
