//! How close is the step time to reality: measured training throughput
//! (tokens per second per GPU) beside what the step-time model
//! ([`crate::step::step_time`]) gives for the same run.
//!
//! Megatron-LM's runs (its 2021 and 2022 papers' tables, NVIDIA's NeMo
//! recipes on Megatron-Core) run at the calculator's default rate: under
//! `megatron` the rate their own shape and layout reach
//! ([`crate::shape::shape_rate`]), nothing taken from any row. Eager PyTorch
//! stacks (torchtitan, transformers) leave unfused kernels the shape does not
//! time, so each of their runs takes τ from an *anchor*: another run of the
//! same software on the same GPU, its measured tokens per second times the
//! calculator's hardware FLOPs per token ([`hardware_flops_per_token`]). An
//! anchor is shown (its error is what the model adds to its own step) and is
//! not counted. `docs/research/throughput.md` has each source's setup.

use crate::step::{hardware_flops_per_token, step_time, tokens_per_second_per_gpu};
use crate::validation::{h200_bf16, llama_1b, llama_3b};

/// Whose software ran the row (named as its source names it, the same in every language).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stack {
    /// NVIDIA's DGX Cloud benchmarking recipes: NeMo 24.09 on Megatron-Core, BF16.
    Nemo,
    /// Megatron-LM as Narayanan et al. 2021 ran it (Table 1), fp16, on Selene's A100s.
    MegatronLm2021,
    /// Megatron-LM as Korthikanti et al. 2022 ran it (Table 5), on Selene's A100s.
    MegatronLm2022,
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
            Stack::MegatronLm2021 => "Megatron-LM (2021)",
            Stack::MegatronLm2022 => "Megatron-LM (2022)",
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
    /// The run, as a link's query (its GPU and layout).
    pub query: &'static str,
    /// Measured tokens per second per GPU.
    pub measured: f64,
    /// The rate it runs at.
    pub rate: Rate,
    /// Where the figure and its setup are published.
    pub source: &'static str,
    /// Part of the setup is inferred (shown, not counted).
    pub inferred: bool,
}

/// The rate a row runs at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rate {
    /// The calculator's default: nothing taken from any row (under `megatron`, the shape's).
    Default,
    /// This row is its stack's anchor: its own measured rate (shown, not counted).
    Anchor,
    /// The anchor row's rate, by its name.
    Of(&'static str),
}

/// The largest |error| a counted row may have.
pub const ROW_LIMIT: f64 = 0.25;

/// The largest median |error| of the counted rows (issue 39).
pub const MEDIAN_LIMIT: f64 = 0.08;

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

/// A GPT run of Megatron-LM's papers on Selene's A100s: s 2048, V 51,200,
/// GeLU, tied embeddings, the softmax before FlashAttention, no ZeRO, one
/// 200 Gb/s HDR link a GPU (Narayanan et al. 2021, §5); each paper's own
/// choices, then the run's.
macro_rules! selene_gpt {
    ($($part:expr),+) => {
        concat!(
            "convention=megatron&gpu=a100-80gb&inter-node-gbs=25&attention=standard&zero=0&mlp=gelu&tie-embeddings=1&vocab=51200&seq-len=2048&",
            $($part),+
        )
    };
}

/// Narayanan et al. 2021's Table 1 (its authors' `examples/sc21/run_table_1.sh`
/// @6985e58 gives heads, t, p, the batches and the interleaving): GPT models
/// in fp16 with full recomputation.
const NARAYANAN: &str = "https://arxiv.org/abs/2104.04473";
macro_rules! narayanan {
    ($rest:literal) => {
        selene_gpt!("recompute=full&", $rest)
    };
}

