//! The per-GPU breakdown as a table: exact bytes in `data-bytes` (the browser
//! contract), the chosen unit in text, bytes/param and the divisor of each part.

use crate::ctx::use_ctx;
use crate::explain::Explain;
use crate::stacked_bars::css_color;
use leptos::prelude::*;
use tmath::explain::Item;
use tmath::memory::{gradient_bytes, model_bytes, optimizer_bytes};

#[component]
pub fn BreakdownTable() -> impl IntoView {
    let ctx = use_ctx();
    let units = move || ctx.page.with(|p| p.units);
    let rows = move || {
        ctx.shown.with(|r| {
            let c = &r.config;
            let per_param = [
                Some((model_bytes(c.precision).0, r.divisors.model)),
                Some((gradient_bytes(c.grad_dtype).0, r.divisors.gradients)),
                Some((optimizer_bytes(c.optimizer, c.precision).0, r.divisors.optimizer)),
                None,
                None,
            ];
            r.per_gpu
                .parts()
                .into_iter()
                .zip(per_param)
                .zip([Item::Model, Item::Gradients, Item::Optimizer, Item::Activations, Item::LiveParams])
                .enumerate()
                .map(|(i, (((name, bytes), pp), item))| {
                    let testid = format!("part-{}", name.replace('_', "-"));
                    let label = ctx.t(&testid);
                    let detail = pp.map_or(String::new(), |(b, d)| format!("{b} B/param ÷ {d}"));
                    view! {
                        <tr data-testid=testid.clone() data-bytes=bytes.get().to_string()>
                            <th scope="row">
                                <span class="swatch" style=format!("background:{}", css_color(i)) aria-hidden="true"></span>
                                {label}
                            </th>
                            <td class="num">{units().format(bytes)}</td>
                            <td class="detail">{detail} <Explain item=item /></td>
                        </tr>
                    }
                })
                .collect_view()
        })
    };
    let total = move || ctx.shown.with(|r| r.per_gpu.total());
    let capacity = move || ctx.shown.with(|r| r.gpu_mem());
    let cpu = move || ctx.shown.with(|r| r.cpu_per_node);
    view! {
        <table class="breakdown">
            <caption class="sr-only">{move || ctx.t("section-memory")}</caption>
            <tbody>{rows}</tbody>
            <tfoot>
                <tr data-testid="per-gpu-total" data-bytes=move || total().get().to_string()>
                    <th scope="row">{move || ctx.t("total")}</th>
                    <td class="num">{move || units().format(total())}</td>
                    <td></td>
                </tr>
                <tr data-testid="gpu-capacity" data-bytes=move || capacity().get().to_string()>
                    <th scope="row">{move || ctx.t("capacity")}</th>
                    <td class="num">{move || units().format(capacity())}</td>
                    <td class="detail">{move || ctx.shown.with(|r| r.config.gpu.label)}</td>
                </tr>
                <Show when=move || { cpu().get() > 0.0 }>
                    <tr data-testid="cpu-per-node" data-bytes=move || cpu().get().to_string()>
                        <th scope="row">{move || ctx.t("cpu-per-node")}</th>
                        <td class="num">{move || units().format(cpu())}</td>
                        <td></td>
                    </tr>
                </Show>
                <tr data-testid="inference" data-bytes=move || ctx.shown.with(|r| r.inference.get()).to_string()>
                    <th scope="row">{move || ctx.t("inference-note")}</th>
                    <td class="num">{move || units().format(ctx.shown.with(|r| r.inference))}</td>
                    <td class="detail">
                        {move || ctx.shown.with(|r| r.config.inference_dtype.as_str())} <Explain item=Item::Inference />
                    </td>
                </tr>
            </tfoot>
        </table>
    }
}
