//! How close is this to reality: the calculator's figure beside a published
//! one, for runs whose setup is public. Each row gives its inputs (a link's
//! query), the published figure with its source, what that figure measures,
//! and the largest error this project accepts for it (`tests/validation.rs`
//! holds every row to it; the page shows the table).
//!
//! Two kinds of reference:
//! - Megatron-LM's own estimator (`megatron/training/theoretical_memory_usage.py`),
//!   reimplemented here from Korthikanti et al. 2022 and Megatron-LM's docs
//!   (see [`megatron_estimate`]), on the paper's models;
//! - peak memory measured by a framework on real GPUs, as a repository or a
//!   maintainer published it (`docs/research/validation.md` has the setups).

use crate::config::{Config, Mlp};
use crate::memory::{MemoryBreakdown, Part};
use crate::report::evaluate;
use crate::units::Bytes;

/// What a published figure counts, and so which part of the bar predicts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Megatron-LM's estimator: the model states and activations, no buffers, no reserve.
    Estimator,
    /// PyTorch's peak allocated memory (`max_memory_allocated`): the formulas' total, no reserve.
    Allocated,
    /// PyTorch's peak active memory (`memory_stats()["active_bytes.all.peak"]`,
    /// torchtune's "peak memory active"): allocated blocks in use, the same figure here.
    Active,
    /// PyTorch's peak reserved memory (`max_memory_reserved`): the formulas and the
    /// allocator's fragmentation, not the CUDA context.
    Reserved,
    /// nvidia-smi: everything, the CUDA context and NCCL buffers included.
    NvidiaSmi,
}

impl Metric {
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Estimator => "estimator",
            Metric::Allocated => "allocated",
            Metric::Active => "active",
            Metric::Reserved => "reserved",
            Metric::NvidiaSmi => "nvidia-smi",
        }
    }

    /// The calculator's figure for this metric from one stage's memory: the
    /// bar without its reserve segment (allocated, active), with fragmentation
    /// but not the fixed reserve (reserved), or the whole bar (nvidia-smi);
    /// the estimator's has no framework buffers either.
    pub fn predicted(self, c: &Config, m: &MemoryBreakdown) -> Bytes {
        match self {
            Metric::Estimator => m.total() - m[Part::Reserve] - m[Part::Buffers],
            Metric::Allocated | Metric::Active => m.total() - m[Part::Reserve],
            Metric::Reserved => m.total() - Bytes(c.system.reserve_bytes),
            Metric::NvidiaSmi => m.total(),
        }
    }
}

/// Which GPU the published figure is from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rank {
    /// The heaviest (the maximum over ranks, or a run without pipelining).
    Peak,
    /// Pipeline stage i, from 0 (a log line of that rank; Megatron-LM's
    /// TensorBoard values come from the last rank, the last stage).
    Stage(u64),
}

/// Where the published figure comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Published {
    /// Bytes, as measured.
    Measured(f64),
    /// Megatron-LM's estimator on the row's configuration.
    Estimator,
}

/// The framework that ran (or estimated) the row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Framework {
    MegatronLm,
    Torchtitan,
    Torchtune,
    LlamaRecipes,
    /// Hugging Face transformers on PyTorch, measured by this project (`tests/gpu/measure.py`).
    Transformers,
    /// Lightning AI's LitGPT (lit-gpt).
    LitGpt,
    /// Answer.AI's fsdp_qlora.
    AnswerAi,
    /// ModelScope's ms-swift (its post-training on TRL's trainers).
    MsSwift,
}

impl Framework {
    /// Its name, the same in every language.
    pub fn name(self) -> &'static str {
        match self {
            Framework::MegatronLm => "Megatron-LM",
            Framework::Torchtitan => "torchtitan",
            Framework::Torchtune => "torchtune",
            Framework::LlamaRecipes => "llama-recipes",
            Framework::Transformers => "transformers",
            Framework::LitGpt => "LitGPT",
            Framework::AnswerAi => "fsdp_qlora",
            Framework::MsSwift => "ms-swift",
        }
    }
}

/// Why a row's error is what it is, where the calculator knowingly leaves
/// something out (the page says it in its language; rows beyond 25 % need one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gap {
    /// Megatron-LM's fp16 path keeps fp16 gradients and their fp32 copy: 20 bytes/param, 18 here.
    Fp16Grads,
    /// torchtitan's op-level selective checkpointing saves every other matmul's
    /// output (`_save_list`), less than Korthikanti's selective recomputation.
    OpLevelCheckpointing,
    /// The sequence length is the data's (Alpaca, padded to each batch's
    /// longest), not published: the row's length is a guess.
    DataLength,
    /// The counter's peak includes loading the model: a 4-bit base is made from
    /// the 16-bit checkpoint on the GPU (torchtune's QLoRA tutorial: 9.13 GB
    /// reserved right after loading Llama 2 7B), which training does not hold.
    LoadPeak,
    /// Reserved memory under FSDP: the allocator's cache of the all-gathers,
    /// 1.1–2.0 GiB over the allocated peak in the same setup's LoRA rows
    /// (Answer.AI's text gives both), not modelled.
    FsdpCache,
    /// torch.compile fuses the chunked loss: it keeps the 16-bit logits and a
    /// log-sum-exp per token where eager PyTorch keeps each piece's fp32
    /// log-probabilities (4 bytes a logit), and fuses the elementwise operations.
    Compiled,
    /// Generation under ZeRO-3 with the trainer's own `generate`: DeepSpeed gathers
    /// the whole policy for it (and TRL's PPO keeps four models), not modelled.
    Zero3Generate,
    /// The experts run one after another (Megatron-Core's `SequentialMLP`, its
    /// default without `--moe-grouped-gemm`), which needs none of the grouped
    /// GEMMs' four workspaces that the calculator counts (4 × 32 MiB on an H100).
    SequentialExperts,
}

