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
use crate::memory::Part;
use crate::report::{evaluate, Report};
use crate::units::Bytes;

/// What a published figure counts, and so which part of the bar predicts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    /// Megatron-LM's estimator: the model states and activations, no reserve.
    Estimator,
    /// PyTorch's peak allocated memory (`max_memory_allocated`): the formulas' total, no reserve.
    Allocated,
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
            Metric::Reserved => "reserved",
            Metric::NvidiaSmi => "nvidia-smi",
        }
    }

    /// The calculator's figure for this metric: the bar without its reserve
    /// segment (allocated), with fragmentation but not the fixed reserve
    /// (reserved), or the whole bar (nvidia-smi).
    pub fn predicted(self, r: &Report) -> Bytes {
        let m = &r.per_gpu;
        match self {
            Metric::Estimator | Metric::Allocated => m.total() - m[Part::Reserve],
            Metric::Reserved => m.total() - Bytes(r.config.reserve_bytes),
            Metric::NvidiaSmi => m.total(),
        }
    }
}

/// Where the published figure comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Published {
    /// Bytes, as measured.
    Measured(f64),
    /// Megatron-LM's estimator on the row's configuration.
    Estimator,
}

/// One row of the table.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// A stable name (the page's translation key is `validation-<name>`).
    pub name: &'static str,
    /// The run, as a link's query (the calculator's keys).
    pub query: &'static str,
    pub published: Published,
    pub metric: Metric,
    /// Where the figure and its setup are published.
    pub source: &'static str,
    /// The largest |error| this project accepts for the row, as a fraction.
    pub threshold: f64,
    /// The setup is partly inferred (the source does not state every input).
    pub inferred: bool,
}

const GIB: f64 = 1_073_741_824.0;

/// The table. Thresholds: 1 % against Megatron-LM's estimator (the same
/// formulas; the parameter counts differ in the norms and the rounding of P);
/// 10 % against measured peaks (the formulas leave out temporary buffers,
/// communication buckets and the allocator's habits).
pub static ROWS: &[Row] = &[
    estimator(
        "megatron-175b",
        "model=megatron-175b&convention=megatron&tp=8&pp=8&dp=16&grad-accum=64&sequence-parallel=1&recompute=selective&zero=1",
    ),
    estimator(
        "megatron-22b",
        "model=megatron-22b&convention=megatron&tp=8&micro-batch=4&dp=8&sequence-parallel=1&recompute=selective&zero=1",
    ),
    estimator(
        "megatron-530b",
        "model=megatron-530b&convention=megatron&tp=8&pp=35&dp=8&grad-accum=280&sequence-parallel=1&recompute=selective&zero=1",
    ),
    // A 7B-class GPT with GQA in Megatron-Core's functional tests: max allocated 53.22 GiB on H100.
    Row {
        name: "megatron-7b-tp4",
        query: "convention=megatron&layers=32&hidden=4096&heads=32&kv-heads=8&ffn=16384&mlp=gelu&vocab=131072&tie-embeddings=0&seq-len=8192&micro-batch=2&grad-accum=2&tp=4&dp=2&zero=1&gpu=h100-80gb",
        published: Published::Measured(53.22 * GIB),
        metric: Metric::Allocated,
        source: "https://github.com/NVIDIA/Megatron-LM/tree/main/tests/functional_tests/test_cases/gpt/gpt3_7b_tp4_pp1_memory_speed",
        threshold: 0.10,
        inferred: false,
    },
    // torchtitan, Llama 3.1 8B, FSDP on 8 H100s, s = 8192, local batch 2, selective checkpointing: 82.4 GiB reserved.
    Row {
        name: "torchtitan-8b-fsdp8",
        query: "model=llama-3-8b&convention=megatron&seq-len=8192&micro-batch=2&dp=8&zero=3&recompute=selective&gpu=h100-80gb",
        published: Published::Measured(82.4 * GIB),
        metric: Metric::Reserved,
        source: "https://github.com/pytorch/torchtitan/blob/main/benchmarks/llama3_h100_202412_torchtitan.md",
        threshold: 0.10,
        inferred: false,
    },
    // The same on 128 H100s: 67.0 GiB reserved.
    Row {
        name: "torchtitan-8b-fsdp128",
        query: "model=llama-3-8b&convention=megatron&seq-len=8192&micro-batch=2&dp=128&zero=3&recompute=selective&gpu=h100-80gb",
        published: Published::Measured(67.0 * GIB),
        metric: Metric::Reserved,
        source: "https://github.com/pytorch/torchtitan/blob/main/benchmarks/llama3_h100_202412_torchtitan.md",
        threshold: 0.10,
        inferred: false,
    },
    // llama-recipes, Llama 2 7B with FSDP on 4 A100 40GB, activation checkpointing: 29 GiB reserved (batch and length inferred).
    Row {
        name: "llama-recipes-7b",
        query: "model=llama-2-7b&seq-len=2048&micro-batch=4&dp=4&zero=3&recompute=full&gpu=a100-40gb",
        published: Published::Measured(29.0 * GIB),
        metric: Metric::Reserved,
        source: "https://github.com/meta-llama/llama-cookbook/issues/100",
        threshold: 0.10,
        inferred: true,
    },
];

/// A row against Megatron-LM's estimator (1 %: the same formulas; the
/// parameter counts differ in the norms and the rounding of P).
const fn estimator(name: &'static str, query: &'static str) -> Row {
    Row {
        name,
        query,
        published: Published::Estimator,
        metric: Metric::Estimator,
        source: "https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/training/theoretical_memory_usage.py",
        threshold: 0.01,
        inferred: false,
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

/// A row evaluated: the published figure, the project's, and the error.
#[derive(Clone, Debug)]
pub struct Checked {
    pub row: &'static Row,
    pub published: f64,
    pub predicted: f64,
}

impl Checked {
    /// predicted / published − 1.
    pub fn error(&self) -> f64 {
        self.predicted / self.published - 1.0
    }
    pub fn within(&self) -> bool {
        self.error().abs() <= self.row.threshold
    }
}

/// Evaluates a row (`None` if its query no longer loads, which a test forbids).
pub fn check(row: &'static Row) -> Option<Checked> {
    let (state, errors) = crate::link::load(row.query);
    if !errors.is_empty() {
        return None;
    }
    let config = state.settings.resolve().ok()?;
    let report = evaluate(&config);
    let published = match row.published {
        Published::Measured(bytes) => bytes,
        Published::Estimator => {
            let (states, act) = megatron_estimate(&config);
            states + act
        }
    };
    let predicted = row.metric.predicted(&report).get();
    Some(Checked { row, published, predicted })
}

/// Every row, evaluated.
pub fn table() -> Vec<Checked> {
    ROWS.iter().filter_map(check).collect()
}
