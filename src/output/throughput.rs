//! How close is the step time to reality: measured training throughput
//! (tokens per second per GPU) beside what the step-time model
//! ([`crate::step::step_time`]) gives for the same run.
//!
//! The achieved rate τ is an input, and it belongs to the software as much as
//! to the GPU: on H100s, NVIDIA's tuned Megatron-Core runs reach about 1.6×
//! the rate torchtitan's eager FSDP run reaches. So each run takes τ from an
//! *anchor*: another run of the same software on the same GPU, its measured
//! tokens per second times the calculator's hardware FLOPs per token
//! ([`hardware_flops_per_token`]). What the table then tests is everything the
//! model adds to the compute: attention's share at other sequence lengths,
//! recomputation, the bubble, and the tensor-, pipeline-, data- and
//! context-parallel communication of larger layouts. An anchor is shown (its
//! error is what the model adds to its own step) and is not counted.
//! `docs/research/throughput.md` has each source's setup.

use crate::step::{hardware_flops_per_token, step_time, tokens_per_second_per_gpu};
use crate::validation::{h200_bf16, llama_1b, llama_3b};

/// Whose software ran the row (named as its source names it, the same in every language).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stack {
    /// NVIDIA's DGX Cloud benchmarking recipes: NeMo 24.09 on Megatron-Core, BF16.
    Nemo,
    /// torchtitan (PyTorch FSDP2), eager, BF16.
    Torchtitan,
    /// torchtitan with `torch.compile` of each block, BF16.
    TorchtitanCompiled,
    /// transformers' Llama on one H200, measured by this project (`tests/gpu/measure.py`).
    Transformers,
}

impl Stack {
    pub fn name(self) -> &'static str {
        match self {
            Stack::Nemo => "NeMo (Megatron-Core)",
            Stack::Torchtitan => "torchtitan",
            Stack::TorchtitanCompiled => "torchtitan + torch.compile",
            Stack::Transformers => "transformers",
        }
    }
}

/// One measured run.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// A stable name.
    pub name: &'static str,
    pub stack: Stack,
    /// The model as its source names it.
    pub model: &'static str,
    /// The run, as a link's query (its GPU and layout; τ comes from the anchor).
    pub query: &'static str,
    /// Measured tokens per second per GPU.
    pub measured: f64,
    /// The row whose rate this one runs at; `None`: this row is its stack's anchor.
    pub anchor: Option<&'static str>,
    /// Where the figure and its setup are published.
    pub source: &'static str,
    /// Part of the setup is inferred (shown, not counted).
    pub inferred: bool,
}

/// The largest |error| a counted row may have.
pub const ROW_LIMIT: f64 = 0.25;

const DGXC_8B: &str = "https://github.com/NVIDIA/dgxc-benchmarking/blob/v24.11.1/llama3.1/README_8b.md";
const DGXC_70B: &str = "https://github.com/NVIDIA/dgxc-benchmarking/blob/v24.11.1/llama3.1/README_70b.md";
const DGXC_405B: &str = "https://github.com/NVIDIA/dgxc-benchmarking/blob/v24.11.1/llama3.1/README_405b.md";
const TORCHTITAN: &str = "https://github.com/pytorch/torchtitan/blob/main/benchmarks/llama3_h100_202412_torchtitan.md";
const H200: &str = crate::validation::H200_RUNS;

/// NeMo's recipe: the distributed optimizer, sequence parallelism where t > 1, no recomputation, s 8192, micro-batch 1.
macro_rules! nemo {
    ($rest:literal) => {
        concat!("convention=megatron&gpu=h100-80gb&seq-len=8192&micro-batch=1&zero=1&", $rest)
    };
}

const fn row(
    name: &'static str,
    stack: Stack,
    model: &'static str,
    query: &'static str,
    measured: f64,
    anchor: Option<&'static str>,
    source: &'static str,
) -> Row {
    Row { name, stack, model, query, measured, anchor, source, inferred: false }
}