impl Gap {
    pub fn as_str(self) -> &'static str {
        match self {
            Gap::Fp16Grads => "fp16-grads",
            Gap::OpLevelCheckpointing => "op-level-checkpointing",
            Gap::DataLength => "data-length",
            Gap::LoadPeak => "load-peak",
            Gap::FsdpCache => "fsdp-cache",
            Gap::Compiled => "compiled",
            Gap::Zero3Generate => "zero3-generate",
            Gap::SequentialExperts => "sequential-experts",
        }
    }
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// A stable name.
    pub name: &'static str,
    pub framework: Framework,
    /// The model as its source names it (a proper name, the same in every language).
    pub model: &'static str,
    /// The run, as a link's query (the calculator's keys).
    pub query: &'static str,
    pub published: Published,
    pub metric: Metric,
    pub rank: Rank,
    /// Where the figure and its setup are published.
    pub source: &'static str,
    /// The setup is partly inferred (the source does not state every input):
    /// shown, and kept out of the thresholds.
    pub inferred: bool,
    /// What the calculator knowingly leaves out for this run.
    pub gap: Option<Gap>,
}

const GIB: f64 = 1_073_741_824.0;
const MIB: f64 = 1_048_576.0;

/// A run measured by this project on one H200 (`tests/gpu/measure.py`):
/// transformers' LlamaForCausalLM with SDPA attention and its own loss, fused
/// AdamW, the gradients kept allocated between steps (`zero_grad(set_to_none=False)`),
/// `max_memory_allocated` over three steps after the first; the records are
/// served beside the page (`public/h200-runs.jsonl`; `docs/research/runs-h200.md`).
/// Pure bf16: bf16 weights, gradients and moments, no fp32 copy.
macro_rules! h200_bf16 {
    ($($rest:expr),+) => {
        concat!(
            "convention=megatron&precision=bf16&grad-dtype=fp16&exp-avg-dtype=bf16&loss=standard&attention=flash&gpu=h200&",
            $($rest),+
        )
    };
}

/// Llama 3.2 1B's shape (meta-llama/Llama-3.2-1B config.json).
macro_rules! llama_1b {
    ($rest:literal) => {
        h200_bf16!(
            "layers=16&hidden=2048&heads=32&kv-heads=8&ffn=8192&mlp=swiglu&vocab=128256&tie-embeddings=1&",
            $rest
        )
    };
}

/// Llama 3.2 3B's shape (meta-llama/Llama-3.2-3B config.json).
macro_rules! llama_3b {
    ($rest:literal) => {
        h200_bf16!(
            "layers=28&hidden=3072&heads=24&kv-heads=8&ffn=8192&mlp=swiglu&vocab=128256&tie-embeddings=1&",
            $rest
        )
    };
}

// The throughput table runs the same H200 runs.
pub(crate) use {h200_bf16, llama_1b, llama_3b};

/// The records of this project's H200 runs, served with the page.
pub const H200_RUNS: &str = "h200-runs.jsonl";

/// A row of this project's H200 runs: `max_memory_allocated`, bytes, one GPU.
const fn h200(name: &'static str, model: &'static str, query: &'static str, bytes: f64) -> Row {
    Row {
        name,
        framework: Framework::Transformers,
        model,
        query,
        published: Published::Measured(bytes),
        metric: Metric::Allocated,
        rank: Rank::Peak,
        source: H200_RUNS,
        inferred: false,
        gap: None,
    }
}

/// Megatron-Core's functional-test GPT (`tests/functional_tests/test_cases/gpt/`):
/// 12 layers, h 512, 8 heads, GELU, tied embeddings, s 1024, micro-batch 4, 8 GPUs.
macro_rules! gpt_small {
    ($rest:literal) => {
        concat!(
            "convention=megatron&layers=12&hidden=512&heads=8&ffn=2048&mlp=gelu&tie-embeddings=1&seq-len=1024&micro-batch=4&",
            $rest
        )
    };
}

/// GPT-2 345M on Megatron-LM 992da75, fp16, A800 80 GB (liguodongiot/llm-action's logs).
macro_rules! gpt2_345m {
    ($rest:literal) => {
        concat!(
            "convention=megatron&layers=24&hidden=1024&heads=16&ffn=4096&mlp=gelu&tie-embeddings=1&seq-len=1024&attention=standard&gpu=a100-80gb&",
            $rest
        )
    };
}

/// torchtune's pure-bf16 training: bf16 weights, gradients and optimizer moments, no fp32 copy.
macro_rules! torchtune {
    ($rest:literal) => {
        concat!(
            "convention=megatron&precision=bf16&grad-dtype=fp16&exp-avg-dtype=bf16&loss=standard&attention=flash&",
            $rest
        )
    };
}

const MEGATRON_TESTS: &str = "https://github.com/NVIDIA/Megatron-LM/tree/main/tests/functional_tests/test_cases/gpt";
/// A case of Megatron-Core's MoE functional tests, by its directory.
macro_rules! moe_case {
    ($case:literal) => {
        concat!("https://github.com/NVIDIA/Megatron-LM/tree/main/tests/functional_tests/test_cases/moe/", $case)
    };
}
const LLM_ACTION: &str = "https://github.com/liguodongiot/llm-action/blob/main/train/megatron/gpt2/model_train.md";
const TORCHTITAN_DEC_2024: &str =
    "https://github.com/pytorch/torchtitan/blob/main/benchmarks/llama3_h100_202412_torchtitan.md";

