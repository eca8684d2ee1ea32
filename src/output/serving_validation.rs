//! How close serving's time is to reality: measured decode and first-token
//! times, published by the engines' authors and by others, beside what the
//! serving core ([`crate::serving`]) gives for the same run at the GPU's
//! default rates (its measured bandwidth share and matmul ceiling, the
//! kernels' floor): nothing is taken from the rows themselves.
//!
//! Each row keeps its engine and version: an engine's kernels are part of the
//! figure. Rows whose setup is partly inferred are shown and not counted; a
//! row beyond [`ROW_LIMIT`] names what the calculator leaves out ([`Gap`]).
//! `docs/research/serving-validation.md` has each source's setup.

use crate::serving::{evaluate, time, ServingReport};
use crate::Config;

/// The engine that ran the row (named as its source names it, the same in every language).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// PyTorch's gpt-fast: `torch.compile` with CUDA graphs, batch 1.
    GptFast,
    /// torchao's gpt-fast-style `generate.py`, batch 1.
    Torchao,
    TensorrtLlm,
    /// NVIDIA NIM, TensorRT-LLM inside.
    Nim,
    Vllm,
    LlamaCpp,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::GptFast => "gpt-fast",
            Engine::Torchao => "torchao",
            Engine::TensorrtLlm => "TensorRT-LLM",
            Engine::Nim => "NVIDIA NIM",
            Engine::Vllm => "vLLM",
            Engine::LlamaCpp => "llama.cpp",
        }
    }
}

/// What the published figure measures, and so which of the core's numbers predicts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Time per output token (inter-token latency) at the row's batch.
    Tpot,
    /// Time to the first token of one request (a benchmark with one output token: the prefill).
    Ttft,
    /// Seconds per generated token over a whole request, its prefill included
    /// (gpt-fast's and torchao's tokens/s at batch 1): request time ÷ output tokens.
    PerToken,
    /// A static batch's mean step (TensorRT-LLM's `gptSessionBenchmark`: batch ×
    /// output tokens in total time): the batch's prefill and every decode step, ÷ output tokens.
    StaticStep,
}

impl Measure {
    pub fn as_str(self) -> &'static str {
        match self {
            Measure::Tpot => "tpot",
            Measure::Ttft => "ttft",
            Measure::PerToken => "per-token",
            Measure::StaticStep => "static-step",
        }
    }

    /// The core's figure for this measure, seconds.
    pub fn predicted(self, c: &Config, r: &ServingReport) -> f64 {
        let s = &c.serving;
        let out = s.output_tokens as f64;
        match self {
            Measure::Tpot => r.tpot_seconds,
            Measure::Ttft => r.ttft_seconds,
            Measure::PerToken => r.request_seconds / out,
            Measure::StaticStep => {
                (time::batch_prefill_seconds(c, s.batch, s.prompt_tokens) + out * r.tpot_seconds) / out
            }
        }
    }

    /// Whether this is decode at batch 1 (the issue's own threshold).
    pub fn batch_one_decode(self, c: &Config) -> bool {
        c.serving.batch == 1 && matches!(self, Measure::Tpot | Measure::PerToken)
    }
}

/// What the calculator knowingly leaves out for a row (the page says it in its language).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gap {
    /// FP8 prefill at the measured FP8 matmul ceiling, 1.92× the BF16 one
    /// (tilelang's GEMM on an H800), where TensorRT-LLM 0.8's prefill reached
    /// about 1.2×: its FP8 context phase, not the tensor cores, bounds it.
    Fp8Prefill,
    /// A 128-token prompt's GEMMs are one tile tall: they reach neither the
    /// bandwidth nor the matmul ceiling (the shape's own rate is issue 39's).
    ShortPrompt,
    /// llama.cpp's F16 path (May 2024) decodes no faster on a 2 TB/s A100 or
    /// H100 PCIe than on a 1 TB/s RTX 4090: its kernel, not the memory, bounds it.
    LlamaCppF16,
    /// Near the crossover batch the roofline lets the arithmetic hide the
    /// memory traffic whole; GEMMs of 64–128 rows reach neither ceiling.
    NearCrossover,
}

impl Gap {
    pub fn as_str(self) -> &'static str {
        match self {
            Gap::Fp8Prefill => "fp8-prefill",
            Gap::ShortPrompt => "short-prompt",
            Gap::LlamaCppF16 => "llama-cpp-f16",
            Gap::NearCrossover => "near-crossover",
        }
    }
}

/// One measured run.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// A stable name.
    pub name: &'static str,
    pub engine: Engine,
    /// The engine's version or date, as the source gives it.
    pub version: &'static str,
    /// The model as its source names it.
    pub model: &'static str,
    /// The run, as a link's query (model, GPU, format, replica, batch, prompt and output tokens).
    pub query: &'static str,
    pub measure: Measure,
    /// The published figure, seconds.
    pub measured: f64,
    pub source: &'static str,
    /// Part of the setup is inferred (shown, not counted).
    pub inferred: bool,
    pub gap: Option<Gap>,
}

/// The largest |error| a counted row may have without its [`Gap`].
pub const ROW_LIMIT: f64 = 0.35;
/// The median |error| over the counted rows.
pub const MEDIAN_LIMIT: f64 = 0.15;
/// The median |error| over the counted rows of decode at batch 1.
pub const BATCH_ONE_LIMIT: f64 = 0.10;

const GPT_FAST: &str =
    "https://github.com/pytorch-labs/gpt-fast/blob/32971d3129541c5bfb4f715abc33d1c5f408d204/README.md";
const TORCHAO: &str =
    "https://github.com/pytorch/ao/blob/bac039fc84867e128db860107ae21283ef1a763e/torchao/quantization/README.md";
