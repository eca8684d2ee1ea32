//! The floor of the benchmarks: a blank Leptos page with one line (first
//! result) and one slider bound to one text (input latency), built the same way.
use leptos::prelude::*;

fn main() {
    leptos::mount::mount_to_body(|| {
        let value = RwSignal::new(400.0_f64);
        let ready = view! { <p data-testid="ready">"ready"</p> }.attr("elementtiming", "first-result");
        view! {
            {ready}
            <input
                type="range"
                data-key="params"
                min="0"
                max="1000"
                prop:value=move || value.get().to_string()
                on:input=move |e| value.set(event_target_value(&e).parse().unwrap_or(0.0))
            />
            <p>{move || format!("{:.0}", value.get())}</p>
        }
    });
}