/// The table. How the runs were chosen: every BF16 row of a published table
/// whose layout is stated in full (FP8 runs wait for FP8 in the step-time
/// model), and this project's H200 runs. NeMo's aggregate tokens per second
/// are divided by the GPUs here.
pub static ROWS: &[Row] = &[
    row(
        "nemo-8b-8",
        Stack::Nemo,
        "Llama 3.1 8B",
        nemo!("model=llama-3-8b&cp=2&dp=4&grad-accum=32"),
        10_153.0,
        None,
        DGXC_8B,
    ),
    row(
        "nemo-8b-128",
        Stack::Nemo,
        "Llama 3.1 8B",
        nemo!("model=llama-3-8b&cp=2&dp=64&grad-accum=32"),
        10_006.0,
        Some("nemo-8b-8"),
        DGXC_8B,
    ),
    row(
        "nemo-70b-64",
        Stack::Nemo,
        "Llama 3.1 70B",
        nemo!("model=llama-3-70b&tp=4&pp=4&vpp=5&cp=2&dp=2&grad-accum=64&sequence-parallel=1"),
        1_113.0,
        Some("nemo-8b-8"),
        DGXC_70B,
    ),
    row(
        "nemo-70b-2048",
        Stack::Nemo,
        "Llama 3.1 70B",
        nemo!("model=llama-3-70b&tp=4&pp=4&vpp=5&cp=2&dp=64&grad-accum=64&sequence-parallel=1"),
        1_098.0,
        Some("nemo-8b-8"),
        DGXC_70B,
    ),
    row(
        "nemo-405b-576",
        Stack::Nemo,
        "Llama 3.1 405B",
        nemo!("model=llama-3-405b&tp=8&pp=9&vpp=7&cp=2&dp=4&grad-accum=63&sequence-parallel=1"),
        208.0,
        Some("nemo-8b-8"),
        DGXC_405B,
    ),
    row(
        "nemo-405b-2304",
        Stack::Nemo,
        "Llama 3.1 405B",
        nemo!("model=llama-3-405b&tp=8&pp=9&vpp=7&cp=2&dp=16&grad-accum=63&sequence-parallel=1"),
        203.0,
        Some("nemo-8b-8"),
        DGXC_405B,
    ),
    row(
        "torchtitan-8b-8",
        Stack::Torchtitan,
        "Llama 3.1 8B",
        "model=llama-3-8b&convention=megatron&gpu=h100-80gb&seq-len=8192&micro-batch=2&dp=8&zero=3&recompute=selective",
        5_762.0,
        None,
        TORCHTITAN,
    ),
    row(
        "torchtitan-8b-128",
        Stack::Torchtitan,
        "Llama 3.1 8B",
        "model=llama-3-8b&convention=megatron&gpu=h100-80gb&seq-len=8192&micro-batch=2&dp=128&zero=3&recompute=selective",
        5_605.0,
        Some("torchtitan-8b-8"),
        TORCHTITAN,
    ),
    row(
        "torchtitan-compiled-8b-8",
        Stack::TorchtitanCompiled,
        "Llama 3.1 8B",
        "model=llama-3-8b&convention=megatron&gpu=h100-80gb&seq-len=8192&micro-batch=2&dp=8&zero=3&recompute=selective",
        6_667.0,
        None,
        TORCHTITAN,
    ),
    row(
        "torchtitan-compiled-8b-128",
        Stack::TorchtitanCompiled,
        "Llama 3.1 8B",
        "model=llama-3-8b&convention=megatron&gpu=h100-80gb&seq-len=8192&micro-batch=2&dp=128&zero=3&recompute=selective",
        6_514.0,
        Some("torchtitan-compiled-8b-8"),
        TORCHTITAN,
    ),
    row("h200-8b", Stack::Transformers, "Llama 3 8B", h200_bf16!("model=llama-3-8b&seq-len=4096&micro-batch=1"), 9_173.9, None, H200),
    row(
        "h200-8b-s8192-full",
        Stack::Transformers,
        "Llama 3 8B",
        h200_bf16!("model=llama-3-8b&seq-len=8192&micro-batch=1&recompute=full"),
        7_490.8,
        Some("h200-8b"),
        H200,
    ),
    row(
        "h200-8b-s2048-b4-full",
        Stack::Transformers,
        "Llama 3 8B",
        h200_bf16!("model=llama-3-8b&seq-len=2048&micro-batch=4&recompute=full"),
        8_311.0,
        Some("h200-8b"),
        H200,
    ),
    row(
        "h200-3b",
        Stack::Transformers,
        "Llama 3.2 3B",
        llama_3b!("seq-len=4096&micro-batch=2"),
        20_219.9,
        Some("h200-8b"),
        H200,
    ),
    row(
        "h200-3b-s8192-full",
        Stack::Transformers,
        "Llama 3.2 3B",
        llama_3b!("seq-len=8192&micro-batch=1&recompute=full"),
        14_899.2,
        Some("h200-8b"),
        H200,
    ),
    row(
        "h200-1b",
        Stack::Transformers,
        "Llama 3.2 1B",
        llama_1b!("seq-len=4096&micro-batch=2"),
        47_381.8,
        Some("h200-8b"),
        H200,
    ),
    row(
        "h200-1b-full",
        Stack::Transformers,
        "Llama 3.2 1B",
        llama_1b!("seq-len=4096&micro-batch=2&recompute=full"),
        38_757.3,
        Some("h200-8b"),
        H200,
    ),
    row(
        "h200-1b-s8192-full",
        Stack::Transformers,
        "Llama 3.2 1B",
        llama_1b!("seq-len=8192&micro-batch=4&recompute=full"),
        37_199.2,
        Some("h200-8b"),
        H200,
    ),
];