const TRT_08: &str = "https://github.com/NVIDIA/TensorRT-LLM/blob/v0.8.0/docs/source/performance.md";
const VLLM_FP8_KV: &str = "https://github.com/vllm-project/vllm-project.github.io/blob/5ffe2dd543a30f34309d71d8374803612223e9fb/_posts/2026-04-22-fp8-kvcache.md";
const LLAMA_CPP_2024: &str = "https://github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference/blob/aa72e0ec/README.md";
const LLAMA_CPP_15131: &str = "https://github.com/ggml-org/llama.cpp/pull/15131";
const NIM_18: &str = "https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance.html";

/// gpt-fast's README: 8 A100-80GB power-limited to 330 W, batch 1, a 5-token
/// prompt, `generate.py`'s default 200 new tokens, bf16 weights, `--compile`.
macro_rules! gpt_fast {
    ($rest:literal) => {
        concat!("gpu=a100-80gb&inference-dtype=bf16&prompt-tokens=5&output-tokens=200&", $rest)
    };
}

/// gpt-fast's int8 weight-only rows (`quantize.py --mode int8`: every linear
/// layer's weights in int8 with one bf16 scale per output channel, the
/// embedding in bf16), otherwise as [`gpt_fast!`].
macro_rules! gpt_fast_int8 {
    ($rest:literal) => {
        concat!("gpu=a100-80gb&inference-dtype=int8&prompt-tokens=5&output-tokens=200&", $rest)
    };
}

/// TensorRT-LLM 0.8.0's tables: FP16 weights and cache on the A100, FP8 weights
/// and cache (`quant_algo` and `kv_cache_quant_algo` FP8) on the H100, H200 and L40S.
macro_rules! trt_fp8 {
    ($rest:literal) => {
        concat!("inference-dtype=fp8&kv-dtype=fp8&", $rest)
    };
}