/// A measured row of Megatron-Core's functional tests: `mem-max-allocated-bytes`
/// from TensorBoard, written by the last rank (the last pipeline stage).
const fn megatron_test(name: &'static str, query: &'static str, mib: f64, last: u64) -> Row {
    Row {
        name,
        framework: Framework::MegatronLm,
        model: "GPT 64M",
        query,
        published: Published::Measured(mib * MIB),
        metric: Metric::Allocated,
        rank: Rank::Stage(last),
        source: MEGATRON_TESTS,
        inferred: false,
        gap: None,
    }
}

/// A mixture-of-experts case of Megatron-Core's functional tests (`case`, at
/// d98e8a64dd): the maximum of its golden `mem-max-allocated-bytes` (MiB), the
/// dev container's on the row's GPU, on the last rank, whose stage is `last`.
/// The dispatcher is allgather (Megatron-LM's default) unless the case says
/// alltoall: the calculator counts alltoall's index buffers, which differ from
/// allgather's by under 1 % of the layer's term. The auxiliary loss's fp32
/// scores (4E a token, where a case sets `--moe-aux-loss-coeff`) are not counted.
const fn moe_test(name: &'static str, query: &'static str, mib: f64, last: u64, source: &'static str) -> Row {
    Row {
        name,
        framework: Framework::MegatronLm,
        model: "GPT MoE",
        query,
        published: Published::Measured(mib * MIB),
        metric: Metric::Allocated,
        rank: Rank::Stage(last),
        source,
        inferred: false,
        gap: None,
    }
}

/// A MoE case whose experts run one after another (no `--moe-grouped-gemm`).
const fn sequential(row: Row) -> Row {
    Row { gap: Some(Gap::SequentialExperts), ..row }
}

/// A stage of GPT-2 345M's logged `max allocated` (`[Rank r] memory (MB)`, MiB).
const fn gpt2(name: &'static str, query: &'static str, mib: f64, stage: u64) -> Row {
    Row {
        name,
        framework: Framework::MegatronLm,
        model: "GPT-2 345M",
        query,
        published: Published::Measured(mib * MIB),
        metric: Metric::Allocated,
        rank: Rank::Stage(stage),
        source: LLM_ACTION,
        inferred: false,
        gap: Some(Gap::Fp16Grads),
    }
}

