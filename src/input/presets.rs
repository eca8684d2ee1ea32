//! Lecture presets: each a state whose numbers a published source gives, and
//! the view that tells its part of the story. A slide deck (`deck=`) lists
//! presets or views; the default deck follows the article.

use crate::page::View;

/// One bar of a comparison slide: the keys that differ from the preset's own
/// state (its label is written from the bar's own resolved state, so a live
/// change never leaves a label that no longer holds).
#[derive(Debug, PartialEq)]
pub struct Variant {
    pub query: &'static str,
}

/// One preset.
#[derive(Debug)]
pub struct Preset {
    /// Its name in a deck (`deck=7b,zero-paper`); its label's translation key is `preset-` + name.
    pub name: &'static str,
    /// The state, as a link's query.
    pub query: &'static str,
    /// The view a slide or a figure of it shows.
    pub view: View,
    /// For a comparison: one bar each, beside nothing else.
    pub variants: &'static [Variant],
}

pub static PRESETS: &[Preset] = &[
    // Transformer Math 101: 7B mixed AdamW = 112 GB of model states; one A100 is not enough.
    Preset { name: "7b", query: "params=7B", view: View::ModelStates, variants: &[] },
    // 2·s·b·h·L against 34 and 34 + 5as/h: the article's activation terms for a 7B shape at s = 4096.
    Preset { name: "activations-7b", query: "model=llama-2-7b&seq-len=4096", view: View::Activations, variants: &[] },
    // ZeRO paper: 7.5B on 64 GPUs, ZeRO-1 = 31.4 GB of model states.
    Preset { name: "zero-paper", query: "params=7.5B&dp=64&zero=1", view: View::Zero, variants: &[] },
    // GPT-3 175B on 300B tokens: 3.14e23 FLOPs (Brown et al. 2020), on 1024 A100s as Megatron lays it out.
    Preset {
        name: "gpt-3",
        query: "model=gpt-3-175b&tokens=300B&tp=8&pp=8&dp=16&grad-accum=64&convention=megatron&recompute=selective&sequence-parallel=1",
        view: View::ThreeD,
        variants: &[],
    },
    // 70B under FSDP/ZeRO-3: 16 B/param ÷ 8 ≈ 140 GB per GPU on 8 A100s, no fit;
    // on 16 it fits only with full recomputation.
    Preset {
        name: "70b-fsdp",
        query: "model=llama-2-70b&seq-len=4096&dp=16&zero=3&recompute=full",
        view: View::Memory,
        // 8 GPUs: the 140 GB of states alone do not fit, whatever the recomputation;
        // 16: the states fit, and full recomputation makes room for the activations.
        variants: &[Variant { query: "dp=8" }, Variant { query: "recompute=selective" }, Variant { query: "" }],
    },
    Preset { name: "70b-8", query: "model=llama-2-70b&seq-len=4096&dp=8&zero=3", view: View::Memory, variants: &[] },
    Preset {
        name: "70b-16",
        query: "model=llama-2-70b&seq-len=4096&dp=16&zero=3&recompute=full",
        view: View::Memory,
        variants: &[],
    },
    // Llama 3 405B: t = 8 in a node, p = 16, d = 128 on 16 384 H100s (Dubey et al. 2024, Table 4).
    Preset {
        name: "405b",
        query: "model=llama-3-405b&tp=8&pp=16&dp=128&zero=1&recompute=full&sequence-parallel=1&gpu=h100-80gb&grad-accum=16&tokens=15.6T&convention=megatron",
        view: View::Memory,
        variants: &[],
    },
    // The lesson's exercise prices: Chinchilla 70B (6PD = 5.88e23) on 1,024 GPUs,
    // A100 at $2 per GPU-hour (150 TFLOP/s achieved, the article's figure) against
    // H100 at $3.50 (400 TFLOP/s): $2.18M against $1.43M.
    Preset {
        name: "lesson-a100",
        query: "params=70B&tokens=1.4T&gpus=1024&gpu=a100-80gb&usd-per-gpu-hour=2",
        view: View::Compute,
        variants: &[],
    },
    Preset {
        name: "lesson-h100",
        query: "params=70B&tokens=1.4T&gpus=1024&gpu=h100-80gb&usd-per-gpu-hour=3.5",
        view: View::Compute,
        variants: &[],
    },
    // The article's inference: 7B in fp16, 14 GB of weights × 1.2 = 16.8 GB.
    Preset { name: "inference-7b", query: "params=7B", view: View::Inference, variants: &[] },
    // Kipply's inference arithmetic, live (issue 36): Llama 3 70B in FP8 on two H100s, 32 users of 8k.
    // Its KV cache in FP8 too: in 16 bits the pool holds 27 such requests, not 32.
    Preset {
        name: "serving-70b",
        query: "model=llama-3-70b&gpu=h100-80gb&inference-dtype=fp8&kv-dtype=fp8&serve-tp=2&batch=32&prompt-tokens=8192&output-tokens=512",
        view: View::Serving,
        variants: &[],
    },
    // Fine-tuning (issue 38): Llama 3 8B on one RTX 4090 as torchtune runs it (pure bf16,
    // activation checkpointing, eager operations), fully, with LoRA and with QLoRA.
    Preset {
        name: "finetune-8b-4090",
        query: "model=llama-3-8b&gpu=rtx-4090&convention=megatron&attention=flash&kernels=eager&precision=bf16&grad-dtype=fp16&exp-avg-dtype=bf16&seq-len=2048&recompute=full&finetune=qlora",
        view: View::Finetune,
        variants: &[],
    },
    // GRPO of Qwen2.5 7B with LoRA on one H100, vLLM colocated at 0.3 (TRL's default): the
    // generation phase and the training phase side by side.
    Preset {
        name: "grpo-7b",
        query: "model=qwen2.5-7b&gpu=h100-80gb&convention=megatron&attention=flash&kernels=eager&precision=bf16&grad-dtype=fp16&exp-avg-dtype=bf16&recompute=full&finetune=lora&post-training=grpo&rollouts=8&prompt-tokens=512&response-tokens=1024",
        view: View::Finetune,
        variants: &[],
    },
    // Chinchilla itself: 70B on 1.4T tokens, D = 20P (Hoffmann et al. 2022).
    Preset { name: "chinchilla-70b", query: "params=70B&tokens=1.4T", view: View::Chinchilla, variants: &[] },
    // Korthikanti et al. 2022, Table 3 with sequence parallelism + selective recomputation.
    Preset {
        name: "megatron-22b",
        query: "model=megatron-22b&convention=megatron&tp=8&micro-batch=4&recompute=selective&sequence-parallel=1",
        view: View::Memory,
        variants: &[],
    },
    Preset {
        name: "megatron-175b",
        query: "model=megatron-175b&convention=megatron&tp=8&pp=8&grad-accum=64&recompute=selective&sequence-parallel=1",
        view: View::Memory,
        variants: &[],
    },
    Preset {
        name: "megatron-530b",
        query: "model=megatron-530b&convention=megatron&tp=8&pp=35&grad-accum=280&recompute=selective&sequence-parallel=1",
        view: View::Memory,
        variants: &[],
    },
    Preset {
        name: "megatron-1t",
        query: "model=megatron-1t&convention=megatron&tp=8&pp=64&grad-accum=512&recompute=selective&sequence-parallel=1",
        view: View::Memory,
        variants: &[],
    },
];

/// The article's story in ten slides: bytes per parameter, activations, ZeRO,
/// 3D parallelism, 70B with FSDP on 8 vs 16 GPUs, Llama 3 405B, the compute
/// and its cost (the lesson's A100 at $2/h against H100 at $3.50/h),
/// Chinchilla, and serving's memory.
pub const DEFAULT_DECK: &[&str] = &[
    "7b",
    "activations-7b",
    "zero-paper",
    "gpt-3",
    "70b-fsdp",
    "405b",
    "lesson-a100",
    "lesson-h100",
    "chinchilla-70b",
    "inference-7b",
];

/// The views a deck of the current state shows (the presentation button, and
/// `present=1` on a link that names a state without a deck): the article's
/// sections in its order, every slide on the lecturer's own numbers.
pub const STATE_DECK: &[View] = &[
    View::ModelStates,
    View::Activations,
    View::Memory,
    View::Zero,
    View::ThreeD,
    View::Compute,
    View::Chinchilla,
    View::Inference,
];

/// Looks a preset up by name.
pub fn preset(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// What a deck may list: every preset and every view.
pub fn deck_entries() -> Vec<&'static str> {
    PRESETS.iter().map(|p| p.name).chain(View::ALL.iter().map(|v| v.as_str())).collect()
}