const fn row(
    name: &'static str,
    (engine, version): (Engine, &'static str),
    model: &'static str,
    query: &'static str,
    measure: Measure,
    measured: f64,
    source: &'static str,
) -> Row {
    Row { name, engine, version, model, query, measure, measured, source, inferred: false, gap: None }
}

const fn gpt_fast(name: &'static str, model: &'static str, query: &'static str, tokens_per_second: f64) -> Row {
    row(name, (Engine::GptFast, "2024-09"), model, query, Measure::PerToken, 1.0 / tokens_per_second, GPT_FAST)
}

const fn trt(name: &'static str, model: &'static str, query: &'static str, measure: Measure, seconds: f64) -> Row {
    row(name, (Engine::TensorrtLlm, "0.8.0"), model, query, measure, seconds, TRT_08)
}

/// A static batch of TensorRT-LLM 0.8.0: its output tokens/s per GPU, as a mean step of b sequences on t GPUs.
const fn trt_static(name: &'static str, model: &'static str, query: &'static str, b: f64, t: f64, per_gpu: f64) -> Row {
    trt(name, model, query, Measure::StaticStep, b / (per_gpu * t))
}

const fn with_gap(r: Row, gap: Gap) -> Row {
    Row { gap: Some(gap), ..r }
}

const fn inferred(r: Row) -> Row {
    Row { inferred: true, ..r }
}

/// The vLLM post's fitted batch-1 ITL on an H100, ms: intercept + slope × input length.
const fn vllm_fit(intercept_ms: f64, slope_ms: f64, input: f64) -> f64 {
    (intercept_ms + slope_ms * input) * 1e-3
}

/// The table. How the runs were chosen: every 16-bit and FP8 row of the
/// sources whose model, GPU, format, replica, batch and lengths are stated
/// (gpt-fast's int4 rows are left out: its groups of 32 keep a bf16 scale
/// and zero each, 5 bits a weight, a format the calculator does not name).
pub static ROWS: &[Row] = &[
    gpt_fast("gpt-fast-llama-2-7b", "Llama-2-7B", gpt_fast!("model=llama-2-7b"), 104.9),
    gpt_fast("gpt-fast-llama-2-7b-tp2", "Llama-2-7B", gpt_fast!("model=llama-2-7b&serve-tp=2"), 168.84),
    gpt_fast("gpt-fast-llama-2-7b-tp8", "Llama-2-7B", gpt_fast!("model=llama-2-7b&serve-tp=8"), 328.43),
    gpt_fast("gpt-fast-llama-2-70b-tp2", "Llama-2-70B", gpt_fast!("model=llama-2-70b&serve-tp=2"), 21.32),
    gpt_fast("gpt-fast-llama-2-70b-tp4", "Llama-2-70B", gpt_fast!("model=llama-2-70b&serve-tp=4"), 38.01),
    gpt_fast("gpt-fast-llama-2-70b-tp8", "Llama-2-70B", gpt_fast!("model=llama-2-70b&serve-tp=8"), 62.50),
    gpt_fast("gpt-fast-llama-3.1-8b", "Llama-3.1-8B", gpt_fast!("model=llama-3-8b"), 93.89),
    gpt_fast("gpt-fast-llama-3.1-8b-tp2", "Llama-3.1-8B", gpt_fast!("model=llama-3-8b&serve-tp=2"), 149.10),
    gpt_fast("gpt-fast-llama-3.1-8b-tp4", "Llama-3.1-8B", gpt_fast!("model=llama-3-8b&serve-tp=4"), 217.21),
    gpt_fast("gpt-fast-llama-3.1-8b-tp8", "Llama-3.1-8B", gpt_fast!("model=llama-3-8b&serve-tp=8"), 276.01),
    gpt_fast("gpt-fast-llama-3.1-70b-tp2", "Llama-3.1-70B", gpt_fast!("model=llama-3-70b&serve-tp=2"), 16.03),
    gpt_fast("gpt-fast-llama-3.1-70b-tp4", "Llama-3.1-70B", gpt_fast!("model=llama-3-70b&serve-tp=4"), 37.45),
    gpt_fast("gpt-fast-llama-3.1-70b-tp8", "Llama-3.1-70B", gpt_fast!("model=llama-3-70b&serve-tp=8"), 58.78),
    gpt_fast("gpt-fast-mixtral-tp2", "Mixtral-8x7B", gpt_fast!("model=mixtral-8x7b&serve-tp=2"), 96.67),
    gpt_fast("gpt-fast-mixtral-tp4", "Mixtral-8x7B", gpt_fast!("model=mixtral-8x7b&serve-tp=4"), 155.35),
    gpt_fast("gpt-fast-mixtral-tp8", "Mixtral-8x7B", gpt_fast!("model=mixtral-8x7b&serve-tp=8"), 227.82),
    gpt_fast("gpt-fast-llama-2-7b-int8", "Llama-2-7B", gpt_fast_int8!("model=llama-2-7b"), 155.58),
    gpt_fast("gpt-fast-llama-2-70b-int8", "Llama-2-70B", gpt_fast_int8!("model=llama-2-70b"), 19.13),
    gpt_fast("gpt-fast-llama-3.1-8b-int8", "Llama-3.1-8B", gpt_fast_int8!("model=llama-3-8b"), 137.64),
    gpt_fast("gpt-fast-llama-3.1-70b-int8", "Llama-3.1-70B", gpt_fast_int8!("model=llama-3-70b"), 18.04),
    gpt_fast("gpt-fast-llama-2-70b-int8-tp8", "Llama-2-70B", gpt_fast_int8!("model=llama-2-70b&serve-tp=8"), 80.44),
    gpt_fast("gpt-fast-llama-3.1-70b-int8-tp8", "Llama-3.1-70B", gpt_fast_int8!("model=llama-3-70b&serve-tp=8"), 75.58),
    gpt_fast(
        "gpt-fast-llama-3.1-405b-int8-tp8",
        "Llama-3.1-405B",
        gpt_fast_int8!("model=llama-3-405b&serve-tp=8"),
        15.60,
    ),
    // torchao's `generate.py`: the prompt "Hello, my name is" (6 tokens), 200 new tokens, --compile.
    row(
        "torchao-llama-2-7b-a100",
        (Engine::Torchao, "2025-02"),
        "Llama-2-7B",
        "model=llama-2-7b&gpu=a100-80gb&inference-dtype=bf16&prompt-tokens=6&output-tokens=200",
        Measure::PerToken,
        1.0 / 107.38,
        TORCHAO,
    ),
    row(
        "torchao-llama-3-8b-a100",
        (Engine::Torchao, "2025-02"),
        "Llama-3-8B",
        "model=llama-3-8b&gpu=a100-80gb&inference-dtype=bf16&prompt-tokens=6&output-tokens=200",
        Measure::PerToken,
        1.0 / 95.64,
        TORCHAO,
    ),
    // "a single NVIDIA-H100 GPU": SXM or PCIe not said.
    inferred(row(
        "torchao-llama-3.1-8b-h100",
        (Engine::Torchao, "2025-02"),
        "Llama-3.1-8B",
        "model=llama-3-8b&gpu=h100-80gb&inference-dtype=bf16&prompt-tokens=6&output-tokens=200",
        Measure::PerToken,
        1.0 / 126.90,
        TORCHAO,
    )),
    // TensorRT-LLM 0.8.0, first-token latency at batch 1 (one output token).
    with_gap(
        trt(
            "trt-llama-2-7b-a100-128",
            "Llama-2-7B",
            "model=llama-2-7b&gpu=a100-80gb&prompt-tokens=128&output-tokens=1",
            Measure::Ttft,
            16.1e-3,
        ),
        Gap::ShortPrompt,
    ),
    trt(
        "trt-llama-2-7b-a100-2048",
        "Llama-2-7B",
        "model=llama-2-7b&gpu=a100-80gb&prompt-tokens=2048&output-tokens=1",
        Measure::Ttft,
        120.5e-3,
    ),
    trt(
        "trt-mistral-7b-a100-2048",
        "Mistral-7B",
        "model=mistral-7b&gpu=a100-80gb&prompt-tokens=2048&output-tokens=1",
        Measure::Ttft,
        128.7e-3,
    ),
    trt(
        "trt-llama-2-70b-a100-tp8-2048",
        "Llama-2-70B",
        "model=llama-2-70b&gpu=a100-80gb&serve-tp=8&prompt-tokens=2048&output-tokens=1",
        Measure::Ttft,
        235.1e-3,
    ),
    with_gap(
        trt(
            "trt-llama-2-70b-a100-tp8-128",
            "Llama-2-70B",
            "model=llama-2-70b&gpu=a100-80gb&serve-tp=8&prompt-tokens=128&output-tokens=1",
            Measure::Ttft,
            35.6e-3,
        ),
        Gap::ShortPrompt,
    ),
    with_gap(
        trt(
            "trt-llama-2-7b-h100-128",
            "Llama-2-7B",
            trt_fp8!("model=llama-2-7b&gpu=h100-80gb&prompt-tokens=128&output-tokens=1"),
            Measure::Ttft,
            6.4e-3,
        ),
        Gap::ShortPrompt,
    ),
    with_gap(
        trt(
            "trt-llama-2-7b-h100-2048",
            "Llama-2-7B",
            trt_fp8!("model=llama-2-7b&gpu=h100-80gb&prompt-tokens=2048&output-tokens=1"),
            Measure::Ttft,
            31.0e-3,
        ),
        Gap::Fp8Prefill,
    ),
    with_gap(
        trt(
            "trt-mistral-7b-h100-2048",
            "Mistral-7B",
            trt_fp8!("model=mistral-7b&gpu=h100-80gb&prompt-tokens=2048&output-tokens=1"),
            Measure::Ttft,
            32.6e-3,
        ),
        Gap::Fp8Prefill,
    ),
    with_gap(
        trt(
            "trt-llama-2-70b-h100-tp8-2048",
            "Llama-2-70B",
            trt_fp8!("model=llama-2-70b&gpu=h100-80gb&serve-tp=8&prompt-tokens=2048&output-tokens=1"),
            Measure::Ttft,
            84.4e-3,
        ),
        Gap::Fp8Prefill,
    ),
    with_gap(
        trt(
            "trt-llama-2-7b-l40s-2048",
            "Llama-2-7B",
            trt_fp8!("model=llama-2-7b&gpu=l40s&prompt-tokens=2048&output-tokens=1"),
            Measure::Ttft,
            79.0e-3,
        ),
        Gap::Fp8Prefill,
    ),
    // TensorRT-LLM 0.8.0, static batches: output tokens/s per GPU.
    trt_static(
        "trt-llama-2-7b-a100-b32",
        "Llama-2-7B",
        "model=llama-2-7b&gpu=a100-80gb&batch=32&prompt-tokens=128&output-tokens=2048",
        32.0,
        1.0,
        1518.0,
    ),
    trt_static(
        "trt-llama-2-7b-a100-b16-2048",
        "Llama-2-7B",
        "model=llama-2-7b&gpu=a100-80gb&batch=16&prompt-tokens=2048&output-tokens=2048",
        16.0,
        1.0,
        613.0,
    ),
    with_gap(
        trt_static(
            "trt-mistral-7b-a100-b120",
            "Mistral-7B",
            "model=mistral-7b&gpu=a100-80gb&batch=120&prompt-tokens=128&output-tokens=2048",
            120.0,
            1.0,
            3812.0,
        ),
        Gap::NearCrossover,
    ),
    with_gap(
        trt_static(
            "trt-llama-2-70b-a100-tp4-b128",
            "Llama-2-70B",
            "model=llama-2-70b&gpu=a100-80gb&serve-tp=4&batch=128&prompt-tokens=128&output-tokens=2048",
            128.0,
            4.0,
            595.0,
        ),
        Gap::NearCrossover,
    ),
    trt_static(
        "trt-llama-2-7b-h100-b120",
        "Llama-2-7B",
        trt_fp8!("model=llama-2-7b&gpu=h100-80gb&batch=120&prompt-tokens=128&output-tokens=2048"),
        120.0,
        1.0,
        6922.0,
    ),
    trt_static(
        "trt-llama-2-7b-h100-b56-2048",
        "Llama-2-7B",
        trt_fp8!("model=llama-2-7b&gpu=h100-80gb&batch=56&prompt-tokens=2048&output-tokens=2048"),
        56.0,
        1.0,
        2816.0,
    ),
    trt_static(
        "trt-llama-2-7b-h200-b120",
        "Llama-2-7B",
        trt_fp8!("model=llama-2-7b&gpu=h200&batch=120&prompt-tokens=128&output-tokens=2048"),
        120.0,
        1.0,
        8343.0,
    ),
    trt_static(
        "trt-llama-2-7b-l40s-b64",
        "Llama-2-7B",
        trt_fp8!("model=llama-2-7b&gpu=l40s&batch=64&prompt-tokens=128&output-tokens=2048"),
        64.0,
        1.0,
        1654.0,
    ),
    trt_static(
        "trt-llama-2-70b-h100-tp2-b64",
        "Llama-2-70B",
        trt_fp8!("model=llama-2-70b&gpu=h100-80gb&serve-tp=2&batch=64&prompt-tokens=2048&output-tokens=2048"),
        64.0,
        2.0,
        1020.0,
    ),
    trt_static(
        "trt-llama-2-70b-h200-b64",
        "Llama-2-70B",
        trt_fp8!("model=llama-2-70b&gpu=h200&batch=64&prompt-tokens=2048&output-tokens=2048"),
        64.0,
        1.0,
        1461.0,
    ),
    // vLLM 0.19.1 on "a single H100 GPU" (SXM or PCIe not said), concurrency 1,
    // 128 output tokens, the post's fitted ITL at three input lengths.
    inferred(row(
        "vllm-llama-3.1-8b-1k",
        (Engine::Vllm, "0.19.1"),
        "Llama-3.1-8B",
        "model=llama-3-8b&gpu=h100-80gb&inference-dtype=bf16&prompt-tokens=1000&output-tokens=128",
        Measure::Tpot,
        vllm_fit(6.44, 4.37e-5, 1000.0),
        VLLM_FP8_KV,
    )),
    inferred(row(
        "vllm-llama-3.1-8b-32k",
        (Engine::Vllm, "0.19.1"),
        "Llama-3.1-8B",
        "model=llama-3-8b&gpu=h100-80gb&inference-dtype=bf16&prompt-tokens=32000&output-tokens=128",
        Measure::Tpot,
        vllm_fit(6.44, 4.37e-5, 32000.0),
        VLLM_FP8_KV,
    )),
    inferred(row(
        "vllm-llama-3.1-8b-125k",
        (Engine::Vllm, "0.19.1"),
        "Llama-3.1-8B",
        "model=llama-3-8b&gpu=h100-80gb&inference-dtype=bf16&prompt-tokens=125000&output-tokens=128",
        Measure::Tpot,
        vllm_fit(6.44, 4.37e-5, 125000.0),
        VLLM_FP8_KV,
    )),
    inferred(row(
        "vllm-llama-3.1-8b-125k-fp8-kv",
        (Engine::Vllm, "0.19.1"),
        "Llama-3.1-8B",
        "model=llama-3-8b&gpu=h100-80gb&inference-dtype=bf16&kv-dtype=fp8&prompt-tokens=125000&output-tokens=128",
        Measure::Tpot,
        vllm_fit(6.58, 2.37e-5, 125000.0),
        VLLM_FP8_KV,
    )),
    // llama.cpp's llama-bench tg512 (512 tokens from an empty prompt), Llama 3 8B F16, May 2024.
    row(
        "llama-cpp-llama-3-8b-rtx-4090",
        (Engine::LlamaCpp, "2024-05"),
        "Llama-3-8B",
        "model=llama-3-8b&gpu=rtx-4090&prompt-tokens=1&output-tokens=512",
        Measure::Tpot,
        1.0 / 54.84,
        LLAMA_CPP_2024,
    ),
    row(
        "llama-cpp-llama-3-8b-l40s",
        (Engine::LlamaCpp, "2024-05"),
        "Llama-3-8B",
        "model=llama-3-8b&gpu=l40s&prompt-tokens=1&output-tokens=512",
        Measure::Tpot,
        1.0 / 43.69,
        LLAMA_CPP_2024,
    ),
    with_gap(
        row(
            "llama-cpp-llama-3-8b-a100",
            (Engine::LlamaCpp, "2024-05"),
            "Llama-3-8B",
            "model=llama-3-8b&gpu=a100-80gb&prompt-tokens=1&output-tokens=512",
            Measure::Tpot,
            1.0 / 53.49,
            LLAMA_CPP_2024,
        ),
        Gap::LlamaCppF16,
    ),
    with_gap(
        row(
            "llama-cpp-llama-3-8b-h100-pcie",
            (Engine::LlamaCpp, "2024-05"),
            "Llama-3-8B",
            "model=llama-3-8b&gpu=h100-pcie&prompt-tokens=1&output-tokens=512",
            Measure::Tpot,
            1.0 / 68.03,
            LLAMA_CPP_2024,
        ),
        Gap::LlamaCppF16,
    ),
    // llama-bench pp512 in micro-batches of one token (`-ub 1`): 512 decode-sized steps, BF16, Aug 2025.
    row(
        "llama-cpp-llama-3-8b-bf16-rtx-4090",
        (Engine::LlamaCpp, "2025-08"),
        "Llama-3-8B",
        "model=llama-3-8b&gpu=rtx-4090&inference-dtype=bf16&prompt-tokens=1&output-tokens=512",
        Measure::Tpot,
        1.0 / 65.20,
        LLAMA_CPP_15131,
    ),
    // NIM 1.8.0, "2 x H100 80G" (SXM not said), fp8, TP2, concurrency 1.
    inferred(row(
        "nim-llama-3.3-70b-tp2-500",
        (Engine::Nim, "1.8.0"),
        "Llama-3.3-70B",
        "model=llama-3-70b&gpu=h100-80gb&inference-dtype=fp8&serve-tp=2&prompt-tokens=500&output-tokens=2000",
        Measure::Tpot,
        18.91e-3,
        NIM_18,
    )),
    inferred(row(
        "nim-llama-3.3-70b-tp2-500-ttft",
        (Engine::Nim, "1.8.0"),
        "Llama-3.3-70B",
        "model=llama-3-70b&gpu=h100-80gb&inference-dtype=fp8&serve-tp=2&prompt-tokens=500&output-tokens=2000",
        Measure::Ttft,
        47.77e-3,
        NIM_18,
    )),
    inferred(row(
        "nim-llama-3.3-70b-tp2-5000",
        (Engine::Nim, "1.8.0"),
        "Llama-3.3-70B",
        "model=llama-3-70b&gpu=h100-80gb&inference-dtype=fp8&serve-tp=2&prompt-tokens=5000&output-tokens=500",
        Measure::Tpot,
        18.58e-3,
        NIM_18,
    )),
];

/// A row evaluated.
#[derive(Clone, Copy, Debug)]
pub struct Checked {
    pub row: &'static Row,
    /// The core's figure, seconds.
    pub predicted: f64,
    /// Decode at batch 1 (the batch-1 threshold's rows).
    pub batch_one_decode: bool,
}

impl Checked {
    pub fn error(&self) -> f64 {
        self.predicted / self.row.measured - 1.0
    }
    /// Whether the row counts for the thresholds: its setup fully published.
    pub fn counts(&self) -> bool {
        !self.row.inferred
    }
    /// Within the row limit, or its gap named, or not counted.
    pub fn within(&self) -> bool {
        !self.counts() || self.row.gap.is_some() || self.error().abs() <= ROW_LIMIT
    }
}

/// Evaluates a row.
pub fn check(row: &'static Row) -> Option<Checked> {
    let c = crate::link::config(row.query)?;
    let r = evaluate(&c);
    Some(Checked { row, predicted: row.measure.predicted(&c, &r), batch_one_decode: row.measure.batch_one_decode(&c) })
}

/// Every row, evaluated.
pub fn table() -> Vec<Checked> {
    ROWS.iter().filter_map(check).collect()
}

/// The median |error| of the counted rows that `keep` selects.
pub fn median_error(rows: &[Checked], keep: impl Fn(&Checked) -> bool) -> f64 {
    crate::validation::median(rows.iter().filter(|r| r.counts() && keep(r)).map(|r| r.error().abs()))
}

/// The KV pool against vLLM's own startup logs ("GPU KV cache size: N tokens"):
/// one row per log.
#[derive(Clone, Copy, Debug)]
pub struct PoolRow {
    pub name: &'static str,
    /// vLLM's version.
    pub version: &'static str,
    pub model: &'static str,
    /// The run, as a link's query (model, GPU, mem-util, replica, cache type).
    pub query: &'static str,
    /// The tokens the log prints ("GPU KV cache size").
    pub tokens: f64,
    /// The requests of [`POOL_MODEL_LEN`] tokens it prints ("Maximum concurrency").
    pub concurrency: f64,
    pub source: &'static str,
    /// What the calculator leaves out for this log.
    pub gap: Option<PoolGap>,
}

/// The logs' `--max-model-len`: the request length of their "Maximum concurrency".
pub const POOL_MODEL_LEN: f64 = 8192.0;

/// What the pool leaves out, where a log shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoolGap {
    /// The memory outside PyTorch that grows while profiling at t ≥ 2 (2.1 GiB
    /// in the v0.19.0 logs: the collectives' buffers) is not modelled: a small
    /// pool, or a model whose forward pass peaks above its sampler, feels it.
    NonTorch,
    /// The checkpoint is a vision-language model: vLLM loads its vision encoder
    /// beside the text model and profiles it with dummy images; the catalogue's
    /// shape is the text model alone (Gemma 3 27B: 51.45 GiB loaded against its
    /// text model's 50.31).
    Vision,
}

