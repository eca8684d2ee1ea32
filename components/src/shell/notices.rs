//! Page-wide notices: keys a link could not take, and an impossible combination.

use crate::ctx::use_ctx;
use crate::i18n;
use crate::tr::Tr;
use leptos::prelude::*;

#[component]
pub fn Notices() -> impl IntoView {
    let ctx = use_ctx();
    let url_errors = move || {
        let lang = ctx.lang.get();
        ctx.url_errors.with(|errs| errs.iter().map(|e| i18n::link_error(lang, e)).collect::<Vec<_>>())
    };
    view! {
        <Show when=move || ctx.url_errors.with(|e| !e.is_empty())>
            <div class="notice" role="alert" data-testid="url-errors">
                <p><Tr key="bad-keys" /></p>
                <ul>{move || url_errors().into_iter().map(|m| view! { <li>{m}</li> }).collect_view()}</ul>
            </div>
        </Show>
        <Show when=move || ctx.result.with(|r| r.is_err())>
            <div class="notice" role="alert" data-testid="config-error">
                <p><Tr key="stale" /></p>
                <p>
                    {move || {
                        ctx.result.with(|r| r.as_ref().err().map(|e| i18n::config_error(ctx.lang.get(), e)))
                    }}
                </p>
            </div>
        </Show>
    }
}
