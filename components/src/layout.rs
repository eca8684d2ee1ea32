//! The one layout table: which controls the full page shows, in which
//! sections, and which few controls each view shows as a figure or a slide.
//! Keys are named by their typed handles; their spellings live in the core's table.

use tmath::keys::K;
use tmath::page::View;

/// A fieldset of the full page: its legend (a text key) and its rows; a row of two shares a line.
pub struct Section {
    pub legend: &'static str,
    pub rows: &'static [&'static [K]],
}

/// The full page's controls, grouped as the article is.
pub static PAGE: &[Section] = &[
    Section { legend: "section-model", rows: &[&[K::Model], &[K::Params], &[K::SeqLen], &[K::MicroBatch]] },
    // Right after the model: on a phone the GPU count and the ZeRO stage are near the top.
    Section {
        legend: "section-parallel",
        rows: &[
            &[K::Gpus],
            &[K::Zero],
            &[K::Tp, K::Pp],
            &[K::Cp, K::Ep],
            &[K::Etp],
            &[K::Dp],
            &[K::GlobalBatch, K::GradAccum],
        ],
    },
    Section { legend: "section-data", rows: &[&[K::Tokens]] },
    Section {
        legend: "section-training",
        rows: &[
            &[K::Precision],
            &[K::GradDtype],
            &[K::Optimizer, K::ExpAvgDtype],
            &[K::MainParams],
            // The recipe's names are long: a row of its own.
            &[K::Fp8],
            &[K::Fp8ParamGather],
            &[K::Recompute],
            // Menus whose choices are long take a row of their own: on a phone a half row cuts them.
            &[K::RecomputeEvery, K::Vpp],
            &[K::Schedule],
            &[K::PpFirstLayers, K::PpLastLayers],
            &[K::PpLayout],
            &[K::SequenceParallel],
            &[K::TpCommOverlap],
            &[K::PartitionActivations],
            &[K::Tsp],
            &[K::Offload],
            &[K::OffloadActivations],
            &[K::CpuMem, K::GpusPerNode],
            &[K::MaxLiveParams],
            &[K::Attention],
            &[K::Kernels],
            &[K::Loss],
            &[K::LossChunks],
            &[K::Convention],
        ],
    },
    Section {
        legend: "section-finetune",
        rows: &[
            &[K::Finetune],
            &[K::LoraRank, K::LoraDropout],
            &[K::LoraTargets],
            &[K::BaseDtype],
            &[K::TrainEmbeddings],
            &[K::PostTraining],
            &[K::Rollouts, K::ResponseTokens],
            &[K::RewardParams, K::CriticParams],
            &[K::Rollout],
            &[K::RolloutMemUtil],
        ],
    },
    Section {
        legend: "section-hardware",
        rows: &[&[K::Gpu], &[K::GpuMem], &[K::Tflops], &[K::UsdPerGpuHour], &[K::ReserveGb], &[K::FragmentationPct]],
    },
    // Serving: the article's inference memory, then one replica's layout, requests and rates.
    Section {
        legend: "section-serving",
        rows: &[
            &[K::InferenceDtype],
            &[K::Context, K::Batch],
            &[K::KvDtype, K::MaxPositions],
            &[K::ServeTp, K::ServePp],
            &[K::PromptTokens, K::OutputTokens],
            &[K::MemUtil],
            &[K::HbmGbs, K::ServeTflops],
            &[K::HostMs],
        ],
    },
    Section {
        legend: "section-shape",
        rows: &[
            &[K::ActiveParams],
            &[K::Layers, K::Hidden],
            &[K::Heads, K::Vocab],
            &[K::KvHeads, K::HeadDim],
            &[K::SlidingWindow, K::GlobalEvery],
            &[K::AttentionEvery, K::StateDtype],
            &[K::LinearState, K::LinearConv],
            &[K::Ffn],
            &[K::Mlp],
            &[K::TieEmbeddings],
            &[K::Experts, K::TopK],
            &[K::SharedExperts, K::MoeFfn],
            &[K::DenseLayers, K::MtpLayers],
            &[K::KvLoraRank, K::QLoraRank],
            &[K::QkHeadDim, K::QkRopeHeadDim],
            &[K::VHeadDim],
        ],
    },
];

/// The planner's assumptions, under its table.
pub static PLANNER_OPTIONS: &[K] =
    &[K::MaxGpus, K::IntraNodeGbs, K::InterNodeGbs, K::TpCrossNode, K::KeepCp, K::Serve, K::MaxTpotMs, K::MaxTtftMs];