impl PoolGap {
    pub fn as_str(self) -> &'static str {
        match self {
            PoolGap::NonTorch => "non-torch",
            PoolGap::Vision => "vision",
        }
    }
}

/// The largest |error| of a pool row without its gap.
pub const POOL_LIMIT: f64 = 0.05;

const LLM_D_LOGS: &str = "https://github.com/llm-d-incubation/llm-d-planner/tree/d3121e059da88662db39a926a3ead964be97359b/accuracy/results/v0.19.0/logs";

/// vLLM 0.19.0's `vllm serve` on H100 80GB with `--gpu-memory-utilization 0.95`,
/// bf16, its defaults otherwise (the llm-d-planner project's logs).
macro_rules! llm_d {
    ($rest:expr) => {
        concat!("gpu=h100-80gb&inference-dtype=bf16&mem-util=0.95&", $rest)
    };
}

const fn pool(
    name: &'static str,
    model: &'static str,
    query: &'static str,
    (tokens, concurrency): (f64, f64),
) -> PoolRow {
    PoolRow { name, version: "0.19.0", model, query, tokens, concurrency, source: LLM_D_LOGS, gap: None }
}

const fn pool_gap(r: PoolRow) -> PoolRow {
    PoolRow { gap: Some(PoolGap::NonTorch), ..r }
}

