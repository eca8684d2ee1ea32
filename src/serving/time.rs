//! A serving replica's time on the roofline. Decode reads every weight a step
//! needs and the batch's KV cache once per step, at the achieved memory
//! bandwidth, and computes 2·P_active FLOPs per token plus attention over the
//! context, at the achieved FLOP/s: the step is the longer of the two (Kipply
//! 2022; Williams et al. 2009, "Roofline"). Prefill computes a prompt's
//! tokens together. Tensor parallelism adds two all-reduces per layer
//! (Shoeybi et al. 2019, §3), pipeline stages a hop between neighbours.
//!
//! Beyond the roofline, two fixed costs that measured decode shows: every
//! kernel of a step takes a few microseconds however little it reads
//! ([`kernel_seconds`]), and an engine whose scheduler does not overlap the GPU
//! makes it wait for the host's work between steps (`host-ms`).

use super::formats;
use super::memory::{
    kv_bytes_per_token_per_gpu, stage_attention_layers, stage_layers, stage_linear_layers,
    state_bytes_per_sequence_per_gpu, weight_bytes_per_gpu,
};
use super::Bound;
use crate::config::Config;
use serde::Serialize;

/// A decode step's parts, seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Step {
    /// Reading the weights the step touches and the batch's KV cache, every stage.
    pub memory: f64,
    /// The arithmetic, every stage.
    pub compute: f64,
    /// Tensor-parallel all-reduces, every stage.
    pub tp_comm: f64,
    /// The hops between pipeline stages.
    pub pp_comm: f64,
    /// The kernels' fixed time, every stage ([`kernel_seconds`]).
    pub kernels: f64,
    /// The engine's host time the GPU waits for (`host-ms`).
    pub host: f64,
    /// max(memory, compute) + kernels + tp_comm + pp_comm + host: the time per output token.
    pub total: f64,
}

impl Step {
    /// Which side of the roofline holds.
    pub fn bound(&self) -> Bound {
        if self.compute > self.memory {
            Bound::Compute
        } else {
            Bound::Memory
        }
    }
}

/// The distinct experts a batch of `b` tokens routes to in one MoE layer, on
/// average, when each takes `k` of `e` uniformly: e·(1 − (1 − k/e)^b). At b = 1
/// it is k; as b grows every expert is read.
pub fn experts_touched(e: f64, k: f64, b: f64) -> f64 {
    if e <= 0.0 || k >= e {
        return e.max(0.0);
    }
    e * (1.0 - (1.0 - k / e).powf(b))
}

/// The weight bytes a decode step of `b` sequences reads on one GPU: every
/// weight but an untied input embedding ([`input_embedding`]: b rows looked
/// up, nearly nothing), and of the routed experts only those some token of the
/// batch routes to ([`experts_touched`]).
pub fn weight_bytes_read(c: &Config, b: f64) -> f64 {
    let a = c.arch;
    let held = weight_bytes_per_gpu(c);
    let per_gpu = (c.serving.serve_tp * c.serving.serve_pp) as f64;
    let experts = a.expert_params().get();
    let untouched = if a.is_moe() {
        experts * (1.0 - experts_touched(a.experts as f64, a.top_k as f64, b) / a.experts as f64)
    } else {
        0.0
    };
    // Each in its own format's bytes (a GGUF or GPTQ file keeps the embedding wider than the experts).
    let bytes = formats::unread_bytes_per_param(c);
    let unread = input_embedding(c) * bytes.embedding + untouched * bytes.experts;
    (held - unread / per_gpu).max(0.0)
}

/// The input embedding's parameters when it is its own matrix (untied): looked
/// up a row per token, never streamed whole nor multiplied by. Tied, the matrix
/// is the output layer's, read and multiplied by every step.
pub fn input_embedding(c: &Config) -> f64 {
    let a = c.arch;
    if a.tie_embeddings {
        0.0
    } else {
        (a.vocab * a.hidden) as f64
    }
}

/// The mean context a decode step attends over: the prompt and half the output.
pub fn mean_context(c: &Config) -> f64 {
    c.serving.prompt_tokens as f64 + c.serving.output_tokens as f64 / 2.0
}