/// Tokens per second per GPU from Table 1's achieved TFLOP/s: its FLOPs per
/// token, 96·l·h²·(1 + s/6h + V/16lh) with recomputation (§5.1, eq. 3), at s
/// 2048 and V 51,200.
const fn table_1(tflops: f64, layers: f64, hidden: f64) -> f64 {
    let per_token =
        96.0 * layers * hidden * hidden * (1.0 + 2048.0 / (6.0 * hidden) + 51_200.0 / (16.0 * layers * hidden));
    tflops * 1e12 / per_token
}

/// Korthikanti et al. 2022's Tables 3 and 5: one iteration of GPT models in
/// mixed precision with no data parallelism, t 8.
const KORTHIKANTI: &str = "https://arxiv.org/abs/2205.05198";
macro_rules! korthikanti {
    ($rest:literal) => {
        selene_gpt!("tp=8&dp=1&", $rest)
    };
}

/// Tokens per second per GPU of one iteration of `sequences` of 2,048 tokens
/// in `seconds` on `gpus`.
const fn table_5(sequences: f64, seconds: f64, gpus: f64) -> f64 {
    sequences * 2048.0 / (seconds * gpus)
}

const fn row(
    name: &'static str,
    stack: Stack,
    model: &'static str,
    query: &'static str,
    measured: f64,
    rate: Rate,
    source: &'static str,
) -> Row {
    Row { name, stack, model, query, measured, rate, source, inferred: false }
}