/// Gemma 2's shape (google/gemma-2-*-it config.json: a gated GELU MLP, tied
/// embeddings of 256,000, every other layer sliding over 4,096 tokens), not in
/// the catalogue: the row's query gives it, P is the shape's count.
macro_rules! gemma2 {
    ($shape:literal) => {
        llm_d!(concat!($shape, "&mlp=swiglu&tie-embeddings=1&vocab=256000&sliding-window=4096&global-every=2"))
    };
}

/// The logs: every dense or MoE model of the catalogue among them, in 16-bit weights.
pub static POOL_ROWS: &[PoolRow] = &[
    pool("vllm-pool-llama-3.1-8b", "Llama-3.1-8B-Instruct", llm_d!("model=llama-3-8b"), (476_016.0, 58.11)),
    pool(
        "vllm-pool-llama-3.1-8b-tp2",
        "Llama-3.1-8B-Instruct",
        llm_d!("model=llama-3-8b&serve-tp=2"),
        (1_044_688.0, 127.53),
    ),
    pool(
        "vllm-pool-llama-3.1-8b-tp4",
        "Llama-3.1-8B-Instruct",
        llm_d!("model=llama-3-8b&serve-tp=4"),
        (2_209_792.0, 269.75),
    ),
    pool(
        "vllm-pool-llama-3.1-8b-pp2",
        "Llama-3.1-8B-Instruct",
        llm_d!("model=llama-3-8b&serve-pp=2"),
        (1_075_312.0, 131.26),
    ),
    pool(
        "vllm-pool-llama-3.1-8b-fp8-kv",
        "Llama-3.1-8B-Instruct",
        llm_d!("model=llama-3-8b&kv-dtype=fp8"),
        (952_032.0, 116.21),
    ),
    pool("vllm-pool-qwen2.5-7b", "Qwen2.5-7B-Instruct", llm_d!("model=qwen2.5-7b"), (1_096_000.0, 133.79)),
    pool(
        "vllm-pool-qwen2.5-7b-tp2",
        "Qwen2.5-7B-Instruct",
        llm_d!("model=qwen2.5-7b&serve-tp=2"),
        (2_390_592.0, 291.82),
    ),
    pool(
        "vllm-pool-qwen2.5-7b-tp4",
        "Qwen2.5-7B-Instruct",
        llm_d!("model=qwen2.5-7b&serve-tp=4"),
        (5_043_280.0, 615.63),
    ),
    // Sliding windows (issue 37): Gemma 2's three sizes, every other layer over 4,096
    // tokens; at 8,192 tokens a sliding layer still holds W − 1 + 8,192 batched tokens.
    pool(
        "vllm-pool-gemma-2-2b",
        "gemma-2-2b-it",
        gemma2!("hidden=2304&layers=26&heads=8&kv-heads=4&head-dim=256&ffn=9216"),
        (670_160.0, 81.73),
    ),
    pool(
        "vllm-pool-gemma-2-9b",
        "gemma-2-9b-it",
        gemma2!("hidden=3584&layers=42&heads=16&kv-heads=8&head-dim=256&ffn=14336"),
        (168_880.0, 20.60),
    ),
    pool(
        "vllm-pool-gemma-2-27b",
        "gemma-2-27b-it",
        gemma2!("hidden=4608&layers=46&heads=32&kv-heads=16&head-dim=128&ffn=36864"),
        (58_672.0, 7.16),
    ),
    // Gemma 3 27B: 10 global and 52 sliding layers, grouped by ten with 8 padding layers.
    PoolRow {
        gap: Some(PoolGap::Vision),
        ..pool("vllm-pool-gemma-3-27b", "gemma-3-27b-it", llm_d!("model=gemma-3-27b"), (36_560.0, 4.46))
    },
    // gpt-oss-20b as released (MXFP4 experts) at vLLM's default mem-util 0.9: its 12 and
    // 12 layers make two groups. Its 7.01 GiB of weights per GPU are 0.6 over the
    // file's (the MXFP4 kernels' padded expert matrices, not modelled).
    pool_gap(pool(
        "vllm-pool-gpt-oss-20b-tp2",
        "gpt-oss-20b",
        "gpu=h100-80gb&inference-dtype=mxfp4&mem-util=0.9&model=gpt-oss-20b&serve-tp=2",
        (2_591_776.0, 316.07),
    )),
    pool_gap(pool(
        "vllm-pool-mixtral-tp2",
        "Mixtral-8x7B-Instruct",
        llm_d!("model=mixtral-8x7b&serve-tp=2"),
        (465_936.0, 56.88),
    )),
    // Kimi-Dev-72B: Qwen2.5-72B's shape.
    pool_gap(pool(
        "vllm-pool-kimi-dev-72b-tp4",
        "Kimi-Dev-72B",
        llm_d!("model=qwen2.5-72b&serve-tp=4"),
        (481_296.0, 58.75),
    )),
    pool_gap(pool(
        "vllm-pool-qwen2.5-72b-tp2",
        "Qwen2.5-72B-Instruct",
        llm_d!("model=qwen2.5-72b&serve-tp=2"),
        (19_920.0, 2.43),
    )),
];