/// The latency of one small all-reduce over `t` GPUs, seconds: vLLM's custom
/// all-reduce on H100 NVLink at decode's sizes (128 KiB), 8.7, 9.2 and 11.8 µs
/// at t = 2, 4 and 8 (sgl-project/sglang PR #2904's table); across nodes,
/// NCCL's ring at 10–160 KB, 27.8 µs and up (meta-pytorch/kraken PR #7). A
/// hop between two pipeline stages is taken as the two-GPU figure.
pub fn link_latency_s(t: u64) -> f64 {
    1e-6 * match t {
        0..=2 => 8.7,
        3..=4 => 9.2,
        5..=8 => 11.8,
        _ => 27.8,
    }
}

/// One all-reduce of `bytes` over the replica's tensor ranks: the link's
/// latency plus a ring's 2(t − 1)/t of the data at the link's bandwidth
/// (Thakur et al. 2005), or nothing at t = 1.
pub fn allreduce_seconds(c: &Config, bytes: f64) -> f64 {
    let t = c.serving.serve_tp;
    if t <= 1 {
        return 0.0;
    }
    let t_f = t as f64;
    link_latency_s(t) + 2.0 * (t_f - 1.0) / t_f * bytes / link_bytes_per_s(c)
}

/// The bandwidth between the replica's GPUs: inside a node when it fits one.
fn link_bytes_per_s(c: &Config) -> f64 {
    let gpus = c.serving.serve_tp * c.serving.serve_pp;
    if gpus <= c.system.gpus_per_node {
        c.system.intra_node_bytes_per_s
    } else {
        c.system.inter_node_bytes_per_s
    }
}

/// The kernels one dense decoder layer launches in a step, as vLLM runs a
/// Llama layer (`vllm/model_executor/models/llama.py` @0035bdf): the fused
/// add + RMSNorm, the QKV projection, rotary, the cache write
/// (`reshape_and_cache_flash`), attention, the output projection, the second
/// fused add + RMSNorm, gate_up, SiLU-and-multiply, down.
pub const DENSE_LAYER_KERNELS: f64 = 10.0;

/// A mixture-of-experts layer's MLP as vLLM's `fused_moe` runs it instead of
/// the dense three (gate_up, activation, down): the router's GEMM,
/// `topk_softmax`, `moe_align_block_size`, the grouped w13 GEMM, the
/// activation, the grouped w2 GEMM and `moe_sum`: four more kernels, and the
/// shared experts' dense three where there are any.
pub const MOE_EXTRA_KERNELS: f64 = 4.0;

/// Once per step: the embedding lookup, the final norm, the output layer and
/// the sampler's argmax.
pub const STEP_KERNELS: f64 = 4.0;

/// The fixed time of one kernel in a CUDA-graph replay, seconds: its launch
/// gap, the memory's latency before the stream reaches full rate, and the last
/// wave's tail. cuBLAS's bf16 matrix-vector product on an H100 inside a CUDA
/// graph took 46.0 µs for 12288×5376 and 150.5 µs for 43008×5376 (vLLM PR
/// #49363, `bench_fp8_gemm.py`, M = 1: 2.870 and 3.072 TFLOP/s): t = 4.2 µs +
/// bytes ÷ 3.16 TB/s. Hazy Research (2025, "Look Ma, No Bubbles!") measures
/// the launch alone at 1.3 µs in a graph and counts "an optimistic 5 us of
/// stalling per kernel".
pub const KERNEL_FLOOR_S: f64 = 4.2e-6;

/// The kernels of one step on the busiest stage: ⌈L/p⌉ layers of
/// [`DENSE_LAYER_KERNELS`] (a MoE layer's [`MOE_EXTRA_KERNELS`] more, its
/// shared experts' three more), and the step's own [`STEP_KERNELS`] once.
pub fn kernels_per_step(c: &Config) -> f64 {
    let a = c.arch;
    let layers = stage_layers(c);
    let moe_share = if a.is_moe() { a.moe_layers() / a.layers.max(1) as f64 } else { 0.0 };
    let shared = if a.shared_experts > 0 { 3.0 } else { 0.0 };
    let per_layer = DENSE_LAYER_KERNELS + moe_share * (MOE_EXTRA_KERNELS + shared);
    layers * per_layer + STEP_KERNELS
}

/// The kernels' fixed time of one stage-step: [`kernels_per_step`] × [`KERNEL_FLOOR_S`].
pub fn kernel_seconds(c: &Config) -> f64 {
    kernels_per_step(c) * KERNEL_FLOOR_S
}