/// The table. How the runs were found: Megatron-LM's functional tests (every
/// `golden_values_*.json` with `mem-max-allocated-bytes` whose model a dense
/// calculator can take, and the mixtures of experts of `test_cases/moe` whose
/// shape the keys say: the shared expert of another width than the routed ones,
/// MLA, FP8 and interleaved ones are left out),
/// third-party Megatron-LM logs that print every rank, torchtitan's
/// benchmarks, torchtune's README tables and a llama-recipes thread
/// (`docs/research/runs-*.md` has each setup, commit, counter and rank).
/// Thresholds (`tests/validation.rs`): 1 % against Megatron-LM's estimator
/// (the same formulas); against measured peaks, a median |error| of at most
/// 10 % over the rows whose setup is fully published, and no row beyond 25 %
/// without its [`Gap`].
pub static ROWS: &[Row] = &[
    estimator(
        "megatron-175b",
        "GPT 175B",
        "model=megatron-175b&convention=megatron&tp=8&pp=8&dp=16&grad-accum=64&sequence-parallel=1&recompute=selective&zero=1",
    ),
    estimator(
        "megatron-22b",
        "GPT 22B",
        "model=megatron-22b&convention=megatron&tp=8&micro-batch=4&dp=8&sequence-parallel=1&recompute=selective&zero=1",
    ),
    estimator(
        "megatron-530b",
        "GPT 530B",
        "model=megatron-530b&convention=megatron&tp=8&pp=35&dp=8&grad-accum=280&sequence-parallel=1&recompute=selective&zero=1",
    ),
    megatron_test(
        "gpt-tp1-dist-opt-unfused",
        gpt_small!("vocab=50304&dp=8&zero=1&attention=standard&gpu=h100-80gb"),
        4484.6,
        0,
    ),
    megatron_test("gpt-tp1-dist-opt-flash", gpt_small!("vocab=50304&dp=8&zero=1&gpu=a100-80gb"), 2586.1, 0),
    megatron_test(
        "gpt-tp1-full-recompute",
        gpt_small!("vocab=50304&dp=8&recompute=full&attention=standard&gpu=a100-80gb"),
        2416.7,
        0,
    ),
    megatron_test(
        "gpt-pp2",
        gpt_small!("vocab=50304&pp=2&dp=4&grad-accum=2&attention=standard&gpu=h100-80gb"),
        3464.9,
        1,
    ),
    megatron_test(
        "gpt-pp4",
        gpt_small!("vocab=50304&pp=4&dp=2&grad-accum=4&attention=standard&gpu=h100-80gb"),
        2619.3,
        3,
    ),
    // Interleaved: one layer per virtual stage, 3 virtual stages per rank.
    megatron_test(
        "gpt-pp4-vpp3",
        gpt_small!("vocab=50304&pp=4&vpp=3&dp=2&grad-accum=4&attention=standard&gpu=h100-80gb"),
        3968.4,
        3,
    ),
    megatron_test(
        "gpt-pp4-vpp3-dist-opt",
        gpt_small!("vocab=50304&pp=4&vpp=3&dp=2&zero=1&grad-accum=4&attention=standard&gpu=h100-80gb"),
        3759.9,
        3,
    ),
    megatron_test(
        "gpt-tp4",
        gpt_small!("vocab=50688&tp=4&dp=2&grad-accum=4&attention=standard&gpu=a100-80gb"),
        1553.3,
        0,
    ),
    megatron_test(
        "gpt-tp2-pp2",
        gpt_small!("vocab=50432&tp=2&pp=2&dp=2&grad-accum=4&attention=standard&gpu=a100-80gb"),
        1812.1,
        1,
    ),
    // SwiGLU's inner size is Megatron-LM's default for it, not written in the test: int(4h·2/3/64)·64.
    Row {
        inferred: true,
        ..megatron_test(
            "gpt-pp4-swiglu",
            gpt_small!("vocab=50304&mlp=swiglu&ffn=1344&pp=4&dp=2&grad-accum=4&attention=standard&gpu=a100-80gb"),
            2560.4,
            3,
        )
    },
    megatron_test(
        "gpt-tp4-dist-opt",
        gpt_small!("vocab=50688&tp=4&dp=2&zero=1&grad-accum=4&attention=standard&gpu=h100-80gb"),
        1471.9,
        0,
    ),
    megatron_test("gpt-pp2-cp4", gpt_small!("vocab=50304&pp=2&cp=4&grad-accum=8&gpu=a100-80gb"), 1192.6, 1),
    megatron_test(
        "gpt-tp2-cp2-sp",
        gpt_small!("vocab=50432&tp=2&cp=2&dp=2&grad-accum=4&sequence-parallel=1&gpu=a100-80gb"),
        1087.2,
        0,
    ),
    megatron_test(
        "gpt-tp2-pp2-cp2-sp",
        gpt_small!("vocab=50432&tp=2&pp=2&cp=2&grad-accum=8&sequence-parallel=1&gpu=h100-80gb"),
        891.9,
        1,
    ),
    // Mixtures of experts in Megatron-Core's functional tests (`test_cases/moe`): the
    // small GPT with every MLP a mixture (no biases), 8 GPUs, Transformer Engine's layers.
    sequential(moe_test("moe-t2-ep2-top1-dist-opt-unfused", gpt_small!("vocab=50432&tp=2&dp=4&grad-accum=2&experts=8&top-k=1&ep=2&zero=1&sequence-parallel=1&attention=standard&gpu=a100-80gb"), 2956.4, 0, moe_case!("gpt3_mcore_te_tp2_pp1_te_8experts2parallel_dist_optimizer"))),
    sequential(moe_test("moe-t2-ep2-top1-dist-opt", gpt_small!("vocab=50432&tp=2&dp=4&grad-accum=2&experts=8&top-k=1&ep=2&zero=1&sequence-parallel=1&gpu=h100-80gb"), 2059.2, 0, moe_case!("gpt3_mcore_te_tp2_pp1_resume_torch_dist_te_8experts2parallel_dist_optimizer"))),
    moe_test("moe-t2-ep2-top1", gpt_small!("vocab=50432&tp=2&dp=4&grad-accum=2&experts=8&top-k=1&ep=2&sequence-parallel=1&gpu=a100-80gb"), 2420.3, 0, moe_case!("gpt3_mcore_te_tp2_pp1_resume_torch_dist_te_8experts2parallel_groupedGEMM")),
    moe_test("moe-t2-ep2-top2", gpt_small!("vocab=50432&tp=2&dp=4&grad-accum=2&experts=8&top-k=2&ep=2&sequence-parallel=1&gpu=a100-80gb"), 2754.0, 0, moe_case!("gpt3_mcore_te_tp2_pp1_resume_torch_dist_te_8experts2parallel_top2router")),
    moe_test("moe-t2-ep2-top2-unfused", gpt_small!("vocab=50432&tp=2&dp=4&grad-accum=2&experts=8&top-k=2&ep=2&sequence-parallel=1&attention=standard&gpu=a100-80gb"), 3715.7, 0, moe_case!("gpt3_mcore_te_tp2_pp1_te_8experts2parallel_top2router")),
    moe_test("moe-t2-ep4-etp1-top2-unfused", gpt_small!("vocab=50432&tp=2&dp=4&grad-accum=2&experts=8&top-k=2&ep=4&etp=1&sequence-parallel=1&attention=standard&gpu=h100-80gb"), 3827.4, 0, moe_case!("gpt3_mcore_te_tp2_pp1_te_8experts_etp1_ep4")),
    moe_test("moe-ep8-top2-dist-opt", gpt_small!("vocab=50304&dp=8&grad-accum=1&experts=8&top-k=2&moe-ffn=1024&ep=8&zero=1&gpu=h100-80gb"), 3203.8, 0, moe_case!("gpt3_moe_mcore_te_ep8_resume_torch_dist_dist_optimizer")),
    moe_test("moe-ep8-top2-muon", gpt_small!("vocab=50304&dp=8&grad-accum=1&experts=8&top-k=2&moe-ffn=1024&ep=8&optimizer=muon&gpu=h100-80gb"), 3457.5, 0, moe_case!("gpt3_moe_mcore_te_ep8_resume_torch_dist_muon")),
    sequential(moe_test("moe-t2-p2-ep2-e4-unfused", gpt_small!("vocab=50432&tp=2&pp=2&dp=2&grad-accum=4&experts=4&top-k=1&ep=2&sequence-parallel=1&attention=standard&gpu=h100-80gb"), 2013.1, 1, moe_case!("gpt3_mcore_tp2_pp2_ep2_te_4experts2parallel"))),
    sequential(moe_test("moe-t4-p2-ep2-etp2-e4-unfused", gpt_small!("vocab=50688&tp=4&pp=2&dp=1&grad-accum=8&experts=4&top-k=1&ep=2&etp=2&sequence-parallel=1&attention=standard&gpu=h100-80gb"), 1169.3, 1, moe_case!("gpt3_mcore_tp2_pp2_ep2_etp2_te_4experts2parallel"))),
    sequential(moe_test("moe-t2-cp2-p2-ep2-e4", gpt_small!("vocab=50432&tp=2&pp=2&cp=2&dp=1&grad-accum=8&experts=4&top-k=1&ep=2&sequence-parallel=1&gpu=h100-80gb"), 1063.3, 1, moe_case!("gpt3_mcore_tp2_cp2_pp2_ep2_te_4experts2parallel"))),
    // FP8 with tensor and sequence parallelism and Transformer Engine's overlap of their
    // collectives (the weekly current-scaling cases, RMSNorm, flash attention, micro-batch 2).
    megatron_test(
        "gpt-fp8-tp2-pp2-overlap",
        "convention=megatron&layers=12&hidden=512&heads=8&ffn=2048&mlp=gelu&tie-embeddings=1&seq-len=1024&micro-batch=2&vocab=50432&tp=2&pp=2&dp=2&grad-accum=32&zero=1&sequence-parallel=1&fp8=tensorwise&fp8-param-gather=1&tp-comm-overlap=1&gpu=h100-80gb",
        842.8,
        1,
    ),
    megatron_test(
        "gpt-fp8-tp4-cp2-overlap",
        "convention=megatron&layers=12&hidden=512&heads=8&ffn=2048&mlp=gelu&tie-embeddings=1&seq-len=1024&micro-batch=2&vocab=50688&tp=4&cp=2&dp=1&grad-accum=64&zero=1&sequence-parallel=1&fp8=tensorwise&fp8-param-gather=1&tp-comm-overlap=1&gpu=h100-80gb",
        405.4,
        0,
    ),
    // The release test's data-parallel size is not in the repository: 16 (128 GPUs) is inferred.
    Row {
        name: "gpt-15b-tp8",
        framework: Framework::MegatronLm,
        model: "GPT 15B",
        query: "convention=megatron&layers=32&hidden=6144&heads=48&kv-heads=8&ffn=24576&mlp=gelu&vocab=256000&tie-embeddings=0&seq-len=4096&micro-batch=4&tp=8&dp=16&zero=1&sequence-parallel=1&gpu=h100-80gb",
        published: Published::Measured(26855.7 * MIB),
        metric: Metric::Allocated,
        rank: Rank::Stage(0),
        source: "https://github.com/NVIDIA/Megatron-LM/tree/main/tests/functional_tests/test_cases/gpt/gpt3_15b_8t_release",
        inferred: true,
        gap: None,
    },
    // A 7B-class GPT with GQA in Megatron-Core's functional tests: max allocated 53.22 GiB on H100.
    Row {
        name: "megatron-7b-tp4",
        framework: Framework::MegatronLm,
        model: "GPT 7B",
        query: "convention=megatron&layers=32&hidden=4096&heads=32&kv-heads=8&ffn=16384&mlp=gelu&vocab=131072&tie-embeddings=0&seq-len=8192&micro-batch=2&grad-accum=2&tp=4&dp=2&zero=1&gpu=h100-80gb",
        published: Published::Measured(53.22 * GIB),
        metric: Metric::Allocated,
        rank: Rank::Stage(0),
        source: "https://github.com/NVIDIA/Megatron-LM/tree/main/tests/functional_tests/test_cases/gpt/gpt3_7b_tp4_pp1_memory_speed",
        inferred: false,
        gap: None,
    },
    gpt2("gpt2-dp4", gpt2_345m!("vocab=50304&micro-batch=1&dp=4&grad-accum=2"), 8696.85, 0),
    gpt2("gpt2-tp2-pp2-first", gpt2_345m!("vocab=50432&tp=2&pp=2&micro-batch=4&grad-accum=4&sequence-parallel=1"), 7253.23, 0),
    gpt2("gpt2-tp2-pp2-last", gpt2_345m!("vocab=50432&tp=2&pp=2&micro-batch=4&grad-accum=4&sequence-parallel=1"), 5373.50, 1),
    gpt2("gpt2-tp4", gpt2_345m!("vocab=50688&tp=4&micro-batch=2&grad-accum=4&sequence-parallel=1"), 3059.67, 0),
    gpt2("gpt2-pp4-0", gpt2_345m!("vocab=50304&pp=4&micro-batch=2&grad-accum=4"), 7643.34, 0),
    gpt2("gpt2-pp4-1", gpt2_345m!("vocab=50304&pp=4&micro-batch=2&grad-accum=4"), 5477.08, 1),
    gpt2("gpt2-pp4-2", gpt2_345m!("vocab=50304&pp=4&micro-batch=2&grad-accum=4"), 4104.90, 2),
    gpt2("gpt2-pp4-3", gpt2_345m!("vocab=50304&pp=4&micro-batch=2&grad-accum=4"), 4390.35, 3),
    // torchtitan, Llama 3.1 8B, FSDP on 8 H100s, s = 8192, local batch 2, selective checkpointing: 82.4 GiB reserved, the maximum over ranks.
    Row {
        name: "torchtitan-8b-fsdp8",
        query: "model=llama-3-8b&convention=megatron&loss=standard&seq-len=8192&micro-batch=2&dp=8&zero=3&recompute=selective&gpu=h100-80gb",
        published: Published::Measured(82.4 * GIB),
        ..ROW_TORCHTITAN
    },
    // The same on 128 H100s: 67.0 GiB reserved.
    Row {
        name: "torchtitan-8b-fsdp128",
        query: "model=llama-3-8b&convention=megatron&loss=standard&seq-len=8192&micro-batch=2&dp=128&zero=3&recompute=selective&gpu=h100-80gb",
        published: Published::Measured(67.0 * GIB),
        ..ROW_TORCHTITAN
    },
    // torchtune's optimisation table (README, 2024-11-18): Llama 3.2 3B on one A100, batch 2 packed to 4,096, no compile, no checkpointing: 60.0 GiB active.
    Row {
        name: "torchtune-3b-packed",
        framework: Framework::Torchtune,
        model: "Llama 3.2 3B",
        query: torchtune!("layers=28&hidden=3072&heads=24&kv-heads=8&ffn=8192&mlp=swiglu&vocab=128256&tie-embeddings=1&seq-len=4096&micro-batch=2&gpu=a100-80gb"),
        published: Published::Measured(60.0 * GIB),
        metric: Metric::Active,
        rank: Rank::Peak,
        source: "https://github.com/pytorch/torchtune/blob/1814feb17a9038e1a8053ce93111bd26774a8db6/README.md",
        inferred: false,
        gap: None,
    },
    // Llama 2 7B on 4 RTX 4090s, FSDP, AdamW (bf16 moments), checkpointing: 22.9 GB, rank 0.
    torchtune_alpaca(
        "torchtune-7b-fsdp4",
        torchtune!("model=llama-2-7b&seq-len=512&micro-batch=2&dp=4&zero=3&recompute=full&gpu=rtx-4090"),
        22.9e9,
        Metric::Allocated,
        "https://github.com/pytorch/torchtune/blob/fef3ed10dc9efe9e35b118e4397e84c680c0a737/README.md",
    ),
    // One GPU, stateless SGD, checkpointing: 27.15 GB allocated.
    torchtune_alpaca(
        "torchtune-7b-sgd",
        torchtune!("model=llama-2-7b&optimizer=sgd&seq-len=512&micro-batch=2&recompute=full&gpu=a100-80gb"),
        27.15e9,
        Metric::Allocated,
        TORCHTUNE_MARCH_2024,
    ),
    // The same with FSDP on 4 GPUs: 12.01 GB.
    torchtune_alpaca(
        "torchtune-7b-sgd-fsdp4",
        torchtune!("model=llama-2-7b&optimizer=sgd&seq-len=512&micro-batch=2&dp=4&zero=3&recompute=full&gpu=a100-40gb"),
        12.01e9,
        Metric::Allocated,
        TORCHTUNE_MARCH_2024,
    ),
    // fp32 weights and gradients, SGD, FSDP on 2 A100 80GB, checkpointing: 62 GB reserved.
    torchtune_alpaca(
        "torchtune-7b-fp32-fsdp2",
        "convention=megatron&model=llama-2-7b&precision=fp32&optimizer=sgd&loss=standard&attention=flash&seq-len=512&micro-batch=2&dp=2&zero=3&recompute=full&gpu=a100-80gb",
        62e9,
        Metric::Reserved,
        "https://github.com/pytorch/torchtune/blob/e802c057d17773f65cf80721807086724e4fa7db/README.md",
    ),
    // llama-recipes, Llama 2 7B with FSDP on 4 A100 40GB, activation checkpointing: 29 GiB reserved (batch and length inferred).
    h200("h200-1b", "Llama 3.2 1B", llama_1b!("seq-len=4096&micro-batch=2"), 36_943_113_728.0),
    h200("h200-1b-full", "Llama 3.2 1B", llama_1b!("seq-len=4096&micro-batch=2&recompute=full"), 23_236_144_640.0),
    h200(
        "h200-1b-mixed",
        "Llama 3.2 1B",
        // fp32 weights, gradients and moments under autocast, which keeps a bf16 copy of each
        // weight through the step: 4 + 4 + 8 + 2 bytes, as mixed precision's 2 + 4 (fp32 gradients) + 12.
        "convention=megatron&precision=mixed&grad-dtype=fp32&loss=standard&attention=flash&gpu=h200&layers=16&hidden=2048&heads=32&kv-heads=8&ffn=8192&mlp=swiglu&vocab=128256&tie-embeddings=1&seq-len=4096&micro-batch=2",
        52_020_079_616.0,
    ),
    h200(
        "h200-1b-s8192-full",
        "Llama 3.2 1B",
        llama_1b!("seq-len=8192&micro-batch=4&recompute=full"),
        63_076_068_864.0,
    ),
    h200("h200-3b", "Llama 3.2 3B", llama_3b!("seq-len=4096&micro-batch=2"), 68_670_019_072.0),
    h200("h200-3b-s8192-full", "Llama 3.2 3B", llama_3b!("seq-len=8192&micro-batch=1&recompute=full"), 39_992_813_056.0),
    h200("h200-8b", "Llama 3 8B", h200_bf16!("model=llama-3-8b&seq-len=4096&micro-batch=1"), 97_074_286_592.0),
    h200(
        "h200-8b-s8192-full",
        "Llama 3 8B",
        h200_bf16!("model=llama-3-8b&seq-len=8192&micro-batch=1&recompute=full"),
        79_337_705_472.0,
    ),
    h200(
        "h200-8b-s2048-b4-full",
        "Llama 3 8B",
        h200_bf16!("model=llama-3-8b&seq-len=2048&micro-batch=4&recompute=full"),
        79_334_510_592.0,
    ),
    // Mixtures of experts cut to a few layers (their parameter counts are transformers' own to the unit).
    h200(
        "h200-mixtral-4l",
        "Mixtral 8x7B, L\u{a0}=\u{a0}4",
        h200_bf16!(
            "layers=4&hidden=4096&heads=32&kv-heads=8&ffn=14336&mlp=swiglu&vocab=32000&tie-embeddings=0&",
            "experts=8&top-k=2&moe-ffn=14336&seq-len=4096&micro-batch=1"
        ),
        56_022_609_920.0,
    ),
    h200(
        "h200-mixtral-4l-full",
        "Mixtral 8x7B, L\u{a0}=\u{a0}4",
        h200_bf16!(
            "layers=4&hidden=4096&heads=32&kv-heads=8&ffn=14336&mlp=swiglu&vocab=32000&tie-embeddings=0&",
            "experts=8&top-k=2&moe-ffn=14336&seq-len=4096&micro-batch=1&recompute=full"
        ),
        51_611_289_600.0,
    ),
    h200(
        "h200-dsv2lite-8l",
        "DeepSeek-V2-Lite, L\u{a0}=\u{a0}8",
        h200_bf16!(
            "layers=8&hidden=2048&heads=16&ffn=10944&mlp=swiglu&vocab=102400&tie-embeddings=0&experts=64&shared-experts=2&",
            "top-k=6&moe-ffn=1408&dense-layers=1&kv-lora-rank=512&q-lora-rank=0&qk-head-dim=128&qk-rope-head-dim=64&",
            "v-head-dim=128&seq-len=4096&micro-batch=1"
        ),
        48_702_269_440.0,
    ),
    h200(
        "h200-dsv2lite-8l-full",
        "DeepSeek-V2-Lite, L\u{a0}=\u{a0}8",
        h200_bf16!(
            "layers=8&hidden=2048&heads=16&ffn=10944&mlp=swiglu&vocab=102400&tie-embeddings=0&experts=64&shared-experts=2&",
            "top-k=6&moe-ffn=1408&dense-layers=1&kv-lora-rank=512&q-lora-rank=0&qk-head-dim=128&qk-rope-head-dim=64&",
            "v-head-dim=128&seq-len=4096&micro-batch=1&recompute=full"
        ),
        42_084_522_496.0,
    ),
    Row {
        name: "llama-recipes-7b",
        framework: Framework::LlamaRecipes,
        model: "Llama 2 7B",
        query: "model=llama-2-7b&seq-len=2048&micro-batch=4&dp=4&zero=3&recompute=full&gpu=a100-40gb",
        published: Published::Measured(29.0 * GIB),
        metric: Metric::Reserved,
        rank: Rank::Peak,
        source: "https://github.com/meta-llama/llama-cookbook/issues/100",
        inferred: true,
        gap: None,
    },
];