/// A pool row evaluated: the calculator's tokens (whole blocks of 16, as vLLM counts them).
#[derive(Clone, Copy, Debug)]
pub struct PoolChecked {
    pub row: &'static PoolRow,
    pub tokens: f64,
    /// Requests of [`POOL_MODEL_LEN`] tokens the pool holds at once.
    pub concurrency: f64,
}

impl PoolChecked {
    pub fn error(&self) -> f64 {
        self.tokens / self.row.tokens - 1.0
    }
    pub fn concurrency_error(&self) -> f64 {
        self.concurrency / self.row.concurrency - 1.0
    }
    pub fn within(&self) -> bool {
        self.row.gap.is_some() || self.error().abs().max(self.concurrency_error().abs()) <= POOL_LIMIT
    }
}

/// Evaluates a pool row (`None` if its query no longer loads).
pub fn check_pool(row: &'static PoolRow) -> Option<PoolChecked> {
    use crate::serving::memory;
    let c = crate::link::config(row.query)?;
    let concurrency = memory::kv_pool_blocks(&c) / memory::kv_blocks_per_request(&c, POOL_MODEL_LEN);
    Some(PoolChecked { row, tokens: memory::kv_pool_tokens(&c), concurrency })
}

/// Every pool row, evaluated.
pub fn pool_table() -> Vec<PoolChecked> {
    POOL_ROWS.iter().filter_map(check_pool).collect()
}

