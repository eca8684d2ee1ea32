//! The same model on the same GPU fine-tuned three ways, side by side: every
//! parameter trained, LoRA's adapters on a frozen 16-bit base, QLoRA's on an
//! NF4 base (Hu et al. 2021; Dettmers et al. 2023). Each bar is all the GPU
//! holds; the list under it says how many parameters each run trains.

use super::memory::{capacity_label, legend_of};
use super::Mode;
use crate::bind::text;
use crate::charts::geometry::Bar;
use crate::charts::stacked_bars::StackedBars;
use crate::ctx::use_ctx;
use leptos::prelude::*;
use tmath::finetune::Finetune;
use tmath::Report;

/// The three runs of `r`'s configuration: full, LoRA (a quantized base becomes 16-bit) and QLoRA.
pub fn three_runs(r: &Report) -> [Report; 3] {
    [Finetune::Full, Finetune::Lora, Finetune::Qlora]
        .map(|method| r.with(|c| c.finetune = c.finetune.with_method(method)))
}

#[component]
pub fn FinetuneView(
    /// Where the view is drawn.
    mode: Mode,
) -> impl IntoView {
    let ctx = use_ctx();
    let units = Signal::derive(move || ctx.units());
    let base = Memo::new(move |_| match mode {
        Mode::Page => ctx.settled.get().unwrap_or_else(|| ctx.shown.get()),
        _ => ctx.shown.get(),
    });
    let reports = Memo::new(move |_| base.with(three_runs));
    let bars = Signal::derive(move || {
        let current = base.with(|r| r.config.finetune.method);
        reports.with(|rs| {
            rs.iter()
                .map(|r| Bar {
                    label: crate::i18n::finetune_bar(ctx.lang.get(), r.config.finetune.method),
                    sub: super::three_d::verdict_mark(ctx, r.fits()),
                    segments: r.per_gpu.parts().iter().map(|&(_, b)| b.get()).collect(),
                    current: r.config.finetune.method == current,
                })
                .collect()
        })
    });
    let capacity = Signal::derive(move || base.with(|r| r.config.system.gpu_mem_bytes));
    let summary = Signal::derive(move || {
        let u = units.get();
        reports.with(|rs| crate::i18n::finetune_summary(ctx.lang.get(), rs, u))
    });
    // Post-training's phases, side by side (never stacked: they run one after the other).
    let phases = Memo::new(move |_| base.with(|r| r.phases.clone()));
    let phase_bars = Signal::derive(move || {
        phases.with(|ps| {
            ps.iter()
                .map(|p| Bar {
                    label: ctx.t(&format!("phase-{}", p.name)).to_string(),
                    sub: super::three_d::verdict_mark(
                        ctx,
                        p.per_gpu.total().get() <= base.with(|r| r.config.system.gpu_mem_bytes),
                    ),
                    segments: p.per_gpu.parts().iter().map(|&(_, b)| b.get()).collect(),
                    current: false,
                })
                .collect()
        })
    });
    let phase_summary = Signal::derive(move || {
        let u = units.get();
        phases.with(|ps| {
            ps.iter()
                .map(|p| format!("{}: {}", ctx.t(&format!("phase-{}", p.name)), u.format(p.per_gpu.total())))
                .collect::<Vec<_>>()
                .join(", ")
        })
    });
    view! {
        <Show when=move || phases.with(|p| !p.is_empty())>
            <p class="detail" data-testid="finetune-phases-note">{move || ctx.t("finetune-phases-note")}</p>
            <StackedBars
                bars=phase_bars
                capacity=capacity
                capacity_label=capacity_label(ctx, base)
                units=units
                label=phase_summary
                testid="finetune-phases-chart"
                size=mode.chart(200.0)
                font=mode.font()
                legend=legend_of(ctx, phase_bars)
            />
        </Show>
        // On a slide or in a figure the phases are the lesson when there are phases: one chart,
        // readable from the back row and whole in the figure's height on a phone.
        <Show when=move || !(mode != Mode::Page && phases.with(|p| !p.is_empty()))>
            <StackedBars
                bars=bars
                capacity=capacity
                capacity_label=capacity_label(ctx, base)
                units=units
                label=summary
                testid="finetune-chart"
                size=mode.chart(240.0)
                font=mode.font()
                legend=legend_of(ctx, bars)
            />
            <details class="finetune-note" data-testid="finetune-note">
                <summary>{move || ctx.t("finetune-note-summary")}</summary>
                <p>{move || ctx.t("finetune-note")}</p>
            </details>
            <ul class="zero-list">
                {(0..3)
                    .map(|i| {
                        let run = move || reports.with(|rs| (rs[i].config.finetune.method, rs[i].per_gpu.total(), tmath::finetune::trainable_params(&rs[i].config)));
                        view! {
                            <li
                                data-testid=move || format!("finetune-{}", run().0.as_str())
                                data-bytes=text(move || run().1.get().to_string())
                                data-trainable=text(move || run().2.get().to_string())
                            >
                                {text(move || {
                                    let (method, total, trained) = run();
                                    crate::i18n::finetune_item(ctx.lang.get(), method, units.get().format(total), trained.get())
                                })}
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </Show>
    }
}