/// A view's figure: its controls (at most six, the first four also on a slide)
/// and its height in CSS pixels: the chart takes what the rest leaves, so the
/// one height holds at every width from 360 to 720 px (the snippet's `height`).
/// An article view's is its text and controls at 390 px, the wider of both
/// languages, over 0.58, so that on a phone the chart keeps at least 40 % of
/// the figure (measured 2026-12-02; tests/e2e/figures.test.mjs holds both at
/// 360, 390 and 720 px).
pub struct Figure {
    pub view: View,
    pub controls: &'static [K],
    pub height: f64,
}

pub static FIGURES: &[Figure] = &[
    Figure {
        view: View::Compute,
        controls: &[K::Params, K::Tokens, K::Gpus, K::Tflops, K::UsdPerGpuHour],
        height: 740.0,
    },
    Figure { view: View::Chinchilla, controls: &[K::Params, K::Tokens], height: 530.0 },
    Figure {
        view: View::Inference,
        controls: &[K::Params, K::InferenceDtype, K::Gpu, K::Context, K::Batch],
        height: 720.0,
    },
    Figure { view: View::ModelStates, controls: &[K::Params, K::Precision, K::Optimizer], height: 540.0 },
    Figure {
        view: View::Activations,
        controls: &[K::Recompute, K::SeqLen, K::MicroBatch, K::Tp, K::SequenceParallel, K::Model],
        height: 680.0,
    },
    Figure {
        view: View::Memory,
        controls: &[K::Model, K::Gpus, K::Zero, K::Recompute, K::SeqLen, K::Gpu],
        height: 640.0,
    },
    Figure { view: View::Zero, controls: &[K::Params, K::Dp, K::Zero], height: 540.0 },
    Figure {
        view: View::Finetune,
        controls: &[K::Model, K::Gpu, K::LoraRank, K::SeqLen, K::LoraTargets, K::MicroBatch],
        height: 760.0,
    },
    Figure { view: View::ThreeD, controls: &[K::Tp, K::Pp, K::Dp, K::Model], height: 700.0 },
    // The project's views: their content at 360 px, so a phone cuts nothing
    // (wider, the planner's and the explorer's tables leave room below them;
    // the sweeps' four charts, one above the other at every width, share it).
    Figure { view: View::Planner, controls: &[K::Model, K::Gpus, K::Gpu, K::SeqLen], height: 840.0 },
    Figure { view: View::Sweeps, controls: &[K::Model, K::SeqLen, K::Tp, K::Recompute], height: 1100.0 },
    Figure { view: View::Fp, controls: &[K::Fp], height: 960.0 },
    Figure {
        view: View::Serving,
        controls: &[K::Model, K::Gpu, K::InferenceDtype, K::ServeTp, K::Batch, K::PromptTokens],
        height: 1000.0,
    },
];

/// A control the state can make moot, the one that takes its place, and when:
/// PPO and GRPO train on the prompt and its response, so the sequence length
/// gives way to the response's tokens (`finetune::post::training_config`).
pub static STANDS_IN: (K, K, fn(&tmath::Settings) -> bool) = (K::SeqLen, K::ResponseTokens, |s| {
    matches!(s.post_training, tmath::finetune::post::PostTraining::Ppo | tmath::finetune::post::PostTraining::Grpo)
});

/// The figure of a view.
pub fn figure(view: View) -> &'static Figure {
    FIGURES.iter().find(|f| f.view == view).unwrap_or(&FIGURES[0])
}

/// At most this many large controls on a slide.
pub const SLIDE_CONTROLS: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_view_has_a_figure_of_at_most_six_controls() {
        for &v in View::ALL {
            let f = figure(v);
            assert_eq!(f.view, v);
            assert!(f.controls.len() <= 6, "{v:?}");
            // An article's figure is at most one phone screen (844 px less the browser's bars).
            assert!(v.is_project() || f.height <= 760.0, "{v:?}");
        }
    }

    /// Every key the calculation has is on the full page, once.
    #[test]
    fn the_full_page_shows_every_calculation_key_once() {
        let mut shown: Vec<K> = PAGE.iter().flat_map(|s| s.rows.iter().flat_map(|r| r.iter().copied())).collect();
        shown.extend(PLANNER_OPTIONS);
        let n = shown.len();
        shown.sort_by_key(|k| *k as usize);
        shown.dedup();
        assert_eq!(shown.len(), n, "a key is shown twice");
        for &k in K::ALL {
            if k.row().target() != tmath::keys::Target::Page {
                assert!(shown.contains(&k), "{} is on no control", k.name());
            }
        }
    }
}
