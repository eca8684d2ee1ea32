//! Training compute 6PD (with recomputation), PetaFLOP-days, GPU-hours, days and cost.

use crate::bind::text;
use crate::ctx::use_ctx;
use crate::explain::Explain;
use crate::tr::Tr;
use leptos::prelude::*;
use tmath::explain::Item;
use tmath::units::format_sig;
use tmath::Report;

/// A number with thousands separators for money and hours.
fn grouped(x: f64) -> String {
    if !(x.is_finite() && x.abs() < 1e15) {
        return format_sig(x);
    }
    let digits = format!("{:.0}", x.abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if x < 0.0 {
        format!("-{out}")
    } else {
        out
    }
}

/// Training compute as the page writes it: "8.4e22 FLOPs".
pub fn flops_text(r: &Report) -> String {
    format!("{} FLOPs", format_sig(r.flops().get()))
}

/// The cost in dollars with thousands separators.
pub fn cost_text(r: &Report) -> String {
    format!("${}", grouped(r.cost_usd()))
}

#[component]
pub fn ComputePanel() -> impl IntoView {
    let ctx = use_ctx();
    let r = ctx.shown;
    let flops = move || r.with(|r| r.flops().get());
    let split = text(move || {
        r.with(|r| {
            format!(
                "{} {} + {} {} + {} {}",
                ctx.t("forward"),
                format_sig(r.compute.forward.get()),
                ctx.t("backward"),
                format_sig(r.compute.backward.get()),
                ctx.t("recompute-extra"),
                format_sig(r.compute.recompute.get())
            )
        })
    });
    let days = move || r.with(|r| r.days());
    view! {
        <section class="panel compute" data-view="compute" aria-labelledby="h-compute">
            <h2 id="h-compute"><Tr key="section-compute" /></h2>
            <dl class="figures">
                <div data-testid="flops" data-flops=text(move || flops().to_string())>
                    <dt><Tr key="flops" /></dt>
                    <dd class="big">{text(move || r.with(flops_text))}</dd>
                    <dd class="detail">{split} <Explain item=Item::Flops /></dd>
                </div>
                <div data-testid="petaflop-days" data-value=text(move || r.with(|r| r.petaflop_days()).to_string())>
                    <dt><Tr key="petaflop-days" /></dt>
                    <dd>{text(move || format_sig(r.with(|r| r.petaflop_days())))}</dd>
                </div>
                <div data-testid="gpu-hours" data-value=text(move || r.with(|r| r.gpu_hours()).to_string())>
                    <dt><Tr key="gpu-hours" /></dt>
                    <dd>{text(move || grouped(r.with(|r| r.gpu_hours())))}</dd>
                    <dd class="detail">
                        {text(move || r.with(|r| format!("τ = {} TFLOP/s", format_sig(r.config.flops_per_gpu / 1e12))))}
                        <Explain item=Item::GpuHours />
                    </dd>
                </div>
                <div data-testid="days" data-days=text(move || days().to_string())>
                    <dt><Tr key="days" /></dt>
                    <dd>{text(move || format_sig(days()))}</dd>
                    <dd class="detail">
                        {text(move || r.with(|r| format!("N = {} GPU", r.config.layout.gpus())))} <Explain item=Item::Days />
                    </dd>
                </div>
                <div data-testid="cost" data-value=text(move || r.with(|r| r.cost_usd()).to_string())>
                    <dt><Tr key="cost" /></dt>
                    <dd>{text(move || r.with(cost_text))}</dd>
                    <dd class="detail">
                        {text(move || r.with(|r| format!("${}/GPU-h", r.config.usd_per_gpu_hour)))} <Explain item=Item::Cost />
                    </dd>
                </div>
                <div data-testid="bubble" data-value=text(move || r.with(|r| r.bubble()).to_string())>
                    <dt><Tr key="bubble" /></dt>
                    <dd>{text(move || format!("{}%", format_sig(100.0 * r.with(|r| r.bubble()))))}</dd>
                    <dd class="detail">
                        {text(move || {
                            r.with(|r| {
                                format!(
                                    "{} {} {}",
                                    ctx.t("global-batch-label"),
                                    tmath::units::format_count(r.global_batch()),
                                    ctx.t("sequences"),
                                )
                            })
                        })}
                    </dd>
                </div>
            </dl>
        </section>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn grouped_digits() {
        assert_eq!(super::grouped(1234567.4), "1,234,567");
        assert_eq!(super::grouped(999.0), "999");
        assert_eq!(super::grouped(-1000.0), "-1,000");
    }
}