/// One stage of a step over `tokens` tokens at once (`new` of them new, each
/// attending over `context` tokens): its memory side, its arithmetic and its
/// all-reduces. The stage holds ⌈L/p⌉ layers and 1/p of the weights, read at
/// the format's share of the bandwidth ([`formats::read_time_factor`]).
fn stage(c: &Config, tokens: f64, weights: f64, kv: f64, attention_flops: f64) -> (f64, f64, f64) {
    let s = &c.serving;
    let (t, p) = (s.serve_tp as f64, s.serve_pp as f64);
    // A quantized format's kernels reach less of the bandwidth than 16-bit weights ([`formats::read_share`]).
    let memory = (weights * formats::read_time_factor(c) + kv) / s.hbm_bytes_per_s;
    // 2 FLOPs per weight a token multiplies by: every active one but the input embedding's, which is looked up.
    let dense = 2.0 * (c.active_params.get() - input_embedding(c)) * tokens / (t * p);
    let compute = (dense + attention_flops / t) / s.flops_per_gpu;
    // Two all-reduces per layer of the tokens' hidden states in 16 bits.
    let comm = 2.0 * stage_layers(c) * allreduce_seconds(c, tokens * c.arch.hidden as f64 * 2.0);
    (memory, compute, comm)
}

/// The hops of a token's hidden states between `p` stages: (p − 1) sends.
fn hops(c: &Config, tokens: f64) -> f64 {
    let p = c.serving.serve_pp as f64;
    if p <= 1.0 {
        return 0.0;
    }
    (p - 1.0) * (link_latency_s(2) + tokens * c.arch.hidden as f64 * 2.0 / link_bytes_per_s(c))
}

/// A decode step with `b` sequences at the mean context ([`mean_context`]).
/// With p stages the engine keeps p micro-batches of ⌈b/p⌉ in flight (vLLM's
/// virtual engines), and a token passes every stage: p stage-steps.
pub fn decode_step(c: &Config, b: u64) -> Step {
    let m = b.div_ceil(c.serving.serve_pp.max(1)).max(1);
    decode_step_of(c, m as f64, mean_context(c))
}

/// A decode step whose stages each take `m` sequences at `context` tokens.
fn decode_step_of(c: &Config, m: f64, context: f64) -> Step {
    let p = c.serving.serve_pp as f64;
    let a = c.arch;
    // A sliding layer reads and attends to its window's tokens at most; a linear layer reads
    // its state and writes it back, whatever the context.
    let attended = a.attended_tokens(context);
    let kv = m * (attended * kv_bytes_per_token_per_gpu(c) + 2.0 * state_bytes_per_sequence_per_gpu(c));
    // QKᵀ and the scores times V: 2 FLOPs per multiply-add, a·d_head wide, over the context, per
    // attending layer; a linear layer's recurrence per token ([`linear_flops_per_token`]).
    let attention =
        4.0 * m * attended * stage_attention_layers(c) * a.attention_width() + m * linear_flops_per_token(c);
    let (memory, compute, comm) = stage(c, m, weight_bytes_read(c, m), kv, attention);
    let step = Step {
        memory: p * memory,
        compute: p * compute,
        tp_comm: p * comm,
        pp_comm: hops(c, m),
        kernels: p * kernel_seconds(c),
        host: c.serving.host_seconds,
        total: 0.0,
    };
    Step { total: step.memory.max(step.compute) + step.kernels + step.tp_comm + step.pp_comm + step.host, ..step }
}

/// The recurrence of a hybrid model's linear layers for one token on the
/// busiest stage, before the tensor split: Gated DeltaNet's delta rule reads
/// its d_k × d_v state per head three times a token (Sₜ₋₁kₜ for the
/// correction, the rank-one update, Sₜqₜ for the output: Yang et al. 2024,
/// "Gated Delta Networks", §2.2, the recurrent form), 2 FLOPs per multiply-add:
/// 6 per state value. Mamba's selective scan does fewer (Gu & Dao 2023, §3.3:
/// the update and the readout), counted alike.
pub fn linear_flops_per_token(c: &Config) -> f64 {
    6.0 * c.arch.linear_state as f64 * stage_linear_layers(c)
}