/// A quantized checkpoint's published size against the calculator's weights
/// in its format ([`crate::serving::formats::weight_bytes`]): the file is its
/// weights (and, for a GGUF, the tokenizer in its metadata, not counted).
#[derive(Clone, Copy, Debug)]
pub struct FileRow {
    pub name: &'static str,
    /// The repository and the file(s), as the Hub lists them.
    pub repo: &'static str,
    pub file: &'static str,
    /// The model whose shape it holds, as published (a fine-tune's shape is its base's; the
    /// query sets a vocabulary that differs from the catalogue's).
    pub model: &'static str,
    /// Its shape and format, as a link's query.
    pub query: &'static str,
    /// Its size in bytes as published.
    pub bytes: f64,
    /// Whether the size is exact bytes (the Hub's file listing) or a model card's GB figure (3 digits).
    pub exact: bool,
}

impl FileRow {
    /// The repository on the Hugging Face Hub.
    pub fn url(&self) -> String {
        format!("https://huggingface.co/{}", self.repo)
    }

    /// Its format, as its query names it (`inference-dtype`).
    pub fn format(&self) -> &'static str {
        self.query.split("inference-dtype=").nth(1).and_then(|v| v.split('&').next()).unwrap_or("")
    }
}

/// The largest |error| of one file, and of their median (issue 37).
pub const FILE_LIMIT: f64 = 0.04;
pub const FILE_MEDIAN_LIMIT: f64 = 0.02;

const fn file(
    name: &'static str,
    (repo, file): (&'static str, &'static str),
    model: &'static str,
    query: &'static str,
    bytes: f64,
    exact: bool,
) -> FileRow {
    FileRow { name, repo, file, model, query, bytes, exact }
}