const TORCHTUNE_MARCH_2024: &str =
    "https://github.com/pytorch/torchtune/blob/a95c6b931dd12a014780ded1581ea504aa4e0129/README.md";

/// A torchtune README row of Llama 2 7B on Alpaca, whose batches are padded to
/// their longest sample: the length is the data's, not published (512 here).
const fn torchtune_alpaca(
    name: &'static str,
    query: &'static str,
    bytes: f64,
    metric: Metric,
    source: &'static str,
) -> Row {
    Row {
        name,
        framework: Framework::Torchtune,
        model: "Llama 2 7B",
        query,
        published: Published::Measured(bytes),
        metric,
        rank: Rank::Peak,
        source,
        inferred: true,
        gap: Some(Gap::DataLength),
    }
}

/// torchtitan's December 2024 rows: the maximum over ranks of max reserved.
const ROW_TORCHTITAN: Row = Row {
    name: "",
    framework: Framework::Torchtitan,
    model: "Llama 3.1 8B",
    query: "",
    published: Published::Measured(0.0),
    metric: Metric::Reserved,
    rank: Rank::Peak,
    source: TORCHTITAN_DEC_2024,
    inferred: false,
    gap: Some(Gap::OpLevelCheckpointing),
};

/// A row against Megatron-LM's estimator (1 %: the same formulas; the
/// parameter counts differ in the norms and the rounding of P).
const fn estimator(name: &'static str, model: &'static str, query: &'static str) -> Row {
    Row {
        name,
        framework: Framework::MegatronLm,
        model,
        query,
        published: Published::Estimator,
        metric: Metric::Estimator,
        rank: Rank::Stage(0),
        source: "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/training/theoretical_memory_usage.py",
        inferred: false,
        gap: None,
    }
}

