//! Fine-tuning against measured runs (issue 38): full, LoRA and QLoRA peaks
//! that torchtune, LitGPT and Answer.AI's fsdp_qlora published with their
//! setups, each with its counter and its rank. The rows are the training
//! table's [`Row`]s; `docs/research/finetune-runs.md` has where each was read.

use super::validation::{check, median, Checked, Framework, Gap, Metric, Published, Rank, Row};

/// The largest median |error| over the rows whose setup is fully published (issue 38).
pub const MEDIAN_LIMIT: f64 = 0.12;
/// The largest |error| of a row that states no [`Gap`].
pub const ROW_LIMIT: f64 = 0.30;

const GIB: f64 = 1_073_741_824.0;

/// torchtune's pure-bf16 recipes: bf16 weights, adapters, gradients and AdamW
/// moments (torch's AdamW keeps its moments in the parameters' type), the loss
/// on the fp32 logits (`.float()`), SDPA's flash kernel, PyTorch's eager
/// operations (its `FeedForward` computes `w2(silu(w1(x)) * w3(x))`, its
/// `RMSNorm` upcasts to fp32) unless compiled.
macro_rules! tune {
    ($rest:literal) => {
        concat!(
            "convention=megatron&precision=bf16&grad-dtype=fp16&exp-avg-dtype=bf16&loss=standard&attention=flash&kernels=eager&",
            $rest
        )
    };
}

/// LitGPT's `--precision bf16-true` (lit-gpt 8641822): pure bf16 as torchtune's,
/// eager (its `LLaMAMLP` multiplies `silu(fc_1(x)) * fc_2(x)`, its `RMSNorm` upcasts);
/// its `chunked_cross_entropy` takes the logits 128 tokens at a time (10 pieces of
/// the 1,304-token sample); LoRA r 8 on the query and value with dropout 0.05;
/// no activation checkpointing on one GPU; an A100 40GB.
macro_rules! litgpt {
    ($rest:literal) => {
        concat!(
            "convention=megatron&precision=bf16&grad-dtype=fp16&exp-avg-dtype=bf16&loss=chunked&loss-chunks=10&attention=flash&kernels=eager&",
            "gpu=a100-40gb&finetune=lora&lora-rank=8&lora-targets=qv&lora-dropout=0.05&seq-len=1304&recompute=none&",
            $rest
        )
    };
}

/// Answer.AI's fsdp_qlora `train.py` (05ed9f2): Llama 2 7B sharded by FSDP over
/// two RTX 3090s (their 4090 figures are the same), pure bf16, LoRA r 64 with
/// dropout 0.1 on the attention's and the MLP's linear layers, activation
/// checkpointing, transformers' loss on the fp32 logits, its eager LlamaMLP and
/// LlamaRMSNorm, batch 1.
macro_rules! answer_ai {
    ($rest:literal) => {
        concat!(
            "convention=megatron&precision=bf16&grad-dtype=fp16&exp-avg-dtype=bf16&loss=standard&attention=flash&kernels=eager&",
            "model=llama-2-7b&gpu=rtx-4090&gpus=2&zero=3&lora-rank=64&lora-targets=all-linear&lora-dropout=0.1&",
            "recompute=full&",
            $rest
        )
    };
}

const TORCHTUNE_LORA_TUTORIAL: &str =
    "https://github.com/pytorch/torchtune/blob/ff594c23113891c99050f730c6be0aeacf511b2f/docs/source/tutorials/lora_finetune.rst";
const TORCHTUNE_QLORA_TUTORIAL: &str =
    "https://github.com/pytorch/torchtune/blob/0914d5cfb5a34bf14a72e36b9ddebc64904763d1/docs/source/tutorials/qlora_finetune.rst";
const TORCHTUNE_README_2024_11: &str =
    "https://github.com/pytorch/torchtune/blob/1814feb17a9038e1a8053ce93111bd26774a8db6/README.md";
const TORCHTUNE_README_2024_09: &str =
    "https://github.com/pytorch/torchtune/blob/30b8519e86d2094879576e16ab1f8d21a6f6f9f7/README.md";
const TORCHTUNE_README_2024_05: &str =
    "https://github.com/pytorch/torchtune/blob/0217d44c2e1e372b34628767745c1f6538086a81/README.md";