/// Checkpoints of nine formats: GGUF's six file types as llama.cpp makes
/// them (TheBloke's, bartowski's and Qwen's own), MXFP4 as gpt-oss is
/// released, GPTQ and AWQ int4 (TheBloke's, group 128). Exact sizes are the
/// Hub's file listings; the GPTQ and AWQ sizes are their model cards' tables
/// (GB, three digits). `docs/research/quantized-files.md` has where each was read.
pub static FILE_ROWS: &[FileRow] = &[
    file(
        "llama-2-7b-chat-q4_k_m",
        ("TheBloke/Llama-2-7B-Chat-GGUF", "llama-2-7b-chat.Q4_K_M.gguf"),
        "Llama 2 7B",
        "model=llama-2-7b&inference-dtype=q4_k_m",
        4_081_004_224.0,
        true,
    ),
    file(
        "llama-2-7b-chat-q5_k_m",
        ("TheBloke/Llama-2-7B-Chat-GGUF", "llama-2-7b-chat.Q5_K_M.gguf"),
        "Llama 2 7B",
        "model=llama-2-7b&inference-dtype=q5_k_m",
        4_783_156_928.0,
        true,
    ),
    file(
        "llama-2-7b-chat-q8_0",
        ("TheBloke/Llama-2-7B-Chat-GGUF", "llama-2-7b-chat.Q8_0.gguf"),
        "Llama 2 7B",
        "model=llama-2-7b&inference-dtype=q8_0",
        7_161_089_728.0,
        true,
    ),
    file(
        "codellama-13b-q4_k_m",
        ("TheBloke/CodeLlama-13B-Instruct-GGUF", "codellama-13b-instruct.Q4_K_M.gguf"),
        "CodeLlama 13B",
        "model=llama-2-13b&vocab=32016&inference-dtype=q4_k_m",
        7_866_070_016.0,
        true,
    ),
    file(
        "mistral-7b-v0.1-q4_k_m",
        ("TheBloke/Mistral-7B-Instruct-v0.1-GGUF", "mistral-7b-instruct-v0.1.Q4_K_M.gguf"),
        "Mistral 7B v0.1",
        "model=mistral-7b&inference-dtype=q4_k_m",
        4_368_438_944.0,
        true,
    ),
    file(
        "mistral-7b-v0.3-q3_k_m",
        ("bartowski/Mistral-7B-Instruct-v0.3-GGUF", "Mistral-7B-Instruct-v0.3-Q3_K_M.gguf"),
        "Mistral 7B v0.3",
        "model=mistral-7b&vocab=32768&inference-dtype=q3_k_m",
        3_522_941_152.0,
        true,
    ),
    file(
        "mistral-7b-v0.3-q6_k",
        ("bartowski/Mistral-7B-Instruct-v0.3-GGUF", "Mistral-7B-Instruct-v0.3-Q6_K.gguf"),
        "Mistral 7B v0.3",
        "model=mistral-7b&vocab=32768&inference-dtype=q6_k",
        5_947_248_864.0,
        true,
    ),
    file(
        "llama-3.1-8b-q3_k_m",
        ("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", "Meta-Llama-3.1-8B-Instruct-Q3_K_M.gguf"),
        "Llama 3.1 8B",
        "model=llama-3-8b&inference-dtype=q3_k_m",
        4_018_922_912.0,
        true,
    ),
    file(
        "llama-3.1-8b-q4_k_m",
        ("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", "Meta-Llama-3.1-8B-Instruct-Q4_K_M.gguf"),
        "Llama 3.1 8B",
        "model=llama-3-8b&inference-dtype=q4_k_m",
        4_920_739_232.0,
        true,
    ),
    file(
        "llama-3.1-8b-q5_k_m",
        ("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", "Meta-Llama-3.1-8B-Instruct-Q5_K_M.gguf"),
        "Llama 3.1 8B",
        "model=llama-3-8b&inference-dtype=q5_k_m",
        5_732_992_416.0,
        true,
    ),
    file(
        "llama-3.1-8b-q6_k",
        ("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", "Meta-Llama-3.1-8B-Instruct-Q6_K.gguf"),
        "Llama 3.1 8B",
        "model=llama-3-8b&inference-dtype=q6_k",
        6_596_011_424.0,
        true,
    ),
    file(
        "llama-3.1-8b-q8_0",
        ("bartowski/Meta-Llama-3.1-8B-Instruct-GGUF", "Meta-Llama-3.1-8B-Instruct-Q8_0.gguf"),
        "Llama 3.1 8B",
        "model=llama-3-8b&inference-dtype=q8_0",
        8_540_775_840.0,
        true,
    ),
    file(
        "qwen2.5-7b-q4_0",
        ("Qwen/Qwen2.5-7B-Instruct-GGUF", "qwen2.5-7b-instruct-q4_0 (2 parts)"),
        "Qwen2.5 7B",
        "model=qwen2.5-7b&inference-dtype=q4_0",
        4_431_390_848.0,
        true,
    ),
    file(
        "qwen2.5-7b-q8_0",
        ("Qwen/Qwen2.5-7B-Instruct-GGUF", "qwen2.5-7b-instruct-q8_0 (3 parts)"),
        "Qwen2.5 7B",
        "model=qwen2.5-7b&inference-dtype=q8_0",
        8_098_525_408.0,
        true,
    ),
    file(
        "gpt-oss-20b-mxfp4",
        ("openai/gpt-oss-20b", "model-0000{0,1,2}-of-00002.safetensors"),
        "gpt-oss-20b",
        "model=gpt-oss-20b&inference-dtype=mxfp4",
        13_761_316_904.0,
        true,
    ),
    file(
        "llama-2-7b-chat-gptq",
        ("TheBloke/Llama-2-7b-Chat-GPTQ", "model.safetensors (main)"),
        "Llama 2 7B",
        "model=llama-2-7b&inference-dtype=gptq-int4",
        3.90e9,
        false,
    ),
    file(
        "mistral-7b-v0.1-gptq",
        ("TheBloke/Mistral-7B-Instruct-v0.1-GPTQ", "model.safetensors (main)"),
        "Mistral 7B v0.1",
        "model=mistral-7b&inference-dtype=gptq-int4",
        4.16e9,
        false,
    ),
    file(
        "llama-2-13b-gptq",
        ("TheBloke/MythoMax-L2-13B-GPTQ", "model.safetensors (main)"),
        "Llama 2 13B",
        "model=llama-2-13b&inference-dtype=gptq-int4",
        7.26e9,
        false,
    ),
    file(
        "mistral-7b-v0.1-awq",
        ("TheBloke/Mistral-7B-v0.1-AWQ", "model.safetensors"),
        "Mistral 7B v0.1",
        "model=mistral-7b&inference-dtype=awq-int4",
        4.15e9,
        false,
    ),
    file(
        "llama-2-7b-awq",
        ("TheBloke/LlamaGuard-7B-AWQ", "model.safetensors"),
        "Llama 2 7B",
        "model=llama-2-7b&inference-dtype=awq-int4",
        3.89e9,
        false,
    ),
    file(
        "llama-2-13b-awq",
        ("TheBloke/LLaMA2-13B-Tiefighter-AWQ", "model.safetensors"),
        "Llama 2 13B",
        "model=llama-2-13b&inference-dtype=awq-int4",
        7.25e9,
        false,
    ),
    file(
        "llama-2-70b-awq",
        ("TheBloke/Upstage-Llama-2-70B-instruct-v2-AWQ", "model.safetensors"),
        "Llama 2 70B",
        "model=llama-2-70b&inference-dtype=awq-int4",
        36.61e9,
        false,
    ),
];

/// A file row evaluated: the calculator's weights in bytes.
#[derive(Clone, Copy, Debug)]
pub struct FileChecked {
    pub row: &'static FileRow,
    pub bytes: f64,
}

impl FileChecked {
    pub fn error(&self) -> f64 {
        self.bytes / self.row.bytes - 1.0
    }
    pub fn within(&self) -> bool {
        self.error().abs() <= FILE_LIMIT
    }
}

/// Evaluates a file row (`None` if its query no longer loads).
pub fn check_file(row: &'static FileRow) -> Option<FileChecked> {
    let c = crate::link::config(row.query)?;
    Some(FileChecked { row, bytes: crate::serving::formats::weight_bytes(&c) })
}

/// Every file row, evaluated.
pub fn file_table() -> Vec<FileChecked> {
    FILE_ROWS.iter().filter_map(check_file).collect()
}

/// The median |error| of the file rows.
pub fn file_median_error(rows: &[FileChecked]) -> f64 {
    crate::validation::median(rows.iter().map(|r| r.error().abs()))
}