/// Prefill of one prompt of `n` tokens: 2·P_active·n plus the causal
/// attention's 2·L·a·d_head·n² FLOPs (QKᵀ and the scores times V, each half of
/// n² under the causal mask), against reading the weights once and writing the
/// prompt's cache, stage after stage.
pub fn prefill_seconds(c: &Config, n: u64) -> f64 {
    batch_prefill_seconds(c, 1, n)
}

/// Prefill of `b` prompts of `n` tokens in one forward pass (a static batch,
/// as TensorRT-LLM's and vLLM's latency benchmarks run it): b·n tokens through
/// the weights, read once, and each prompt's own causal attention.
pub fn batch_prefill_seconds(c: &Config, b: u64, n: u64) -> f64 {
    let p = c.serving.serve_pp as f64;
    let (b, n) = (b as f64, n as f64);
    let attention = b * 4.0 * stage_attention_layers(c) * c.arch.attention_width() * c.arch.causal_pairs(n)
        + b * n * linear_flops_per_token(c);
    let kv = b * (n * kv_bytes_per_token_per_gpu(c) + state_bytes_per_sequence_per_gpu(c));
    let (memory, compute, comm) = stage(c, b * n, weight_bytes_per_gpu(c), kv, attention);
    p * (memory.max(compute) + kernel_seconds(c) + comm) + hops(c, b * n)
}

/// Time to the first token: the prompt's prefill, in one engine step beside the
/// running sequences' decode when there are others (vLLM V1 schedules the
/// running requests' decode first and new prompts in the same step, chunked
/// prefill), so that step's decode time too, and the host's time of one step.
/// No queue: the request is scheduled in the step after it arrives.
pub fn ttft_seconds(c: &Config) -> f64 {
    let b = c.serving.batch;
    // The others' decode step counts the host's time; alone, the step is the host's and the prefill's.
    let step = if b > 1 { decode_step(c, b - 1).total } else { c.serving.host_seconds };
    prefill_seconds(c, c.serving.prompt_tokens) + step
}

/// The batch at which decode turns compute-bound at a short context: where
/// 2·P_active·B FLOPs take as long as reading the weights the batch touches.
/// Dense 16-bit weights: B* = rate × 2 bytes ÷ (2 × bandwidth), 312 TFLOP/s
/// against 1.555 TB/s ≈ 201 (Kipply: 208 at 1.5 TB/s). A mixture of experts
/// reads more of its experts as B grows: there it is found by bisection.
pub fn crossover_batch(c: &Config) -> f64 {
    crossover_at(c, 0.0)
}

/// The same crossover at the requests' mean context ([`mean_context`]): each
/// sequence then adds its cache's bytes to the memory side as well as its
/// attention's FLOPs to the compute side. Where a sequence's cache takes longer
/// to read than its arithmetic takes to compute (full multi-head attention in
/// 16 bits at a few thousand tokens, on any GPU of today), no batch turns
/// decode compute-bound: infinite.
pub fn crossover_batch_at_context(c: &Config) -> f64 {
    crossover_at(c, mean_context(c))
}

/// The batch (all stages' sequences: p micro-batches of m, as [`decode_step`]
/// keeps them) at which a decode step's compute side reaches its memory side,
/// every sequence at `context` tokens.
fn crossover_at(c: &Config, context: f64) -> f64 {
    let p = c.serving.serve_pp.max(1) as f64;
    let side = |m: f64| {
        let s = decode_step_of(c, m, context);
        (s.memory, s.compute)
    };
    if !c.arch.is_moe() {
        // Dense: memory = M₀ + m·k (the weights, then each sequence's cache), compute = m·f.
        let ((m0, _), (m1, f)) = (side(0.0), side(1.0));
        let k = m1 - m0;
        return if f > k { p * m0 / (f - k) } else { f64::INFINITY };
    }
    let gap = |m: f64| {
        let (memory, compute) = side(m);
        compute - memory
    };
    let (mut lo, mut hi) = (0.0, 1e7);
    if gap(hi) < 0.0 {
        return f64::INFINITY;
    }
    // 64 halvings of 10⁷ leave an interval far below one sequence.
    for _ in 0..64 {
        let mid = 0.5 * (lo + hi);
        if gap(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    p * 0.5 * (lo + hi)
}