const SWIFT_DPO_LORA: &str = "https://github.com/modelscope/ms-swift/blob/3602360a562313afbf2ef6065fdf61f271a2c5b9/examples/train/rlhf/dpo/lora.sh";
const SWIFT_PPO_FULL: &str = "https://github.com/modelscope/ms-swift/blob/3602360a562313afbf2ef6065fdf61f271a2c5b9/examples/train/rlhf/ppo/full.sh";
const SWIFT_PPO_LORA: &str = "https://github.com/modelscope/ms-swift/blob/3602360a562313afbf2ef6065fdf61f271a2c5b9/examples/train/rlhf/ppo/lora.sh";
const SWIFT_QWEN3: &str =
    "https://github.com/modelscope/ms-swift/blob/3602360a562313afbf2ef6065fdf61f271a2c5b9/docs/source_en/BestPractices/Qwen3-Best-Practice.md";
const LITGPT_RESOURCES: &str =
    "https://github.com/Lightning-AI/litgpt/blob/0cc02afa1dca7434418cf612690da13d38d294fd/tutorials/resource-tables.md";
const ANSWER_AI: &str =
    "https://github.com/AnswerDotAI/fsdp_qlora/blob/4cd69234f84de9f4f4933904b8824ab9f2c2a004/benchmarks_03_2024.md";

#[allow(clippy::too_many_arguments)]
const fn row(
    name: &'static str,
    framework: Framework,
    model: &'static str,
    query: &'static str,
    bytes: f64,
    metric: Metric,
    source: &'static str,
    inferred: bool,
) -> Row {
    Row {
        name,
        framework,
        model,
        query,
        published: Published::Measured(bytes),
        metric,
        rank: Rank::Peak,
        source,
        inferred,
        gap: None,
    }
}

const fn with_gap(r: Row, gap: Gap) -> Row {
    Row { gap: Some(gap), ..r }
}

/// An fsdp_qlora row that gives only the reserved peak, GiB.
const fn fsdp_reserved(name: &'static str, query: &'static str, gib: f64) -> Row {
    with_gap(
        row(name, Framework::AnswerAi, "Llama 2 7B", query, gib * GIB, Metric::Reserved, ANSWER_AI, false),
        Gap::FsdpCache,
    )
}

/// ms-swift's example scripts (on TRL's trainers): bf16 weights and moments, activation
/// checkpointing, transformers' eager layers; the figure is a comment in each script,
/// its counter and GPU not stated (80 GB cards inferred; its log prints reserved memory).
macro_rules! swift {
    ($rest:literal) => {
        concat!(
            "convention=megatron&precision=bf16&grad-dtype=fp16&exp-avg-dtype=bf16&loss=standard&attention=flash&kernels=eager&",
            "gpu=h100-80gb&recompute=full&",
            $rest
        )
    };
}

