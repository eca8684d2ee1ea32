//! A view on the full page: its title, an embed button, and the view itself.

use super::embed_code::EmbedOpen;
use crate::ctx::use_ctx;
use crate::i18n;
use crate::panels::{body, Mode};
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::page::View;

#[component]
pub fn Panel(
    /// The view this panel shows.
    view: View,
) -> impl IntoView {
    let ctx = use_ctx();
    let open = expect_context::<EmbedOpen>();
    let id = format!("h-{}", view.as_str());
    let labelled_by = id.clone();
    view! {
        <section class=format!("panel view-{}", view.as_str()) data-view=view.as_str() aria-labelledby=labelled_by>
            <header class="panel-head">
                <h2 id=id>{move || i18n::view_title(ctx.lang.get(), view)}</h2>
                <button
                    type="button"
                    class="embed-button"
                    data-testid="embed-code"
                    aria-haspopup="dialog"
                    on:click=move |_| open.0.set(Some(view))
                >
                    <Tr key="embed" />
                </button>
            </header>
            {body(view, Mode::Page, &[])}
        </section>
    }
}
