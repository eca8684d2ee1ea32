//! A blank Leptos page that shows one line: the time-to-first-render floor.
use leptos::prelude::*;

fn main() {
    leptos::mount::mount_to_body(|| view! { <p data-testid="ready">"ready"</p> }.attr("elementtiming", "first-result"));
}