/// The table.
pub static FINETUNE_ROWS: &[Row] = &[
    // torchtune's LoRA tutorial (ff594c2): Llama 2 7B on one GPU, batch 2, activation
    // checkpointing, Alpaca cleaned cut at 512 tokens and padded to each batch's longest;
    // "peak memory reserved", GB of 10⁹ bytes. "All layers" adds the output layer's
    // adapter (r·(h + V), 0.3M at r 8) to every linear layer's.
    with_gap(
        row(
            "torchtune-lora-llama2-7b-qv-r8",
            Framework::Torchtune,
            "Llama 2 7B",
            tune!("model=llama-2-7b&finetune=lora&lora-rank=8&lora-targets=qv&micro-batch=2&seq-len=512&recompute=full"),
            15.57e9,
            Metric::Reserved,
            TORCHTUNE_LORA_TUTORIAL,
            true,
        ),
        Gap::DataLength,
    ),
    with_gap(
        row(
            "torchtune-lora-llama2-7b-qv-r64",
            Framework::Torchtune,
            "Llama 2 7B",
            tune!("model=llama-2-7b&finetune=lora&lora-rank=64&lora-targets=qv&micro-batch=2&seq-len=512&recompute=full"),
            15.86e9,
            Metric::Reserved,
            TORCHTUNE_LORA_TUTORIAL,
            true,
        ),
        Gap::DataLength,
    ),
    with_gap(
        row(
            "torchtune-lora-llama2-7b-all-r8",
            Framework::Torchtune,
            "Llama 2 7B",
            tune!("model=llama-2-7b&finetune=lora&lora-rank=8&lora-targets=all-linear&micro-batch=2&seq-len=512&recompute=full"),
            15.87e9,
            Metric::Reserved,
            TORCHTUNE_LORA_TUTORIAL,
            true,
        ),
        Gap::DataLength,
    ),
    with_gap(
        row(
            "torchtune-lora-llama2-7b-all-r64",
            Framework::Torchtune,
            "Llama 2 7B",
            tune!("model=llama-2-7b&finetune=lora&lora-rank=64&lora-targets=all-linear&micro-batch=2&seq-len=512&recompute=full"),
            17.04e9,
            Metric::Reserved,
            TORCHTUNE_LORA_TUTORIAL,
            true,
        ),
        Gap::DataLength,
    ),
    with_gap(
        row(
            "torchtune-qlora-llama2-7b-r8",
            Framework::Torchtune,
            "Llama 2 7B",
            tune!("model=llama-2-7b&finetune=qlora&lora-rank=8&lora-targets=all-linear&micro-batch=2&seq-len=512&recompute=full"),
            9.29e9,
            Metric::Reserved,
            TORCHTUNE_QLORA_TUTORIAL,
            true,
        ),
        Gap::LoadPeak,
    ),
    // LitGPT's resource tables (lit-gpt 8641822, an A100 40GB): `max_memory_allocated`, GB
    // of 10⁹ bytes, over the run, whose first step takes the longest sample (1,304 tokens).
    row("litgpt-lora-llama2-7b-mb1", Framework::LitGpt, "Llama 2 7B", litgpt!("model=llama-2-7b&micro-batch=1"), 21.30e9, Metric::Allocated, LITGPT_RESOURCES, false),
    row("litgpt-lora-llama2-7b-mb2", Framework::LitGpt, "Llama 2 7B", litgpt!("model=llama-2-7b&micro-batch=2"), 29.07e9, Metric::Allocated, LITGPT_RESOURCES, false),
    row("litgpt-lora-llama2-13b-mb1", Framework::LitGpt, "Llama 2 13B", litgpt!("model=llama-2-13b&micro-batch=1"), 38.12e9, Metric::Allocated, LITGPT_RESOURCES, false),
    with_gap(
        row(
            "litgpt-qlora-llama2-7b-nf4-dq",
            Framework::LitGpt,
            "Llama 2 7B",
            litgpt!("model=llama-2-7b&micro-batch=1&finetune=qlora"),
            13.84e9,
            Metric::Allocated,
            LITGPT_RESOURCES,
            false,
        ),
        Gap::LoadPeak,
    ),
    with_gap(
        row(
            "litgpt-qlora-llama2-13b-nf4-dq",
            Framework::LitGpt,
            "Llama 2 13B",
            litgpt!("model=llama-2-13b&micro-batch=1&finetune=qlora"),
            22.55e9,
            Metric::Allocated,
            LITGPT_RESOURCES,
            false,
        ),
        Gap::LoadPeak,
    ),
    // Answer.AI's fsdp_qlora benchmarks (March 2024): exact context lengths of dummy data;
    // the peak after the 4th step, reserved GiB (allocated where the text gives it).
    row("fsdp-lora-llama2-7b-512", Framework::AnswerAi, "Llama 2 7B", answer_ai!("finetune=lora&seq-len=512"), 8.28 * GIB, Metric::Allocated, ANSWER_AI, false),
    row("fsdp-lora-llama2-7b-2048", Framework::AnswerAi, "Llama 2 7B", answer_ai!("finetune=lora&seq-len=2048"), 9.16 * GIB, Metric::Allocated, ANSWER_AI, false),
    fsdp_reserved("fsdp-qlora-llama2-7b-512", answer_ai!("finetune=qlora&seq-len=512"), 4.98),
    fsdp_reserved("fsdp-qlora-llama2-7b-2048", answer_ai!("finetune=qlora&seq-len=2048"), 5.21),
    fsdp_reserved("fsdp-qlora-llama2-7b-2048-b4", answer_ai!("finetune=qlora&seq-len=2048&micro-batch=4"), 11.22),
    fsdp_reserved("fsdp-lora-llama2-7b-2048-b4", answer_ai!("finetune=lora&seq-len=2048&micro-batch=4"), 16.14),
    // The weights' shards offloaded to CPU memory with FSDP's CPUOffload.
    fsdp_reserved(
        "fsdp-lora-llama2-7b-offload-b10",
        answer_ai!("finetune=lora&seq-len=2048&micro-batch=10&offload=params"),
        22.69,
    ),
    fsdp_reserved(
        "fsdp-qlora-llama2-7b-offload-b12",
        answer_ai!("finetune=qlora&seq-len=2048&micro-batch=12&offload=params"),
        22.38,
    ),
    // torchtune's README (Sep 2024): Llama 3.1 8B on one RTX 4090, batch 2, packed to 2,048
    // tokens, torch.compile; the recipes' defaults (r 8, activation checkpointing) inferred.
    with_gap(
    row(
            "torchtune-lora-llama31-8b-4090",
            Framework::Torchtune,
            "Llama 3.1 8B",
            tune!("kernels=fused&model=llama-3-8b&gpu=rtx-4090&finetune=lora&lora-rank=8&lora-targets=qv&micro-batch=2&seq-len=2048&recompute=full&loss=chunked&loss-chunks=8"),
            16.2 * GIB,
            Metric::Active,
            TORCHTUNE_README_2024_09,
            true,
        ),
        Gap::Compiled,
    ),
    with_gap(
    row(
            "torchtune-qlora-llama31-8b-4090",
            Framework::Torchtune,
            "Llama 3.1 8B",
            tune!("kernels=fused&model=llama-3-8b&gpu=rtx-4090&finetune=qlora&lora-rank=8&lora-targets=all-linear&micro-batch=2&seq-len=2048&recompute=full&loss=chunked&loss-chunks=8"),
            7.4 * GIB,
            Metric::Active,
            TORCHTUNE_README_2024_09,
            true,
        ),
        Gap::Compiled,
    ),
    // Llama 3.1 70B in full on 8 A100s with FSDP's CPU offload and the fused optimizer (its
    // footnote), batch 2, packed to 2,048 tokens: the GPU keeps the gathered layers.
    row(
        "torchtune-full-llama31-70b-offload",
        Framework::Torchtune,
        "Llama 3.1 70B",
        tune!("kernels=fused&model=llama-3-70b&gpu=a100-80gb&gpus=8&zero=3&offload=params&micro-batch=2&seq-len=2048&recompute=full&loss=chunked&loss-chunks=8"),
        13.9 * GIB,
        Metric::Active,
        TORCHTUNE_README_2024_09,
        true,
    ),
    // torchtune's README (Nov 2024): Llama 3.2 3B on one A100, batch 2, packed to 4,096
    // tokens, "peak memory active"; full fine-tuning without and with its savings.
    row(
        "torchtune-full-llama32-3b-packed",
        Framework::Torchtune,
        "Llama 3.2 3B",
        tune!("layers=28&hidden=3072&heads=24&kv-heads=8&ffn=8192&mlp=swiglu&vocab=128256&tie-embeddings=1&micro-batch=2&seq-len=4096&recompute=none"),
        60.0 * GIB,
        Metric::Active,
        TORCHTUNE_README_2024_11,
        false,
    ),
    // The same with torch.compile, the chunked loss (8 pieces) and activation checkpointing.
    with_gap(
    row(
            "torchtune-full-llama32-3b-ac",
            Framework::Torchtune,
            "Llama 3.2 3B",
            tune!("kernels=fused&layers=28&hidden=3072&heads=24&kv-heads=8&ffn=8192&mlp=swiglu&vocab=128256&tie-embeddings=1&micro-batch=2&seq-len=4096&recompute=full&loss=chunked&loss-chunks=8"),
            24.9 * GIB,
            Metric::Active,
            TORCHTUNE_README_2024_11,
            false,
        ),
        Gap::Compiled,
    ),
    // LoRA and QLoRA at r 64 on the query, value and output projections and the MLP (its 3B
    // recipes), the checkpointed inputs offloaded to CPU memory, AdamW.
    with_gap(
    row(
            "torchtune-lora-llama32-3b-offload",
            Framework::Torchtune,
            "Llama 3.2 3B",
            tune!("kernels=fused&layers=28&hidden=3072&heads=24&kv-heads=8&ffn=8192&mlp=swiglu&vocab=128256&tie-embeddings=1&micro-batch=2&seq-len=4096&recompute=full&loss=chunked&loss-chunks=8&offload-activations=1&finetune=lora&lora-rank=64&lora-targets=all-linear"),
            8.5 * GIB,
            Metric::Active,
            TORCHTUNE_README_2024_11,
            false,
        ),
        Gap::Compiled,
    ),
    with_gap(
    row(
            "torchtune-qlora-llama32-3b-offload",
            Framework::Torchtune,
            "Llama 3.2 3B",
            tune!("kernels=fused&layers=28&hidden=3072&heads=24&kv-heads=8&ffn=8192&mlp=swiglu&vocab=128256&tie-embeddings=1&micro-batch=2&seq-len=4096&recompute=full&loss=chunked&loss-chunks=8&offload-activations=1&finetune=qlora&lora-rank=64&lora-targets=all-linear"),
            4.6 * GIB,
            Metric::Active,
            TORCHTUNE_README_2024_11,
            false,
        ),
        Gap::Compiled,
    ),
    // Post-training (ms-swift): DPO with LoRA on one GPU (the reference is the base with the
    // adapters off), PPO with LoRA on 4 GPUs (ZeRO-2) and in full on 8 (ZeRO-3) against an
    // 8B reward model with an 8B value model, GRPO of Qwen3-8B with 16 completions per prompt
    // and vLLM colocated at 0.4 (ZeRO-3 on 8 GPUs).
    row(
        "swift-dpo-lora-qwen2.5-7b",
        Framework::MsSwift,
        "Qwen2.5 7B",
        swift!("model=qwen2.5-7b&finetune=lora&lora-rank=8&post-training=dpo&seq-len=2048"),
        24.0 * GIB,
        Metric::Reserved,
        SWIFT_DPO_LORA,
        true,
    ),
    row(
        "swift-ppo-lora-llama31-8b",
        Framework::MsSwift,
        "Llama 3.1 8B",
        swift!("model=llama-3-8b&finetune=lora&lora-rank=8&post-training=ppo&reward-params=7.5e9&critic-params=7.5e9&prompt-tokens=1536&response-tokens=512&rollout=trainer&rollouts=1&gpus=4&zero=2"),
        50.0 * GIB,
        Metric::Reserved,
        SWIFT_PPO_LORA,
        true,
    ),
    with_gap(
        row(
            "swift-ppo-full-llama31-8b",
            Framework::MsSwift,
            "Llama 3.1 8B",
            swift!("model=llama-3-8b&post-training=ppo&reward-params=7.5e9&critic-params=7.5e9&prompt-tokens=1536&response-tokens=512&rollout=trainer&rollouts=1&gpus=8&zero=3"),
            65.0 * GIB,
            Metric::Reserved,
            SWIFT_PPO_FULL,
            true,
        ),
        Gap::Zero3Generate,
    ),
    row(
        "swift-grpo-qwen3-8b",
        Framework::MsSwift,
        "Qwen3 8B",
        swift!("layers=36&hidden=4096&heads=32&kv-heads=8&head-dim=128&ffn=12288&mlp=swiglu&vocab=151936&tie-embeddings=0&post-training=grpo&rollouts=16&micro-batch=2&prompt-tokens=512&response-tokens=4096&rollout=colocated&rollout-mem-util=0.4&gpus=8&zero=3"),
        70.0e9,
        Metric::NvidiaSmi,
        SWIFT_QWEN3,
        true,
    ),
    // torchtune's README (May 2024): Llama 2 7B on one RTX 4090, batch 4, 2,048 tokens, GB
    // of 10⁹ bytes; the recipes' defaults (r 8, activation checkpointing) inferred.
    row(
        "torchtune-lora-llama2-7b-4090",
        Framework::Torchtune,
        "Llama 2 7B",
        tune!("model=llama-2-7b&gpu=rtx-4090&finetune=lora&lora-rank=8&lora-targets=qv&micro-batch=4&seq-len=2048&recompute=full"),
        21.3e9,
        Metric::Active,
        TORCHTUNE_README_2024_05,
        true,
    ),
    with_gap(
    row(
            "torchtune-qlora-llama2-7b-4090",
            Framework::Torchtune,
            "Llama 2 7B",
            tune!("kernels=fused&model=llama-2-7b&gpu=rtx-4090&finetune=qlora&lora-rank=8&lora-targets=all-linear&micro-batch=4&seq-len=2048&recompute=full"),
            12.3e9,
            Metric::Active,
            TORCHTUNE_README_2024_05,
            true,
        ),
        Gap::Compiled,
    ),
];

/// Every row, evaluated.
pub fn table() -> Vec<Checked> {
    FINETUNE_ROWS.iter().filter_map(check).collect()
}

/// Whether a row counts for the median: its setup fully published and its
/// counter what the calculator predicts (allocated or active memory; a reserved
/// figure adds the allocator's cache, which it does not model).
pub fn counts(r: &Checked) -> bool {
    r.counts() && r.row.metric != Metric::Reserved
}

/// The median |error| of the rows that count ([`counts`]).
pub fn median_error(rows: &[Checked]) -> f64 {
    median(rows.iter().filter(|r| counts(r)).map(|r| r.error().abs()))
}
