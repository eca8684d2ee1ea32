//! The per-GPU breakdown as a table: exact bytes in `data-bytes` (the browser
//! contract), the chosen unit in text, bytes/param and the divisor of each part.
//! In a figure or a slide the chart says it visually; the table stays for
//! screen readers and the contract.

use crate::bind::text;
use crate::charts::theme::css_color;
use crate::ctx::use_ctx;
use crate::explain::Explain;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::explain::Item;
use tmath::memory::Part;
use tmath::Warning;

#[component]
pub fn BreakdownTable(
    /// Visually hidden (a figure or a slide shows the chart's legend instead).
    compact: bool,
) -> impl IntoView {
    let ctx = use_ctx();
    // Five fixed rows built once; only their texts follow the result.
    let rows = Part::ALL
        .into_iter()
        .map(|part| {
            let testid = part.key();
            let bytes = move || ctx.shown.with(|r| r.per_gpu.get(part));
            // Where practice differs from the article's figure by more than 10 %, the
            // practical figure beside the number (the warning's own figure).
            let practice = move || {
                ctx.shown.with(|r| {
                    r.warnings.iter().find_map(|w| match (part, w) {
                        (Part::Activations, Warning::ScoresStored { with_flash }) => {
                            Some(format!("FlashAttention: {}", ctx.units().format(tmath::Bytes(*with_flash))))
                        }
                        (Part::Gradients, Warning::TpGradients { gradients, .. }) => {
                            Some(format!("÷ t·p: {}", ctx.units().format(tmath::Bytes(*gradients))))
                        }
                        _ => None,
                    })
                })
            };
            let detail = move || {
                ctx.shown.with(|r| {
                    let per_param = tmath::memory::state_bytes_per_param(&r.config);
                    let (b, d) = match part {
                        Part::Model => (per_param[0].0, r.divisors.model),
                        Part::Gradients => (per_param[1].0, r.divisors.gradients),
                        Part::Optimizer => (per_param[2].0, r.divisors.optimizer),
                        _ => return String::new(),
                    };
                    let lang = ctx.lang.get();
                    // Offloaded: the optimizer is not on the GPU at all.
                    if part == Part::Optimizer && r.config.offload.is_on() {
                        let to = if r.config.offload == tmath::config::Offload::OptimizerNvme {
                            "offloaded-nvme"
                        } else {
                            "offloaded-cpu"
                        };
                        return format!("{} {}", crate::i18n::bytes_per_param(lang, b), ctx.t(to));
                    }
                    let text = if d.fract() == 0.0 {
                        format!("{} ÷ {}", crate::i18n::bytes_per_param(lang, b), crate::i18n::grouped_sig(d))
                    } else {
                        // Megatron's first stage (embedding included) or experts ÷ ep: not a whole
                        // number of GPUs, so the parameters this GPU holds.
                        let held = r.config.params.get() / d;
                        format!("{} × {}", crate::i18n::bytes_per_param(lang, b), crate::i18n::count(lang, held))
                    };
                    // FP8 training's copies of the layers' GEMM weights, held beside them.
                    let fp8 = tmath::memory::fp8_weight_bytes(&r.config);
                    if part == Part::Model && fp8 != 0.0 {
                        let gemm = tmath::memory::layer_gemm_params(&r.config, &r.stage) / d;
                        let sign = if fp8 < 0.0 { "−" } else { "+" };
                        format!("{text} {sign} FP8 {} × {}", crate::i18n::bytes_per_value(lang, fp8.abs()), crate::i18n::count(lang, gemm))
                    } else {
                        text
                    }
                })
            };
            view! {
                <tr data-testid=testid data-bytes=text(move || bytes().get().to_string())>
                    <th scope="row">
                        <span class="swatch" style=format!("background:{}", css_color(part as usize)) aria-hidden="true"></span>
                        <Tr key=testid />
                    </th>
                    <td class="num">{text(move || ctx.units().format(bytes()))}</td>
                    <td class="detail">
                        {detail}
                        {move || practice().map(|p| view! { <span class="practice" data-testid="practice">" (" {p} ")"</span> })}
                        " "
                        <Explain item=Item::Part(part) />
                    </td>
                </tr>
            }
        })
        .collect_view();
    let total = move || ctx.shown.with(|r| r.per_gpu.total());
    let capacity = move || ctx.shown.with(|r| r.gpu_mem());
    let cpu = move || ctx.shown.with(|r| r.cpu_per_node);
    let nvme = move || ctx.shown.with(|r| r.nvme_per_node);
    // The node's CPU memory has its own verdict (what offload puts there).
    let cpu_verdict = move || {
        ctx.shown.with(|r| {
            let (mark, word) = if r.cpu_fits() { ("✓", "cpu-fits") } else { ("✗", "cpu-does-not-fit") };
            // What each of the node's GPUs puts there, per parameter of its shard.
            let c = &r.config;
            let what = if c.offload == tmath::config::Offload::OptimizerNvme {
                format!("{} (4 {})", ctx.t("cpu-what-nvme"), ctx.t("bytes-per-param-unit"))
            } else {
                let ob = tmath::memory::optimizer_bytes(c).0;
                format!("{} ({ob} + 4 {})", ctx.t("cpu-what"), ctx.t("bytes-per-param-unit"))
            };
            format!(
                "{what} · {} {}: {mark}\u{a0}{}",
                ctx.t("cpu-capacity"),
                ctx.units().format(tmath::Bytes(r.config.system.cpu_mem_bytes)),
                ctx.t(word)
            )
        })
    };
    view! {
        // A table ignores a width: the visually hidden box is a wrapper.
        <div class:sr-only=compact>
        <table class="breakdown">
            <caption class="sr-only"><Tr key="total" /></caption>
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
                    // The vendor's label beside what the driver reports: "141 GB" is not the 143 771 MiB that fit.
                    <td class="detail" data-testid="gpu-label">
                        {text(move || ctx.shown.with(|r| {
                            let mib = r.config.system.gpu_mem_bytes / 1_048_576.0;
                            format!("{}, {} {}\u{a0}MiB", r.config.system.gpu.label, ctx.t("usable"), crate::i18n::grouped_sig(mib.round()))
                        }))}
                    </td>
                </tr>
                <Show when=move || { cpu().get() > 0.0 }>
                    <tr data-testid="cpu-per-node" data-bytes=text(move || cpu().get().to_string())>
                        <th scope="row"><Tr key="cpu-per-node" /></th>
                        <td class="num">{text(move || ctx.units().format(cpu()))}</td>
                        <td class="detail" class:warn=move || ctx.shown.with(|r| !r.cpu_fits())>{cpu_verdict}</td>
                    </tr>
                </Show>
                <Show when=move || { nvme().get() > 0.0 }>
                    <tr data-testid="nvme-per-node" data-bytes=text(move || nvme().get().to_string())>
                        <th scope="row"><Tr key="nvme-per-node" /></th>
                        <td class="num">{text(move || ctx.units().format(nvme()))}</td>
                        <td></td>
                    </tr>
                </Show>
                <tr data-testid="inference" data-bytes=text(move || ctx.shown.with(|r| r.inference.get()).to_string())>
                    <th scope="row"><Tr key="inference-note" /></th>
                    <td class="num">{text(move || ctx.units().format(ctx.shown.with(|r| r.inference)))}</td>
                    <td class="detail">
                        {move || ctx.shown.with(|r| r.config.serving.inference_dtype.as_str())} <Explain item=Item::Inference />
                    </td>
                </tr>
            </tfoot>
        </table>
        </div>
    }
}