/// Megatron-LM's estimator for sequence parallelism with selective
/// recomputation (its `compute_weight_and_optimizer_memory` and
/// `compute_activation_memory`, 2024), reimplemented from Korthikanti et al.
/// 2022, Table 2, and Megatron-LM's distributed-optimizer docs; not copied:
///
/// - parameters: per layer 4h² + 2·h·f·γ (γ = 3/2 for SwiGLU) + 4h for two
///   LayerNorms, 2h for the final one, V·h embeddings (twice untied);
/// - the most loaded shard: (N_layers/p + V·h)/t, plus V·h/t when untied and
///   p = 1; bytes 6 + 12/d with the distributed optimizer, else 18;
/// - activations: s·b·h·L·(18 + 4f/h), plus 8·s·b·p for the token ids and
///   s·b·h·p for the embedding's dropout mask, × min(1, m/p) when p > 1; with
///   p = 1 the output layer and loss 4·s·b·h·(1 + V/h); all ÷ t.
///
/// Multi-head attention only (the estimator does not model GQA). Returns
/// (weights and optimizer, activations) in bytes.
pub fn megatron_estimate(c: &Config) -> (f64, f64) {
    let a = c.arch;
    let (h, f, v, l) = (a.hidden as f64, a.ffn as f64, a.vocab as f64, a.layers as f64);
    let (t, p, d) = (c.layout.tp as f64, c.layout.pp as f64, c.layout.shard_group() as f64);
    let gamma = if a.mlp == Mlp::Swiglu { 1.5 } else { 1.0 };
    let per_layer = 4.0 * h * h + 2.0 * h * f * gamma + 4.0 * h;
    let transformer = l * per_layer + 2.0 * h;
    let mut shard = (transformer / p + v * h) / t;
    if !a.tie_embeddings && c.layout.pp == 1 {
        shard += v * h / t;
    }
    let distributed = c.zero.shards_optimizer();
    let bytes = if distributed { 6.0 + 12.0 / d } else { 18.0 };
    let (s, b, m) = (c.seq_len as f64, c.micro_batch as f64, c.grad_accum as f64);
    let mut act = s * b * h * l * (18.0 + 4.0 * f / h) + 8.0 * s * b * p + s * b * h * p;
    if c.layout.pp > 1 {
        act *= (m / p).min(1.0);
    } else {
        act += 4.0 * s * b * h * (1.0 + v / h);
    }
    (shard * bytes, act / t)
}

