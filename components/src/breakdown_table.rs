//! The per-GPU breakdown as a table: exact bytes in `data-bytes` (the browser
//! contract), the chosen unit in text, bytes/param and the divisor of each part.

use crate::bind::text;
use crate::ctx::use_ctx;
use crate::explain::Explain;
use crate::stacked_bars::css_color;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::explain::Item;
use tmath::memory::{gradient_bytes, model_bytes, optimizer_bytes};

#[component]
pub fn BreakdownTable() -> impl IntoView {
    let ctx = use_ctx();
    // Five fixed rows built once; only their texts follow the result.
    let rows = [
        ("part-model", Item::Model),
        ("part-gradients", Item::Gradients),
        ("part-optimizer", Item::Optimizer),
        ("part-activations", Item::Activations),
        ("part-zero3-live-params", Item::LiveParams),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, (testid, item))| {
        let bytes = move || ctx.shown.with(|r| r.per_gpu.parts()[i].1);
        let detail = move || {
            ctx.shown.with(|r| {
                let c = &r.config;
                let (b, d) = match i {
                    0 => (model_bytes(c.precision).0, r.divisors.model),
                    1 => (gradient_bytes(c.grad_dtype).0, r.divisors.gradients),
                    2 => (optimizer_bytes(c.optimizer, c.precision).0, r.divisors.optimizer),
                    _ => return String::new(),
                };
                format!("{b} B/param ÷ {d}")
            })
        };
        view! {
            <tr data-testid=testid data-bytes=text(move || bytes().get().to_string())>
                <th scope="row">
                    <span class="swatch" style=format!("background:{}", css_color(i)) aria-hidden="true"></span>
                    <Tr key=testid />
                </th>
                <td class="num">{text(move || ctx.units().format(bytes()))}</td>
                <td class="detail">{detail} <Explain item=item /></td>
            </tr>
        }
    })
    .collect_view();
    let total = move || ctx.shown.with(|r| r.per_gpu.total());
    let capacity = move || ctx.shown.with(|r| r.gpu_mem());
    let cpu = move || ctx.shown.with(|r| r.cpu_per_node);
    view! {
        <table class="breakdown">
            <caption class="sr-only"><Tr key="section-memory" /></caption>
            <tbody>{rows}</tbody>
            <tfoot>
                <tr data-testid="per-gpu-total" data-bytes=text(move || total().get().to_string())>
                    <th scope="row"><Tr key="total" /></th>
                    <td class="num">{text(move || ctx.units().format(total()))}</td>
                    <td></td>
                </tr>
                <tr data-testid="gpu-capacity" data-bytes=text(move || capacity().get().to_string())>
                    <th scope="row"><Tr key="capacity" /></th>
                    <td class="num">{text(move || ctx.units().format(capacity()))}</td>
                    <td class="detail">{move || ctx.shown.with(|r| r.config.gpu.label)}</td>
                </tr>
                <Show when=move || { cpu().get() > 0.0 }>
                    <tr data-testid="cpu-per-node" data-bytes=text(move || cpu().get().to_string())>
                        <th scope="row"><Tr key="cpu-per-node" /></th>
                        <td class="num">{text(move || ctx.units().format(cpu()))}</td>
                        <td></td>
                    </tr>
                </Show>
                <tr data-testid="inference" data-bytes=text(move || ctx.shown.with(|r| r.inference.get()).to_string())>
                    <th scope="row"><Tr key="inference-note" /></th>
                    <td class="num">{text(move || ctx.units().format(ctx.shown.with(|r| r.inference)))}</td>
                    <td class="detail">
                        {move || ctx.shown.with(|r| r.config.inference_dtype.as_str())} <Explain item=Item::Inference />
                    </td>
                </tr>
            </tfoot>
        </table>
    }
}