/// The table. How the runs were chosen: every BF16 (2021: fp16) row of a
/// published table whose layout is stated in full (FP8 runs wait for FP8 in
/// the step-time model), and this project's H200 runs. NeMo's aggregate tokens
/// per second are divided by the GPUs here.
pub static ROWS: &[Row] = &[
    row(
        "nemo-8b-8",
        Stack::Nemo,
        "Llama 3.1 8B",
        nemo!("model=llama-3-8b&cp=2&dp=4&grad-accum=32"),
        10_153.0,
        Rate::Default,
        DGXC_8B,
    ),
    row(
        "nemo-8b-128",
        Stack::Nemo,
        "Llama 3.1 8B",
        nemo!("model=llama-3-8b&cp=2&dp=64&grad-accum=32"),
        10_006.0,
        Rate::Default,
        DGXC_8B,
    ),
    row(
        "nemo-70b-64",
        Stack::Nemo,
        "Llama 3.1 70B",
        nemo!("model=llama-3-70b&tp=4&pp=4&vpp=5&cp=2&dp=2&grad-accum=64&sequence-parallel=1"),
        1_113.0,
        Rate::Default,
        DGXC_70B,
    ),
    row(
        "nemo-70b-2048",
        Stack::Nemo,
        "Llama 3.1 70B",
        nemo!("model=llama-3-70b&tp=4&pp=4&vpp=5&cp=2&dp=64&grad-accum=64&sequence-parallel=1"),
        1_098.0,
        Rate::Default,
        DGXC_70B,
    ),
    row(
        "nemo-405b-576",
        Stack::Nemo,
        "Llama 3.1 405B",
        nemo!("model=llama-3-405b&tp=8&pp=9&vpp=7&cp=2&dp=4&grad-accum=63&sequence-parallel=1"),
        208.0,
        Rate::Default,
        DGXC_405B,
    ),
    row(
        "nemo-405b-2304",
        Stack::Nemo,
        "Llama 3.1 405B",
        nemo!("model=llama-3-405b&tp=8&pp=9&vpp=7&cp=2&dp=16&grad-accum=63&sequence-parallel=1"),
        203.0,
        Rate::Default,
        DGXC_405B,
    ),
    row(
        "megatron-2021-1.7b",
        Stack::MegatronLm2021,
        "GPT 1.7B",
        narayanan!("layers=24&hidden=2304&heads=24&ffn=9216&tp=1&pp=1&dp=32&vpp=1&micro-batch=16&global-batch=512"),
        table_1(137.0, 24.0, 2304.0),
        Rate::Default,
        NARAYANAN,
    ),
    row(
        "megatron-2021-3.6b",
        Stack::MegatronLm2021,
        "GPT 3.6B",
        narayanan!("layers=30&hidden=3072&heads=32&ffn=12288&tp=2&pp=1&dp=32&vpp=1&micro-batch=16&global-batch=512"),
        table_1(138.0, 30.0, 3072.0),
        Rate::Default,
        NARAYANAN,
    ),
    row(
        "megatron-2021-7.5b",
        Stack::MegatronLm2021,
        "GPT 7.5B",
        narayanan!("layers=36&hidden=4096&heads=32&ffn=16384&tp=4&pp=1&dp=32&vpp=1&micro-batch=16&global-batch=512"),
        table_1(142.0, 36.0, 4096.0),
        Rate::Default,
        NARAYANAN,
    ),
    row(
        "megatron-2021-18.4b",
        Stack::MegatronLm2021,
        "GPT 18.4B",
        narayanan!("layers=40&hidden=6144&heads=48&ffn=24576&tp=8&pp=1&dp=32&vpp=1&micro-batch=8&global-batch=1024"),
        table_1(135.0, 40.0, 6144.0),
        Rate::Default,
        NARAYANAN,
    ),
    row(
        "megatron-2021-39.1b",
        Stack::MegatronLm2021,
        "GPT 39.1B",
        narayanan!("layers=48&hidden=8192&heads=64&ffn=32768&tp=8&pp=2&dp=32&vpp=1&micro-batch=4&global-batch=1536"),
        table_1(138.0, 48.0, 8192.0),
        Rate::Default,
        NARAYANAN,
    ),
    row(
        "megatron-2021-76.1b",
        Stack::MegatronLm2021,
        "GPT 76.1B",
        narayanan!("layers=60&hidden=10240&heads=80&ffn=40960&tp=8&pp=4&dp=32&vpp=3&micro-batch=2&global-batch=1792"),
        table_1(140.0, 60.0, 10240.0),
        Rate::Default,
        NARAYANAN,
    ),
    row(
        "megatron-2021-145.6b",
        Stack::MegatronLm2021,
        "GPT 145.6B",
        narayanan!("layers=80&hidden=12288&heads=96&ffn=49152&tp=8&pp=8&dp=24&vpp=2&micro-batch=2&global-batch=2304"),
        table_1(148.0, 80.0, 12288.0),
        Rate::Default,
        NARAYANAN,
    ),
    row(
        "megatron-2021-310.1b",
        Stack::MegatronLm2021,
        "GPT 310.1B",
        narayanan!("layers=96&hidden=16384&heads=128&ffn=65536&tp=8&pp=16&dp=15&vpp=2&micro-batch=1&global-batch=2160"),
        table_1(155.0, 96.0, 16384.0),
        Rate::Default,
        NARAYANAN,
    ),
    row(
        "megatron-2021-529.6b",
        Stack::MegatronLm2021,
        "GPT 529.6B",
        narayanan!("layers=105&hidden=20480&heads=128&ffn=81920&tp=8&pp=35&dp=9&vpp=3&micro-batch=1&global-batch=2520"),
        table_1(163.0, 105.0, 20480.0),
        Rate::Default,
        NARAYANAN,
    ),
    row(
        "megatron-2021-1008b",
        Stack::MegatronLm2021,
        "GPT 1008B",
        narayanan!("layers=128&hidden=25600&heads=160&ffn=102400&tp=8&pp=64&dp=6&vpp=1&micro-batch=1&global-batch=3072"),
        table_1(163.0, 128.0, 25600.0),
        Rate::Default,
        NARAYANAN,
    ),
    row(
        "megatron-2022-22b-full",
        Stack::MegatronLm2022,
        "GPT 22B",
        korthikanti!("recompute=full&layers=48&hidden=6144&heads=64&ffn=24576&pp=1&vpp=1&micro-batch=4&global-batch=4"),
        table_5(4.0, 1.42, 8.0),
        Rate::Default,
        KORTHIKANTI,
    ),
    row(
        "megatron-2022-22b-selective",
        Stack::MegatronLm2022,
        "GPT 22B",
        korthikanti!("recompute=selective&sequence-parallel=1&layers=48&hidden=6144&heads=64&ffn=24576&pp=1&vpp=1&micro-batch=4&global-batch=4"),
        table_5(4.0, 1.1, 8.0),
        Rate::Default,
        KORTHIKANTI,
    ),
    row(
        "megatron-2022-175b-full",
        Stack::MegatronLm2022,
        "GPT 175B",
        korthikanti!("recompute=full&layers=96&hidden=12288&heads=96&ffn=49152&pp=8&vpp=3&micro-batch=1&global-batch=64"),
        table_5(64.0, 18.13, 64.0),
        Rate::Default,
        KORTHIKANTI,
    ),
    row(
        "megatron-2022-175b-selective",
        Stack::MegatronLm2022,
        "GPT 175B",
        korthikanti!("recompute=selective&sequence-parallel=1&layers=96&hidden=12288&heads=96&ffn=49152&pp=8&vpp=3&micro-batch=1&global-batch=64"),
        table_5(64.0, 13.75, 64.0),
        Rate::Default,
        KORTHIKANTI,
    ),
    row(
        "megatron-2022-530b-full",
        Stack::MegatronLm2022,
        "GPT 530B",
        korthikanti!("recompute=full&layers=105&hidden=20480&heads=128&ffn=81920&pp=35&vpp=3&micro-batch=1&global-batch=280"),
        table_5(280.0, 49.05, 280.0),
        Rate::Default,
        KORTHIKANTI,
    ),
    row(
        "megatron-2022-530b-selective",
        Stack::MegatronLm2022,
        "GPT 530B",
        korthikanti!("recompute=selective&sequence-parallel=1&layers=105&hidden=20480&heads=128&ffn=81920&pp=35&vpp=3&micro-batch=1&global-batch=280"),
        table_5(280.0, 37.83, 280.0),
        Rate::Default,
        KORTHIKANTI,
    ),
    row(
        "megatron-2022-1t-full",
        Stack::MegatronLm2022,
        "GPT 1T",
        korthikanti!("recompute=full&layers=128&hidden=25600&heads=160&ffn=102400&pp=64&vpp=1&micro-batch=1&global-batch=512"),
        table_5(512.0, 94.42, 512.0),
        Rate::Default,
        KORTHIKANTI,
    ),
    row(
        "megatron-2022-1t-selective",
        Stack::MegatronLm2022,
        "GPT 1T",
        korthikanti!("recompute=selective&sequence-parallel=1&layers=128&hidden=25600&heads=160&ffn=102400&pp=64&vpp=1&micro-batch=1&global-batch=512"),
        table_5(512.0, 71.49, 512.0),
        Rate::Default,
        KORTHIKANTI,
    ),
    row(
        "torchtitan-8b-8",
        Stack::Torchtitan,
        "Llama 3.1 8B",
        "model=llama-3-8b&convention=megatron&gpu=h100-80gb&seq-len=8192&micro-batch=2&dp=8&zero=3&recompute=selective",
        5_762.0,
        Rate::Anchor,
        TORCHTITAN,
    ),
    row(
        "torchtitan-8b-128",
        Stack::Torchtitan,
        "Llama 3.1 8B",
        "model=llama-3-8b&convention=megatron&gpu=h100-80gb&seq-len=8192&micro-batch=2&dp=128&zero=3&recompute=selective",
        5_605.0,
        Rate::Of("torchtitan-8b-8"),
        TORCHTITAN,
    ),
    row(
        "torchtitan-compiled-8b-8",
        Stack::TorchtitanCompiled,
        "Llama 3.1 8B",
        "model=llama-3-8b&convention=megatron&gpu=h100-80gb&seq-len=8192&micro-batch=2&dp=8&zero=3&recompute=selective",
        6_667.0,
        Rate::Anchor,
        TORCHTITAN,
    ),
    row(
        "torchtitan-compiled-8b-128",
        Stack::TorchtitanCompiled,
        "Llama 3.1 8B",
        "model=llama-3-8b&convention=megatron&gpu=h100-80gb&seq-len=8192&micro-batch=2&dp=128&zero=3&recompute=selective",
        6_514.0,
        Rate::Of("torchtitan-compiled-8b-8"),
        TORCHTITAN,
    ),
    row("h200-8b", Stack::Transformers, "Llama 3 8B", h200_bf16!("model=llama-3-8b&seq-len=4096&micro-batch=1"), 9_173.9, Rate::Anchor, H200),
    row(
        "h200-8b-s8192-full",
        Stack::Transformers,
        "Llama 3 8B",
        h200_bf16!("model=llama-3-8b&seq-len=8192&micro-batch=1&recompute=full"),
        7_490.8,
        Rate::Of("h200-8b"),
        H200,
    ),
    row(
        "h200-8b-s2048-b4-full",
        Stack::Transformers,
        "Llama 3 8B",
        h200_bf16!("model=llama-3-8b&seq-len=2048&micro-batch=4&recompute=full"),
        8_311.0,
        Rate::Of("h200-8b"),
        H200,
    ),
    row(
        "h200-3b",
        Stack::Transformers,
        "Llama 3.2 3B",
        llama_3b!("seq-len=4096&micro-batch=2"),
        20_219.9,
        Rate::Of("h200-8b"),
        H200,
    ),
    row(
        "h200-3b-s8192-full",
        Stack::Transformers,
        "Llama 3.2 3B",
        llama_3b!("seq-len=8192&micro-batch=1&recompute=full"),
        14_899.2,
        Rate::Of("h200-8b"),
        H200,
    ),
    row(
        "h200-1b",
        Stack::Transformers,
        "Llama 3.2 1B",
        llama_1b!("seq-len=4096&micro-batch=2"),
        47_381.8,
        Rate::Of("h200-8b"),
        H200,
    ),
    row(
        "h200-1b-full",
        Stack::Transformers,
        "Llama 3.2 1B",
        llama_1b!("seq-len=4096&micro-batch=2&recompute=full"),
        38_757.3,
        Rate::Of("h200-8b"),
        H200,
    ),
    row(
        "h200-1b-s8192-full",
        Stack::Transformers,
        "Llama 3.2 1B",
        llama_1b!("seq-len=8192&micro-batch=4&recompute=full"),
        37_199.2,
        Rate::Of("h200-8b"),
        H200,
    ),
];

/// A row evaluated: the rate it runs at, and the model's tokens per second per GPU.
#[derive(Clone, Copy, Debug)]
pub struct Checked {
    pub row: &'static Row,
    /// τ, FLOP/s per GPU: the default's, or the anchor's measured tokens/s × its hardware FLOPs per token.
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
        self.row.rate != Rate::Anchor && !self.row.inferred
    }
    pub fn within(&self) -> bool {
        !self.counts() || self.error().abs() <= ROW_LIMIT
    }
}

/// Evaluates a row (`None` if its query or its anchor no longer loads, which a test forbids).
pub fn check(row: &'static Row) -> Option<Checked> {
    let mut c = crate::link::config(row.query)?;
    let anchor = match row.rate {
        Rate::Default => None,
        Rate::Anchor => Some(row),
        Rate::Of(name) => Some(ROWS.iter().find(|r| r.name == name && r.rate == Rate::Anchor)?),
    };
    if let Some(anchor) = anchor {
        c.system.flops_per_gpu = anchor.measured * hardware_flops_per_token(&crate::link::config(anchor.query)?);
        c.system.tau_from_shape = false;
    }
    let st = step_time(&c);
    let (tau, predicted) = (st.tau, tokens_per_second_per_gpu(&c, &st));
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