/// A row evaluated: the published figure, the project's for the row's rank, and the error.
#[derive(Clone, Copy, Debug)]
pub struct Checked {
    pub row: &'static Row,
    pub published: f64,
    pub predicted: f64,
    /// The stage predicted (the heaviest for [`Rank::Peak`]), the layout and its virtual stages.
    pub stage: u64,
    pub layout: crate::config::Layout,
    pub vpp: u64,
}

/// The largest |error| accepted for a row against Megatron-LM's estimator.
pub const ESTIMATOR_LIMIT: f64 = 0.01;
/// The largest median |error| over the measured rows whose setup is fully published.
pub const MEDIAN_LIMIT: f64 = 0.10;
/// The largest |error| of a measured row that states no [`Gap`].
pub const ROW_LIMIT: f64 = 0.25;

impl Checked {
    /// predicted / published − 1.
    pub fn error(&self) -> f64 {
        self.predicted / self.published - 1.0
    }
    /// Within what this row is held to: 1 % for the estimator, 25 % for a
    /// measured row without a stated gap (the median is the table's).
    pub fn within(&self) -> bool {
        let e = self.error().abs();
        match self.row.published {
            Published::Estimator => e <= ESTIMATOR_LIMIT,
            Published::Measured(_) => e <= ROW_LIMIT || self.row.gap.is_some(),
        }
    }
    /// Whether the row counts for the median: measured, with its setup fully published.
    pub fn counts(&self) -> bool {
        matches!(self.row.published, Published::Measured(_)) && !self.row.inferred
    }
}