/// A row evaluated: the rate it runs at, and the model's tokens per second per GPU.
#[derive(Clone, Copy, Debug)]
pub struct Checked {
    pub row: &'static Row,
    /// τ, FLOP/s per GPU: the anchor's measured tokens/s × its hardware FLOPs per token.
    pub tau: f64,
    /// The τ as a share of the GPU's dense peak.
    pub peak_share: f64,
    pub predicted: f64,
    /// The layout as the row's query resolved it.
    pub layout: crate::config::Layout,
    pub vpp: u64,
}

impl Checked {
    pub fn error(&self) -> f64 {
        self.predicted / self.row.measured - 1.0
    }
    /// Whether the row counts for the threshold and the median: not an anchor, its setup fully published.
    pub fn counts(&self) -> bool {
        self.row.anchor.is_some() && !self.row.inferred
    }
    pub fn within(&self) -> bool {
        !self.counts() || self.error().abs() <= ROW_LIMIT
    }
}

/// Evaluates a row (`None` if its query or its anchor no longer loads, which a test forbids).
pub fn check(row: &'static Row) -> Option<Checked> {
    let anchor = match row.anchor {
        None => row,
        Some(name) => ROWS.iter().find(|r| r.name == name && r.anchor.is_none())?,
    };
    let tau = anchor.measured * hardware_flops_per_token(&crate::link::config(anchor.query)?);
    let mut c = crate::link::config(row.query)?;
    c.system.flops_per_gpu = tau;
    let predicted = tokens_per_second_per_gpu(&c, &step_time(&c));
    Some(Checked {
        row,
        tau,
        peak_share: tau / (c.system.gpu.peak_tflops * 1e12),
        predicted,
        layout: c.layout,
        vpp: c.layout.vpp,
    })
}

/// Every row, evaluated.
pub fn table() -> Vec<Checked> {
    ROWS.iter().filter_map(check).collect()
}

/// The median |error| of the rows that count.
pub fn median_error(rows: &[Checked]) -> f64 {
    crate::validation::median(rows.iter().filter(|r| r.counts()).map(|r| r.error().abs()))
}

/// A whole published training run, priced at the GPU's default rate (no τ
/// taken from any row): its GPU-hours against the published figure.
#[derive(Clone, Copy, Debug)]
pub struct WholeRun {
    pub name: &'static str,
    /// The model as its source names it.
    pub model: &'static str,
    /// The run as a link's query: its shape, tokens, GPUs and layout.
    pub query: &'static str,
    /// Published GPU-hours.
    pub gpu_hours: f64,
    pub source: &'static str,
}

/// The largest |error| a whole run may have (issue 39's threshold for DeepSeek-V3).
pub const WHOLE_RUN_LIMIT: f64 = 0.25;

/// DeepSeek-V3's pre-training: 14.8T tokens on 2,048 H800s in 2,664K GPU-hours
/// (DeepSeek-V3 Technical Report, Table 1; 2,788K with context extension and
/// post-training). Its layout (§3.2): 16-way pipeline parallelism under
/// DualPipe, 64-way expert parallelism over 8 nodes, ZeRO-1 data parallelism,
/// no tensor parallelism; FP8 with 1×128 and 128×128 blocks (§3.3); one MTP
/// module; 4K sequences, a batch of 15,360 at the end (§4.2).
pub static WHOLE_RUNS: &[WholeRun] = &[WholeRun {
    name: "deepseek-v3-pretraining",
    model: "DeepSeek-V3",
    query: "model=deepseek-v3&convention=megatron&gpu=h800&tokens=14.8T&seq-len=4096&pp=16&ep=64&dp=128&zero=1&schedule=dualpipe&fp8=blockwise&mtp-layers=1&global-batch=15360",
    gpu_hours: 2.664e6,
    source: "https://arxiv.org/abs/2412.19437",
}];

/// A whole run evaluated: the calculator's GPU-hours (`None` if its query no longer loads).
pub fn whole_run_hours(run: &WholeRun) -> Option<f64> {
    crate::link::config(run.query).map(|c| crate::evaluate(&c).gpu_hours())
}