/// Evaluates a row (`None` if its query no longer loads, which a test forbids).
pub fn check(row: &'static Row) -> Option<Checked> {
    let config = crate::link::config(row.query)?;
    let report = evaluate(&config);
    let published = match row.published {
        Published::Measured(bytes) => bytes,
        Published::Estimator => {
            let (states, act) = megatron_estimate(&config);
            states + act
        }
    };
    let (stage, memory) = match row.rank {
        Rank::Peak => (report.stage.index, report.per_gpu),
        Rank::Stage(i) if i < config.layout.pp => {
            (i, crate::memory::stage_memory(&config, &crate::memory::stage(&config, i)))
        }
        Rank::Stage(_) => return None,
    };
    let predicted = row.metric.predicted(&config, &memory).get();
    Some(Checked { row, published, predicted, stage, layout: config.layout, vpp: config.layout.vpp })
}

/// Every row, evaluated.
pub fn table() -> Vec<Checked> {
    ROWS.iter().filter_map(check).collect()
}

/// The median |error| of the rows that count ([`Checked::counts`]).
pub fn median_error(rows: &[Checked]) -> f64 {
    median(rows.iter().filter(|r| r.counts()).map(|r| r.error().abs()))
}

/// The median of some values (0 for none).
pub fn median(values: impl Iterator<Item = f64>) -> f64 {
    // Sorted by insertion: a few dozen rows, and the standard library's sort of f64 costs the page 1 KiB.
    let mut e: Vec<f64> = Vec::new();
    for x in values {
        let at = e.iter().position(|&y| y > x).unwrap_or(e.len());
        e.insert(at, x);
    }
    match e.len() {
        0 => 0.0,
        n if n % 2 == 1 => e[n / 2],
        n => (e[n / 2 - 1] + e[n / 2]) / 2.0,
    }
}
