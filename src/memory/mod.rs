//! Memory: inference, and training per GPU (article, "Memory Requirements" and
//! "Distributed Training"; ZeRO paper; Korthikanti et al. 2022).

mod parts;
mod stages;

pub use parts::{MemoryBreakdown, Part};
pub use stages::*;

use crate::config::*;
use crate::units::{Bytes, BytesPerParam, Params};
use serde::Serialize;

/// Weights when serving: int8 = 1, fp16/bf16 = 2, fp32 = 4 bytes/param (article,
/// "Model Weights"); int4 = 0.5 is a refinement. A quantized file's format
/// (GPTQ, AWQ, NVFP4, MXFP4, GGUF) has no one figure: its bits on the blocks'
/// matrices here, its whole model counted tensor by tensor in
/// [`crate::serving::formats::weight_bytes`].
pub fn inference_weight_bytes(dtype: InferenceDtype) -> BytesPerParam {
    BytesPerParam(crate::serving::formats::matrix_bits(dtype) / 8.0)
}

/// Serving memory in two parts: the weights, and the ≤ 20 % the article adds
/// for everything else (KV cache, activations, buffers).
pub fn inference_parts(params: Params, dtype: InferenceDtype) -> (Bytes, Bytes) {
    let weights = params * inference_weight_bytes(dtype);
    (weights.whole(), (inference_memory(params, dtype) - weights).whole())
}

/// Total_inference ≈ 1.2 × model memory (article, "Total Inference Memory":
/// "in our experience this overhead is ≤ 20%").
pub const INFERENCE_OVERHEAD: f64 = 1.2;

/// Total_inference = 1.2 · bytes(dtype) · P. All parameters are held, even
/// those of experts a token does not use.
pub fn inference_memory(params: Params, dtype: InferenceDtype) -> Bytes {
    params * inference_weight_bytes(dtype) * INFERENCE_OVERHEAD
}

/// The KV cache when serving: keys and values of every layer for every token
/// of every sequence, 2·L·k·d_head·context·batch·bytes(kv-dtype), with k the
/// key/value heads (GQA) and d_head (h/a unless given); a sliding layer holds
/// at most its window's W tokens ([`crate::arch::Architecture::attended_tokens`]);
/// a hybrid model's linear layers keep their fixed state per sequence instead
/// ([`state_bytes_per_sequence`]).
pub fn kv_cache_bytes(c: &Config) -> Bytes {
    let per_sequence =
        kv_bytes_per_token(c) * c.arch.attended_tokens(c.serving.context as f64) + state_bytes_per_sequence(c);
    Bytes(per_sequence * c.serving.batch as f64)
}

/// The cache's bytes per token of one sequence: 2·L·k·d_head·bytes(kv-dtype),
/// L the layers that attend (a hybrid model's linear layers keep none); with
/// multi-head latent attention, the latent and the shared rotary key,
/// L·(r_kv + d_R)·bytes (DeepSeek-V2 §2.1.2: "only … need to be cached").
pub fn kv_bytes_per_token(c: &Config) -> f64 {
    let a = c.arch;
    let layers = a.attention_layers() as f64;
    if a.mla.is_on() {
        return layers * (a.mla.kv_lora_rank + a.mla.qk_rope_head_dim) as f64 * c.serving.kv_dtype.bytes();
    }
    let d_head = a.d_head();
    2.0 * layers * a.kv_heads as f64 * d_head * c.serving.kv_dtype.bytes()
}

/// A hybrid model's linear layers' state for one sequence, whatever its
/// length: each layer's recurrent state in its type and its convolution's in
/// 16 bits ([`crate::arch::Architecture::linear_state_bytes`]).
pub fn state_bytes_per_sequence(c: &Config) -> f64 {
    c.arch.linear_layers() as f64 * c.arch.linear_state_bytes(2.0)
}

/// Serving memory beyond the article's rule: the weights in the inference
/// type plus the KV cache.
pub fn inference_total_bytes(c: &Config) -> Bytes {
    Bytes(crate::serving::formats::weight_bytes(c)).whole() + kv_cache_bytes(c)
}

/// The longest context that fits beside the weights in one GPU's memory at
/// this batch (0 when the weights alone do not fit). With sliding layers the
/// cache grows past the window on the global layers alone; with every layer
/// sliding and the window's cache fitting, no context is too long for memory.
pub fn max_context_tokens(c: &Config) -> u64 {
    let states = state_bytes_per_sequence(c) * c.serving.batch as f64;
    let room = c.system.gpu_mem_bytes - crate::serving::formats::weight_bytes(c) - states;
    let a = c.arch;
    let layers = a.attention_layers().max(1) as f64;
    // Bytes of one token on one layer, for the batch.
    let per_layer_token = kv_bytes_per_token(c) / layers * c.serving.batch as f64;
    if room <= 0.0 {
        return 0;
    }
    if per_layer_token <= 0.0 {
        // No layer keeps a KV cache (every layer linear): no context is too long for memory.
        return 1e15 as u64;
    }
    let budget = room / per_layer_token; // layer-tokens
    let (g, w) = (a.global_layers() as f64, a.sliding_window as f64);
    let n = if a.sliding_window == 0 || budget <= layers * w {
        budget / layers
    } else if g > 0.0 {
        (budget - (layers - g) * w) / g
    } else {
        1e15
    };
    n.floor().min(1e15) as u64
}

/// What bounds the longest context served.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContextBound {
    /// The KV cache fills the GPU's memory beside the weights.
    Memory,
    /// The model reads no more positions (`max_position_embeddings`).
    Positions,
}

/// The longest context one GPU serves at this batch, and what bounds it: the
/// memory ([`max_context_tokens`]) or, when shorter, the model's position limit.
pub fn longest_context(c: &Config) -> (u64, ContextBound) {
    let memory = max_context_tokens(c);
    match c.serving.max_positions {
        Some(limit) if memory > 0 && limit < memory => (limit, ContextBound::Positions),
        _ => (memory, ContextBound::Memory),
    }
}

/// Bytes per parameter of the model states before any sharding: weights,
/// gradients and optimizer (article: 2 + 2 + 12 = 16 for mixed precision with AdamW).
pub fn state_bytes_per_param(c: &Config) -> [BytesPerParam; 3] {
    [model_bytes(c.dtypes.precision), gradient_bytes(c.dtypes.grad_dtype), optimizer_bytes(c)]
}

/// memory_model: 4 bytes/param in fp32, 2 in fp16, bf16 or mixed (article, "Model Parameters").
pub fn model_bytes(precision: Precision) -> BytesPerParam {
    BytesPerParam(match precision {
        Precision::Fp32 => 4.0,
        Precision::Fp16 | Precision::Bf16 | Precision::Mixed => 2.0,
    })
}

/// memory_gradients: 4 bytes/param in fp32, 2 in fp16 (article, "Gradients").
pub fn gradient_bytes(dtype: GradDtype) -> BytesPerParam {
    BytesPerParam(match dtype {
        GradDtype::Fp32 => 4.0,
        GradDtype::Fp16 => 2.0,
    })
}

/// memory_optimizer = states + a 4-byte fp32 master copy when mixed (article,
/// "Optimizer States"): AdamW 4 + 4 (+4) = 12, 8-bit Adam 1 + 1 (+4) = 6,
/// SGD with momentum 4 (+4) = 8, SGD 0 (+4) = 4. With `moments` other than
/// fp32, Adam's two moments and SGD's momentum take its bytes (bf16: AdamW
/// 2 + 2); 8-bit Adam's are its own. Muon keeps one moment for the hidden
/// matrices and AdamW's two for the share `adam_share` of the parameters that
/// are not (Liu et al. 2025, §2). `main` is the master copy's type, counted
/// only under mixed precision (Megatron-LM's `--main-params-dtype`).
pub fn optimizer_bytes_of(
    optimizer: Optimizer,
    precision: Precision,
    moments: ExpAvgDtype,
    main: MainParams,
    adam_share: f64,
) -> BytesPerParam {
    let states = match optimizer {
        Optimizer::AdamW => 2.0 * moments.bytes(),
        Optimizer::Adam8bit => 2.0,
        Optimizer::SgdMomentum => moments.bytes(),
        Optimizer::Sgd => 0.0,
        Optimizer::Muon => (1.0 + adam_share) * moments.bytes(),
    };
    let master = if precision == Precision::Mixed { main.bytes() } else { 0.0 };
    BytesPerParam(states + master)
}

/// The optimizer's bytes per parameter for `c` ([`optimizer_bytes_of`]).
pub fn optimizer_bytes(c: &Config) -> BytesPerParam {
    let a = c.arch;
    let adam_share = (a.non_matrix_params().get() / a.exact_params().get().max(1.0)).min(1.0);
    optimizer_bytes_of(c.optimizer, c.dtypes.precision, c.dtypes.exp_avg_dtype, c.dtypes.main_params, adam_share)
}

/// The master copy's bytes per parameter for `c`: its type under mixed precision, else none.
pub fn master_bytes(c: &Config) -> f64 {
    if c.dtypes.precision == Precision::Mixed {
        c.dtypes.main_params.bytes()
    } else {
        0.0
    }
}

/// Activation bytes of one layer and one micro-batch, in units of s·b·h
/// (Korthikanti et al. 2022, Table 2; the article's "Activations and Batch Size"):
///
/// | recompute | without sequence parallelism | with sequence parallelism |
/// |---|---|---|
/// | none | 10 + 24/t + 5·a·s/(h·t) | (34 + 5·a·s/h)/t |
/// | selective | 10 + 24/t | 34/t |
/// | full | 2 | 2/t |
pub fn activation_factor(recompute: Recompute, sequence_parallel: bool, t: u64, a: u64, s: u64, h: u64) -> f64 {
    let (t, a, s, h) = (t as f64, a as f64, s as f64, h as f64);
    let attention = 5.0 * a * s / h;
    match (recompute, sequence_parallel) {
        (Recompute::None, false) => 10.0 + 24.0 / t + attention / t,
        (Recompute::Selective, false) => 10.0 + 24.0 / t,
        (Recompute::Full, false) => 2.0,
        (Recompute::None, true) => (34.0 + attention) / t,
        (Recompute::Selective, true) => 34.0 / t,
        (Recompute::Full, true) => 2.0 / t,
    }
}

/// The same count, term by term, for today's shapes (Korthikanti et al. 2022,
/// §4, generalised; SPEC "Practice"): s·b·h·(10 + (4 + 4·kv + 4·f/h)/t +
/// 5·a·s/(h·t)) with kv = k/a the key/value share (GQA) and f the MLP's inner
/// size. Sequence parallelism makes the 10 a 10/t; selective recomputation or
/// FlashAttention (`scores` false) drops the s×s term; full recomputation keeps
/// 2 (2/t). With kv = 1 and f = 4h this is the table above. This is GeLU's
/// 4·f/h; [`layer_factor`] counts SwiGLU's 6·f/h (its 2f-wide input kept).
#[allow(clippy::too_many_arguments)]
pub fn activation_factor_general(
    recompute: Recompute,
    sequence_parallel: bool,
    scores: bool,
    t: u64,
    (a, k): (u64, u64),
    s: u64,
    (h, f): (u64, f64),
) -> f64 {
    let (t, a, s, h) = (t as f64, a as f64, s as f64, h as f64);
    if recompute == Recompute::Full {
        return if sequence_parallel { 2.0 / t } else { 2.0 };
    }
    let kv = k as f64 / a;
    let outside = if sequence_parallel { 10.0 / t } else { 10.0 };
    let inside = (4.0 + 4.0 * kv + 4.0 * f / h) / t;
    let attention = if scores && recompute == Recompute::None { 5.0 * a * s / (h * t) } else { 0.0 };
    outside + inside + attention
}

/// One layer's activations of one micro-batch, term by term, in units of
/// s·b·h (Korthikanti et al. 2022, §4): what is stored outside the tensor-
/// parallel region (the 10: layer norms, dropout masks, the residual), what is
/// split over the tensor ranks (the article's 24/t; generalised
/// (4 + 4·k/a + 4·f/h)/t, 6·f/h with SwiGLU), and the s×s attention scores (5·a·s/(h·t)). Full
/// recomputation keeps only the layer's input: `outside` = 2 (2/t with
/// sequence parallelism).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LayerFactor {
    pub outside: f64,
    pub inside: f64,
    pub scores: f64,
    /// What FP8 training saves ([`fp8_activation_saving`]), already ÷ t where its tensors are.
    pub fp8_saving: f64,
    /// LoRA's change ([`crate::finetune::activation_delta`]), already ÷ t where its tensors are.
    pub adapters: f64,
    /// What a mixture of experts keeps beyond its experts' MLPs ([`expert_activations`]), as the layers average it.
    pub experts: f64,
}

impl LayerFactor {
    /// The factor: the terms summed, less FP8's saving, with LoRA's change.
    pub fn total(&self) -> f64 {
        self.outside + self.inside + self.scores - self.fp8_saving + self.adapters + self.experts
    }
}

/// What FP8 training saves of one layer's stored activations, in units of
/// s·b·h (under `megatron`; nothing with full recomputation, which keeps only
/// the layer's bf16 input). Transformer Engine keeps the input of each FP8
/// GEMM for the weight gradient in FP8 (1 byte, plus its scales: 1/32 byte per
/// value for blockwise and MXFP8) instead of bf16 (2 bytes): the QKV input and
/// fc1's (the norms' outputs, outside the tensor-parallel region, ÷ t with
/// sequence parallelism) and fc2's (f wide, ÷ t). The attention's output
/// projection keeps its bf16 input (Megatron-LM's `set_save_original_input`),
/// as do latent attention's down-projections; the norms' inputs, the attention
/// core and the activation function's input stay bf16 (Transformer Engine,
/// "Performance considerations": "TE saves the columnwise quantized input for
/// the backward pass").
pub fn fp8_activation_saving(c: &Config, recompute: Recompute, sequence_parallel: bool, f: f64) -> f64 {
    if c.dtypes.fp8 == Fp8Recipe::None || c.convention != Convention::Megatron || recompute == Recompute::Full {
        return 0.0;
    }
    let t = c.layout.tp as f64;
    let per_value = 2.0 - (1.0 + c.dtypes.fp8.scale_bytes());
    let qkv = if c.arch.mla.is_on() { 0.0 } else { 1.0 };
    let outside = per_value * (qkv + 1.0) / if sequence_parallel { t } else { 1.0 };
    let inside = per_value * f / (c.arch.hidden as f64 * t);
    outside + inside
}

/// FP8 training's weights beyond the bf16 ones, bytes per parameter of the
/// layers' GEMMs (under `megatron`, without ZeRO-3, whose gathered layers keep
/// no copy between micro-batches). Transformer Engine keeps an FP8 copy of each
/// weight for the whole step ("we can cache the resulting FP8 weights for the
/// remaining gradient accumulation steps", its FP8 weight caching; Megatron-Core
/// passes `is_first_microbatch`), in both layouts the GEMMs read: on Hopper the
/// data and its transpose, 2 bytes; on Blackwell one byte serves both for
/// tensorwise scaling, while MXFP8 (and blockwise, emulated with it) keeps two
/// of 1 + 1/32. With `fp8-param-gather` that copy is the weight: the bf16 one goes.
pub fn fp8_weight_bytes(c: &Config) -> f64 {
    if c.dtypes.fp8 == Fp8Recipe::None || c.convention != Convention::Megatron || c.zero.shards_params() {
        return 0.0;
    }
    let blackwell = c.system.gpu.sm >= 100;
    let copy = match (c.dtypes.fp8, blackwell) {
        (Fp8Recipe::Tensorwise, true) => 1.0,
        (Fp8Recipe::Tensorwise, false) => 2.0,
        // 128×128 blocks: one fp32 scale per 16,384 weights, in each layout.
        (Fp8Recipe::Blockwise, false) => 2.0 * (1.0 + 4.0 / 16_384.0),
        _ => 2.0 * (1.0 + c.dtypes.fp8.scale_bytes()),
    };
    if c.dtypes.fp8_param_gather {
        copy - model_bytes(c.dtypes.precision).0
    } else {
        copy
    }
}

/// The factor this configuration uses, term by term: the article's table under
/// its convention (flash, when asked for, drops its s×s term), the generalised
/// count under `megatron` (a mixture of experts counts the experts a token uses).
/// Its total is [`activation_factor`] or [`activation_factor_general`].
pub fn layer_factor(c: &Config, recompute: Recompute, sequence_parallel: bool) -> LayerFactor {
    let (t, a) = (c.layout.tp as f64, c.arch);
    if recompute == Recompute::Full {
        let outside = if sequence_parallel { 2.0 / t } else { 2.0 };
        return LayerFactor { outside, inside: 0.0, scores: 0.0, fp8_saving: 0.0, adapters: 0.0, experts: 0.0 };
    }
    // What lies outside the tensor-parallel region is split over t only with sequence parallelism.
    let outside_t = if sequence_parallel { t } else { 1.0 };
    let outside = 10.0 / outside_t;
    let h = a.hidden as f64;
    // A layer's MLP as the layers average it: the experts a token uses, or the dense MLP of the first layers.
    let moe_share = a.moe_layers() / a.layers.max(1) as f64;
    let f = moe_share * (a.moe_ffn * (a.top_k + a.shared_experts)) as f64 + (1.0 - moe_share) * a.ffn as f64;
    let inside = match c.convention {
        Convention::Article => 24.0 / t,
        Convention::Megatron => (attention_inside(&a).iter().sum::<f64>() + mlp_inside(a.mlp) * f / h) / t,
    };
    // PyTorch's eager operations keep more than fused kernels: the SiLU's output (f wide) beside
    // its input and the up-projection, and each of the two RMSNorms its fp32 input.
    let (inside, outside) = if c.kernels == crate::config::Kernels::Eager {
        let silu = if a.mlp == Mlp::Swiglu { 2.0 * f / h } else { 0.0 };
        (inside + silu / t, outside + 4.0 / outside_t)
    } else {
        (inside, outside)
    };
    let stores_scores = c.attention == Attention::Standard && recompute == Recompute::None;
    let scores = if stores_scores { 5.0 * a.heads as f64 * c.seq_len as f64 / (h * t) } else { 0.0 };
    let fp8_saving = fp8_activation_saving(c, recompute, sequence_parallel, f);
    let (lora_outside, lora_inside) = crate::finetune::activation_delta(c);
    let adapters = lora_outside / outside_t + lora_inside / t;
    let experts = expert_activations(c) * moe_share / outside_t;
    LayerFactor { outside, inside, scores, fp8_saving, adapters, experts }
}

/// What one MoE layer of Megatron-Core keeps for its backward beyond a dense
/// MLP of the experts' width (`mlp_inside`, which counts each expert's
/// activation input and second input), in units of h per token entering the
/// layer (s·b/t with sequence parallelism, which Megatron-LM requires of a
/// mixture with t > 1), balanced routing, no bias (`megatron/core/transformer/moe`):
///
/// - each expert saves its own first input, the k copies of the token it
///   received, and with expert tensor parallelism every one of the etp ranks
///   receives them: k·etp·2h (`experts.py` `TEGroupedMLP`, `mlp.py` for
///   `SequentialMLP`); in FP8, one byte and its scales instead of two;
/// - the routing probability of each copy, multiplied in after the activation:
///   k·etp·2 (bf16), and with GeLU the activation's output the product keeps
///   beside its input, 2kf (`experts.py`: `act * probs`; SwiGLU's weighted
///   kernel keeps only its input, `fused_bias_swiglu.py` `WeightedSwiGLUFunction`);
/// - the router: the top-k indices (int64, 8k) and the fp32 softmax over them
///   (4k) (`moe_utils.py` `topk_routing_with_score_function`);
/// - the dispatcher: the sorted indices (int64, 8k) and the argsort they are a
///   view of, over every token and expert (int64, 8E) (`moe_utils.py` `permute`).
///
/// Not counted: the auxiliary loss's fp32 scores (4E, only with
/// `--moe-aux-loss-coeff` > 0), and what lives only while the layer runs (the
/// permuted and the all-gathered tokens).
pub fn expert_activations(c: &Config) -> f64 {
    let a = c.arch;
    if !a.is_moe() || c.convention != Convention::Megatron {
        return 0.0;
    }
    let (h, k, f, e) = (a.hidden as f64, a.top_k as f64, a.moe_ffn as f64, a.experts as f64);
    let etp = c.layout.expert_tp() as f64;
    let input = if c.dtypes.fp8 == Fp8Recipe::None { 2.0 } else { 1.0 + c.dtypes.fp8.scale_bytes() };
    let gelu_output = if a.mlp == Mlp::Gelu { 2.0 * k * f } else { 0.0 };
    (k * etp * (input * h + 2.0) + gelu_output + 20.0 * k + 8.0 * e) / h
}

/// The MLP's activations inside the tensor-parallel region, in units of
/// s·b·f: 2 bytes for each stored value. GeLU keeps its input (f wide) and the
/// second matrix's input (f): 4 (Korthikanti et al. 2022, §4.1: 8 + 8 at f = 4h).
/// SwiGLU's first matrix is 2f wide (gate and up), and the activation keeps that
/// whole output as its input (Megatron-Core's fused `bias_swiglu`,
/// `fusions/fused_bias_swiglu.py`: `ctx.save_for_backward(input, …)`) beside the
/// second matrix's input (f): 4 + 2 = 6.
fn mlp_inside(mlp: Mlp) -> f64 {
    match mlp {
        Mlp::Gelu => 4.0,
        Mlp::Swiglu => 6.0,
    }
}

/// Attention's activations inside the tensor-parallel region, in units of
/// s·b·h: 2 bytes for each stored value of Q, K, V and of the output
/// projection's input (Korthikanti et al. 2022, §4.1), in two pieces of the
/// same width each. Standard and GQA: Q and the output projection's input
/// a·d_head wide, K and V k·d_head: 4 + 4·k/a when d_head = h/a, with GQA's k
/// key/value heads (8 for multi-head attention). With MLA the query and key are
/// a·(d + d_R) wide and the value and the output projection's input a·d_v:
/// 4·a·(d + d_R)/h + 4·a·d_v/h. (`explain` writes the two pieces.)
pub(crate) fn attention_inside(a: &Architecture) -> [f64; 2] {
    let h = a.hidden as f64;
    if !a.mla.is_on() {
        return [4.0 * a.attention_width() / h, 4.0 * a.kv_heads as f64 * a.d_head() / h];
    }
    let (m, heads) = (a.mla, a.heads as f64);
    [4.0 * heads * (m.qk_head_dim + m.qk_rope_head_dim) as f64 / h, 4.0 * heads * m.v_head_dim as f64 / h]
}

/// The factor's total for this configuration (see [`layer_factor`]).
pub fn config_activation_factor(c: &Config, sequence_parallel: bool) -> f64 {
    layer_factor(c, c.recompute, sequence_parallel).total()
}

/// A stage's activations, term by term: computed once, summed by
/// [`ActivationTerms::bytes`] and written out by `explain`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActivationTerms {
    /// s·b·h of one micro-batch.
    pub sbh: f64,
    /// One layer's factor (units of s·b·h).
    pub factor: LayerFactor,
    /// Forwards in flight (micro-batches, or model chunks interleaved), the
    /// layers of one chunk, and the layers' activations held in all
    /// ([`Stage::layer_forwards`]: `in_flight` × `layers` unless a `pp-layout`'s chunks differ).
    pub in_flight: u64,
    pub layers: u64,
    pub layer_forwards: u64,
    /// With full recomputation and a checkpoint every k > 1 layers: k, the
    /// checkpoints kept over the forwards in flight, and the factor of the layers recomputed at once.
    pub checkpoints: Option<(u64, u64, f64)>,
    /// Megatron-LM's ends, bytes: the first stage's input embedding, the last stage's output layer and loss.
    pub embedding: f64,
    pub output: f64,
    /// The last stage's multi-token prediction modules, bytes.
    pub mtp: f64,
    /// ZeRO-R's partitioning over t (1 without), and context parallelism's cp.
    pub partition: f64,
    pub cp: f64,
    /// Share of the layers' stored activations offloaded to CPU memory.
    pub offloaded: f64,
}

impl ActivationTerms {
    /// s·b·h multiples held: layers × micro-batches × factor, or with checkpoints
    /// every k layers, their inputs plus one k-layer segment (k − 1 of them beyond the article's count).
    pub fn layer_bytes(&self) -> f64 {
        let held = match self.checkpoints {
            Some((k, kept, segment)) => kept as f64 * self.factor.total() + (k - 1) as f64 * segment,
            None => self.layer_forwards as f64 * self.factor.total(),
        };
        self.sbh * held
    }
    /// What stays on the GPU: the layers' share not offloaded, and the ends.
    pub fn bytes(&self) -> Bytes {
        let layers = self.layer_bytes() * (1.0 - self.offloaded);
        Bytes((layers + self.embedding + self.output + self.mtp) / self.partition / self.cp)
    }
    /// What offload moves to CPU memory: the offloaded share of the layers' activations.
    pub fn offloaded_bytes(&self) -> Bytes {
        Bytes(self.layer_bytes() * self.offloaded / self.partition / self.cp)
    }
}

/// Activation memory of one stage: s·b·h · layers held · factor, ÷ t again
/// with ZeRO-R activation partitioning (article, "Sharded Optimizers"), which
/// sequence parallelism already does and is then not applied twice.
///
/// With full recomputation and a checkpoint every k-th layer (`recompute-every`,
/// Megatron-LM's "uniform" method), a stage keeps the inputs of ⌈(L/p)/k⌉
/// layers per micro-batch, and the backward pass recomputes one segment of k
/// layers with all their activations (Chen et al. 2016, "Training Deep Nets
/// with Sublinear Memory Cost"). The article's 2·s·b·h·L (k = 1) leaves out the
/// one layer recomputed at a time; so that k = 1 stays the article's, the
/// segment counts its other k − 1 layers.
///
/// Under `megatron`, the ends as Megatron-LM's estimator counts them
/// (`megatron/training/theoretical_memory_usage.py`): the first stage's input
/// embedding for each micro-batch in flight, 8 bytes per token id and a 1-byte
/// dropout mask per value, s·b·(8 + h) (÷ t with sequence parallelism, which
/// scatters the embedding's output); the last stage's inputs to the final norm
/// and the output layer, 4·s·b·h/t for each micro-batch in flight. The
/// estimator's other 4·s·b·V/t there, the loss's fp32 logits, is the
/// [`Part::Logits`] part ([`logit_terms`]), with the transient beside it.
pub fn activation_terms(c: &Config, st: &Stage) -> ActivationTerms {
    let t = c.layout.tp as f64;
    let sp = c.splits_sequence();
    let factor = layer_factor(c, c.recompute, sp);
    let (s, b, h) = (c.seq_len as f64, c.micro_batch as f64, c.arch.hidden as f64);
    // A forward in flight holds one model chunk's layers: the stage's, or 1/v of them interleaved.
    let chunk_layers = st.layers / st.chunks.max(1);
    let k = c.recompute_every.clamp(1, chunk_layers.max(1));
    let checkpoints = (c.recompute == Recompute::Full && k > 1).then(|| {
        let kept = chunks(c, st.index).iter().map(|ch| ch.forwards * ch.layers.div_ceil(k)).sum();
        (k, kept, layer_factor(c, Recompute::None, sp).total())
    });
    let megatron = c.convention == Convention::Megatron;
    let embedding = if megatron && st.first {
        s * b * (8.0 + h) * st.embedding_in_flight as f64 / if sp { t } else { 1.0 }
    } else {
        0.0
    };
    let output = if megatron && st.last { 4.0 * s * b * h / t * st.loss_in_flight as f64 } else { 0.0 };
    // The MTP modules (on the last stage unless a layout places them): one layer each for every
    // micro-batch in flight there, with the projection's 2h input (Megatron-LM's
    // MultiTokenPredictionLayer; DeepSeek-V3 §2.2).
    let mtp_modules = if megatron { st.mtp as f64 } else { 0.0 };
    let mtp = mtp_modules * s * b * h * (factor.total() + 4.0 / if sp { t } else { 1.0 }) * st.mtp_in_flight as f64;
    ActivationTerms {
        sbh: s * b * h,
        factor,
        in_flight: st.in_flight,
        layers: chunk_layers,
        layer_forwards: st.layer_forwards,
        checkpoints,
        embedding,
        output,
        mtp,
        partition: if c.partition_activations && !sp { t } else { 1.0 },
        // Context parallelism: each rank holds s/cp of every sequence (its scores s/cp × s).
        cp: c.layout.cp as f64,
        offloaded: c.offload_activations.clamp(0.0, 1.0),
    }
}

/// The loss's logits on the last stage, term by term: computed once, summed
/// by [`LogitTerms::bytes`] and written out by `explain`.
///
/// Every micro-batch between its forward and its backward keeps its fp32
/// log-probabilities (or softmax) for the backward: `saved` = 4 bytes per
/// logit, the s·b·V/t logits of this rank (the vocabulary split over the
/// tensor ranks, the sequence over cp). At the loss, one micro-batch adds its
/// transient, `peak` bytes per logit beyond its own 4:
///
/// - `standard`, PyTorch's `cross_entropy(logits.float())` (torchtitan's
///   `loss_fn`, torchtune's `TransformerDecoder` output `.float()`): in the
///   backward, `nll_loss_backward`'s fp32 gradient and `log_softmax_backward`'s
///   fp32 result beside the saved log-probabilities: 4 + 4 = 8 (the forward's
///   bf16 logits and fp32 copy, 2 + 4, are less);
/// - `fused`, Megatron-LM's `_VocabParallelCrossEntropy`
///   (`megatron/core/tensor_parallel/cross_entropy.py`, the fused path shares
///   `VocabParallelCrossEntropy`): `.float()` makes one fp32 copy beside the
///   bf16 logits, the softmax is computed and saved in it in place, and the
///   backward turns it into the gradient in place, which autograd casts back
///   to bf16: 2 (the bf16 logits in the forward, their bf16 gradient in the backward);
/// - `chunked` in n pieces, torchtune's `CEWithChunkedOutputLoss`
///   (`torchtune/modules/loss/ce_chunked_output_loss.py`): the bf16 logits
///   whole (2) and one piece's fp32 copy (4/n) in the forward, one piece's two
///   fp32 gradients (8/n) in the backward: max(2 + 4/n, 8/n). With n = 1 it is `standard`.
///
/// 0 under the article's convention (its formulas have no loss term) and on
/// every stage but the last.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LogitTerms {
    /// Logits of one micro-batch on this rank: s·b·V/(t·cp).
    pub logits: f64,
    /// Micro-batches whose log-probabilities wait for their backward: the
    /// loss's chunk's forwards in flight; and the losses held in all, the
    /// model's and one per MTP module for each of their forwards in flight.
    pub in_flight: u64,
    pub held: u64,
    /// Bytes per logit kept for the backward (4, fp32).
    pub saved: f64,
    /// Bytes per logit of one micro-batch's transient at the loss.
    pub peak: f64,
    /// Losses per micro-batch: the model's and one per MTP module, each keeping its own.
    pub losses: u64,
}

impl LogitTerms {
    pub fn bytes(&self) -> Bytes {
        Bytes(self.logits * (self.saved * self.held as f64 + self.peak))
    }
}

/// The loss's logits on stage `st` ([`LogitTerms`]).
pub fn logit_terms(c: &Config, st: &Stage) -> LogitTerms {
    let (s, b, v) = (c.seq_len as f64, c.micro_batch as f64, c.arch.vocab as f64);
    let on = c.convention == Convention::Megatron && (st.last || st.mtp > 0);
    let n = c.loss_chunks.max(1) as f64;
    let peak = match c.loss {
        Loss::Standard => 8.0,
        Loss::Fused => 2.0,
        Loss::Chunked => (2.0 + 4.0 / n).max(8.0 / n),
    };
    LogitTerms {
        logits: if on { s * b * v / (c.layout.tp * c.layout.cp) as f64 } else { 0.0 },
        in_flight: st.loss_in_flight,
        held: u64::from(st.last) * st.loss_in_flight + st.mtp * st.mtp_in_flight,
        saved: 4.0,
        peak,
        losses: u64::from(st.last) + st.mtp,
    }
}

/// The framework's own buffers on a GPU, term by term: computed once, summed
/// by [`BufferTerms::bytes`] and written out by `explain`. Each is an
/// allocation PyTorch's allocator counts beside the model states and the
/// activations, sized as the framework's code sizes it; 0 under the article's
/// convention (its formulas have none).
///
/// - `sp_gather`: with sequence parallelism (t > 1), each column-parallel
///   layer gathers its input's s/cp·b·h values from the t ranks before its
///   GEMM, in the forward and again in the backward, in the activations' type:
///   Megatron-LM's `LinearWithGradAccumulationAndAsyncCommunication` into its
///   `GlobalMemoryBuffer` ("mpu", kept at its largest size;
///   `megatron/core/tensor_parallel/layers.py`, `megatron/core/utils.py`),
///   Transformer Engine's `gather_along_first_dim` into a tensor freed after
///   the GEMM (`transformer_engine/pytorch/distributed.py`). Either way one
///   gathered input is live at the peak.
/// - `workspace`: PyTorch's cuBLAS workspace for the compute stream, taken
///   from the caching allocator and kept (`aten/src/ATen/cuda/CublasHandlePool.cpp`,
///   `parseChosenWorkspaceSize`: 32 MiB on sm90 (Hopper), 4096 KiB·2 + 16 KiB·8
///   = 8,519,680 bytes on every other NVIDIA GPU). ROCm's hipBLASLt workspace,
///   and Transformer Engine's own (32 MiB on sm ≥ 90, 4 MiB before), are not
///   counted: the first is not sourced here, the second only where TE runs.
///
/// Left out as below a megabyte: the distributed optimizer's padding of each
/// gradient bucket to a multiple of lcm(d·cp, 128) elements and of each
/// parameter to 64 (`megatron/core/distributed/param_and_grad_buffer.py`);
/// its contiguous buffers themselves are the weights and gradients parts.
///
/// - `fsdp_reduce`: with ZeRO-3 (FSDP: PyTorch's FSDP2, Megatron-FSDP), the
///   unsharded gradients of the unit whose backward just ran, waiting for
///   their reduce-scatter, in the gradients' type: its largest unit's
///   ([`fsdp_units`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BufferTerms {
    pub sp_gather: f64,
    pub workspace: f64,
    pub fsdp_reduce: f64,
    /// A quantized base's one weight dequantized at a time ([`crate::finetune::dequantized_bytes`]), under either convention.
    pub dequantized: f64,
}

impl BufferTerms {
    pub fn bytes(&self) -> Bytes {
        Bytes(self.sp_gather + self.workspace + self.fsdp_reduce + self.dequantized)
    }
}

/// FSDP's units on one GPU under `megatron`, parameters ÷ t: (one layer, the
/// largest unit). PyTorch's FSDP2 (`fully_shard` per transformer block, the
/// embedding and the output layer each a unit, as torchtitan wraps them) and
/// Megatron-FSDP gather a unit's parameters before its forward and again
/// before its backward, and prefetch the next one's while it runs ("implicit
/// prefetching": the next all-gather is issued before the current unit
/// computes), so two units are whole at once: a layer and the largest unit,
/// which for large vocabularies is the untied output layer (V·h).
pub fn fsdp_units(c: &Config) -> (f64, f64) {
    let a = c.arch;
    let t = c.layout.tp as f64;
    let (dense, moe, routed) = a.layer_params();
    let layer = if a.is_moe() { dense.max(moe + routed * (experts_vs_t(c) - 1.0)) } else { dense };
    let vh = (a.vocab * a.hidden) as f64;
    (layer / t, layer.max(vh) / t)
}

/// PyTorch's default cuBLAS workspace on a GPU of compute capability `sm` (×10; 0 for AMD).
pub fn cublas_workspace_bytes(sm: u32) -> f64 {
    match sm {
        0 => 0.0,
        90 => 32.0 * 1024.0 * 1024.0,
        _ => (4096.0 * 2.0 + 16.0 * 8.0) * 1024.0,
    }
}

/// Transformer Engine's cuBLAS workspaces for a mixture's grouped GEMMs, bytes:
/// `GroupedLinear` runs its experts' products on `tex._num_cublas_streams`
/// (4) streams, each with its own workspace of `get_cublas_workspace_size_bytes`
/// (32 MiB from Hopper on, 4 MiB before) (`transformer_engine/pytorch/module/base.py`,
/// `get_multi_stream_cublas_workspace`), allocated at the first MoE layer and kept.
pub fn grouped_gemm_workspace_bytes(c: &Config) -> f64 {
    if c.arch.is_moe() && c.convention == Convention::Megatron {
        4.0 * te_workspace_bytes(c.system.gpu.sm)
    } else {
        0.0
    }
}

/// What Transformer Engine's tensor-parallel communication overlap adds to the
/// allocator's count, bytes: `initialize_ub` replaces its cuBLAS workspace by
/// one of `_NUM_MAX_UB_STREAMS` (3) times the size for the chunked GEMMs
/// (`get_workspace().repeat(_NUM_MAX_UB_STREAMS)`, `pytorch/module/base.py`):
/// two more of 32 MiB from Hopper on, of 4 MiB before. Its communication
/// buffers are registered outside PyTorch's allocator
/// (`register_user_buffer_collective`), which `max_memory_allocated` does not see.
pub fn tp_overlap_workspace_bytes(c: &Config) -> f64 {
    if !c.tp_comm_overlap || c.layout.tp < 2 || c.convention != Convention::Megatron {
        return 0.0;
    }
    2.0 * te_workspace_bytes(c.system.gpu.sm)
}

/// Transformer Engine's cuBLAS workspace (`get_cublas_workspace_size_bytes`):
/// 32 MiB from Hopper on, 4 MiB before (none on an AMD GPU here).
fn te_workspace_bytes(sm: u32) -> f64 {
    match sm {
        0 => 0.0,
        sm if sm >= 90 => 32.0 * 1024.0 * 1024.0,
        _ => 4.0 * 1024.0 * 1024.0,
    }
}

/// The framework's buffers, the same on every stage ([`BufferTerms`]).
pub fn buffer_terms(c: &Config) -> BufferTerms {
    let dequantized = crate::finetune::dequantized_bytes(c);
    if c.convention != Convention::Megatron {
        return BufferTerms { dequantized, ..BufferTerms::default() };
    }
    let (s, b, h) = (c.seq_len as f64 / c.layout.cp as f64, c.micro_batch as f64, c.arch.hidden as f64);
    let sp = c.sequence_parallel && c.layout.tp > 1;
    // A unit's gradients: its trained share (LoRA's adapters only).
    let trained = crate::finetune::trainable_params(c).get() / c.params.get().max(1.0);
    let fsdp_reduce = if c.zero.shards_params() {
        fsdp_units(c).1 * gradient_bytes(c.dtypes.grad_dtype).0 * trained.min(1.0)
    } else {
        0.0
    };
    BufferTerms {
        sp_gather: if sp { s * b * h * model_bytes(c.dtypes.precision).0 } else { 0.0 },
        workspace: cublas_workspace_bytes(c.system.gpu.sm)
            + grouped_gemm_workspace_bytes(c)
            + tp_overlap_workspace_bytes(c),
        fsdp_reduce,
        dequantized,
    }
}

/// How far each model state is divided over the GPUs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Divisors {
    pub model: f64,
    pub gradients: f64,
    pub optimizer: f64,
}

/// How far a stage's weights and gradients are divided before ZeRO:
///
/// - article: P/(t·p), gradients P/p (its 3D formula, verbatim, the same on every stage); TSP: both t·p;
/// - megatron: the stage's own parameters ÷ t: its layers, the input embedding
///   on the first stage, the output layer (a copy of a tied embedding, with
///   p > 1) and the final norm on the last; with p = 1 the whole model ÷ t.
///
/// With expert parallelism (`ep` > 1) the routed experts are divided by ep as
/// well. Shares are taken of the shape's exact count and applied to P.
fn state_divisors(c: &Config, st: &Stage, experts_vs_t: f64) -> (f64, f64) {
    let Layout { tp, pp, .. } = c.layout;
    let (t, p) = (tp as f64, pp as f64);
    let a = c.arch;
    let exact = a.exact_params().get();
    if c.convention == Convention::Megatron && pp > 1 {
        let (layers, ends) = megatron_stage_parts(c, st, experts_vs_t);
        let share = (layers + ends) / (t * exact);
        return (1.0 / share, 1.0 / share);
    }
    // The share that stays when the experts are divided by etp·ep instead of t (1 without experts).
    let split = expert_split(&a, exact, experts_vs_t);
    // DualPipe's rank holds two stages (DeepSeek-V3 §3.2.1): twice the parameters.
    let pair = if c.schedule == crate::config::Schedule::DualPipe && pp > 1 { 2.0 } else { 1.0 };
    let model = t * p / (split * pair);
    let grads = if c.convention == Convention::Article && !c.tsp { p / (split * pair) } else { model };
    (model, grads)
}

/// A stage's parameters under `megatron` with p > 1, in the shape's exact
/// count with the routed experts weighed by t/(etp·ep): its layers' (by kind:
/// dense ones, and MoE ones whose routed experts are split over etp·ep instead
/// of t, and the MTP modules' layers) and its ends' (the input embedding on the
/// first stage, the output layer and the final norm on the last; the MTP
/// modules' stage holds the embedding they read and the output layer they
/// share, a copy of each the stage does not hold already, one matrix if tied:
/// Megatron-LM builds both there).
fn megatron_stage_parts(c: &Config, st: &Stage, experts_vs_t: f64) -> (f64, f64) {
    let a = c.arch;
    let (vh, h) = ((a.vocab * a.hidden) as f64, a.hidden as f64);
    let (dense, moe, routed) = a.layer_params();
    let moe_share = moe + routed * (experts_vs_t - 1.0);
    let mut layers = 0.0;
    for ch in chunks(c, st.index) {
        let moe_layers = (ch.first_layer..ch.first_layer + ch.layers).filter(|&l| a.is_moe_layer(l)).count();
        layers += moe_layers as f64 * moe_share + (ch.layers - moe_layers as u64) as f64 * dense;
    }
    let tied = a.tie_embeddings;
    let (mtp_layers, mtp_ends) = if st.mtp > 0 {
        let embedding = if st.first || (tied && st.last) { 0.0 } else { vh };
        let output = if st.last || tied { 0.0 } else { vh };
        // Each module's layer is of the model's last kind: its routed experts split as the model's.
        let module = a.mtp_params().get() / a.mtp_layers.max(1) as f64;
        let module_routed = if a.is_moe_layer(a.layers.saturating_sub(1)) { routed } else { 0.0 };
        ((module + module_routed * (experts_vs_t - 1.0)) * st.mtp as f64, embedding + output)
    } else {
        (0.0, 0.0)
    };
    let ends = if st.first { vh } else { 0.0 } + if st.last { vh + h } else { 0.0 } + mtp_ends;
    (layers + mtp_layers, ends)
}

/// How much finer the routed experts are split than the rest: t/(etp·ep) (1 without expert parallelism).
fn experts_vs_t(c: &Config) -> f64 {
    c.layout.tp as f64 / (c.layout.expert_tp() * c.layout.ep) as f64
}

/// The share of the shape's count (`exact`, its [`exact_params`](crate::arch::Architecture::exact_params))
/// a t-way slice holds, relative to P/t, when the routed experts are split
/// `experts_vs_t` times finer (1 without experts).
fn expert_split(a: &crate::arch::Architecture, exact: f64, experts_vs_t: f64) -> f64 {
    1.0 - a.expert_params().get() / exact * (1.0 - experts_vs_t)
}

/// The stage's layers' GEMM parameters before they are divided over GPUs (P
/// × [`layer_weight_share`]): what FP8 training copies.
pub fn layer_gemm_params(c: &Config, st: &Stage) -> f64 {
    c.params.get() * layer_weight_share(c, st)
}

/// The share of a stage's weights on a GPU that are its layers' (their GEMMs,
/// which FP8 training copies; the norms inside them are left in, the
/// embeddings, the output layer and the final norm are not).
pub fn layer_weight_share(c: &Config, st: &Stage) -> f64 {
    let a = c.arch;
    let experts_vs_t = experts_vs_t(c);
    if c.convention == Convention::Megatron && c.layout.pp > 1 {
        let (layers, ends) = megatron_stage_parts(c, st, experts_vs_t);
        return layers / (layers + ends).max(f64::MIN_POSITIVE);
    }
    let exact = a.exact_params().get();
    let split = expert_split(&a, exact, experts_vs_t);
    let vh = (a.vocab * a.hidden) as f64;
    let ends = vh * if a.tie_embeddings { 1.0 } else { 2.0 } + a.hidden as f64;
    ((exact * split - ends) / (exact * split)).max(0.0)
}

/// Divisors of a stage's model states ([`state_divisors`]), and with ZeRO the
/// replica's states divided again over the d·cp ranks the distributed
/// optimizer shards over. The routed experts are split over etp·ep ranks
/// (expert tensor and expert parallelism; etp is t unless given) where the
/// rest is split over t, and their sharded states over the expert
/// data-parallel group of t·d·cp/(etp·ep): t·d·cp in all, as the rest
/// (Megatron-LM's `expert_data_parallel` group).
/// Article: M/(p·t), G/p, O/(p·t); ZeRO-1 O/N; ZeRO-2 also G/(p·d); ZeRO-3 also M/N.
pub fn stage_divisors(c: &Config, st: &Stage) -> Divisors {
    let z = c.zero;
    let group = c.layout.shard_group() as f64;
    let (model, grads) = state_divisors(c, st, experts_vs_t(c));
    let (model_replica, grads_replica) = state_divisors(c, st, 1.0);
    Divisors {
        model: if z.shards_params() { model_replica * group } else { model },
        gradients: if z.shards_gradients() { grads_replica * group } else { grads },
        optimizer: if z.shards_optimizer() { model_replica * group } else { model },
    }
}

/// ZeRO-3 live parameters: parameters gathered at once (DeepSpeed
/// `stage3_max_live_parameters`, default 1e9) × model bytes, capped at the
/// model-parallel shard (a rank never gathers more than its t·p slice); under
/// `megatron`, FSDP's: a layer and the largest unit, whole ([`fsdp_units`]).
pub fn zero3_live_params(c: &Config) -> Bytes {
    if !c.zero.shards_params() {
        return Bytes(0.0);
    }
    // Under `megatron`, FSDP's rule: a layer and the largest unit whole at once ([`fsdp_units`]).
    // A frozen base is gathered in its own storage.
    let per_param = if c.finetune.is_adapter() {
        BytesPerParam(c.finetune.base_dtype.linear_bytes())
    } else {
        model_bytes(c.dtypes.precision)
    };
    if c.convention == Convention::Megatron {
        let (layer, largest) = fsdp_units(c);
        return Params(layer + largest) * per_param;
    }
    let shard = c.params.get() / c.layout.model_parallel() as f64;
    Params(c.max_live_params.get().min(shard)) * per_param
}

/// The weights of the whole model before sharding, bytes: P in the training
/// precision, or a frozen base in its storage with the trained parameters.
fn weight_bytes(c: &Config) -> f64 {
    let trained = crate::finetune::trainable_params(c).get();
    if c.finetune.is_adapter() {
        crate::finetune::base_weight_bytes(c) + trained * model_bytes(c.dtypes.precision).0
    } else {
        c.params.get() * model_bytes(c.dtypes.precision).0
    }
}

/// The optimizer's bytes per GPU when it stays on the GPU.
fn optimizer_on_gpu(c: &Config, d: &Divisors) -> Bytes {
    crate::finetune::trainable_params(c) * optimizer_bytes(c) / d.optimizer
}

/// One stage's memory per GPU for training: model + gradients + optimizer +
/// activations (+ ZeRO-3 live params) (article, "Total Training Memory"),
/// each divided as [`stage_divisors`] says, plus the reserve and fragmentation
/// the formulas leave out (0 under the article's defaults). With offload the
/// optimizer leaves the GPU.
pub fn stage_memory(c: &Config, st: &Stage) -> MemoryBreakdown {
    let d = stage_divisors(c, st);
    let optimizer = if c.offload.is_on() { Bytes(0.0) } else { optimizer_on_gpu(c, &d) };
    let mut m = MemoryBreakdown::default();
    // FP8 training's copies of the layers' weights (or, with fp8-param-gather, the weights in FP8).
    let fp8 = layer_gemm_params(c, st) / d.model * fp8_weight_bytes(c);
    let trained = crate::finetune::trainable_params(c);
    m[Part::Model] = if c.finetune.is_adapter() {
        // The frozen base in its storage and the trained parameters in the training precision.
        Bytes((crate::finetune::base_weight_bytes(c) + trained.get() * model_bytes(c.dtypes.precision).0) / d.model)
            .whole()
    } else {
        (c.params * model_bytes(c.dtypes.precision) / d.model + Bytes(fp8)).whole()
    };
    m[Part::Gradients] = (trained * gradient_bytes(c.dtypes.grad_dtype) / d.gradients).whole();
    m[Part::Optimizer] = optimizer.whole();
    // Parameter offload: the shards and their gradients wait in CPU memory; the GPU gathers a layer at a time.
    if c.offload == Offload::Params && c.zero.shards_params() {
        m[Part::Model] = Bytes(0.0);
        m[Part::Gradients] = Bytes(0.0);
    }
    // Post-training trains on its own sequences (DPO's pairs, PPO's and GRPO's prompt + response).
    let tc = crate::finetune::post::training_config(c);
    m[Part::Activations] = activation_terms(&tc, st).bytes().whole();
    m[Part::Logits] = logit_terms(&tc, st).bytes().whole();
    // PPO's value model trains beside the policy: its states and activations, in proportion.
    let critic = crate::finetune::post::critic_share(c);
    if critic > 0.0 {
        for part in [Part::Model, Part::Gradients, Part::Optimizer, Part::Activations] {
            m[part] = Bytes(m[part].get() * (1.0 + critic)).whole();
        }
    }
    // The frozen reference and reward models, sharded as the weights are.
    m[Part::Frozen] = Bytes(crate::finetune::post::frozen_bytes(c) / d.model).whole();
    m[Part::Buffers] = buffer_terms(c).bytes().whole();
    m[Part::LiveParams] = zero3_live_params(c).whole();
    m[Part::Reserve] = Bytes(m.total().get() * c.system.fragmentation + c.system.reserve_bytes).whole();
    m
}

/// Memory per GPU for training: the heaviest stage's ([`peak_stage`]); with p = 1 the whole model's.
pub fn training_memory(c: &Config) -> MemoryBreakdown {
    peak_stage(c).1
}

/// The GPUs of one node that share its CPU memory and NVMe.
fn gpus_in_node(c: &Config) -> f64 {
    c.layout.gpus().min(c.system.gpus_per_node) as f64
}

/// CPU memory per node under offload (ZeRO-Offload, Ren et al. 2021): each
/// GPU's optimizer shard (unless it is on NVMe) plus its fp32 gradient copy
/// (4 bytes/param, sharded like the optimizer), and the activations
/// `offload-activations` moves there (Megatron-Core's `--cpu-offloading`,
/// `transformer/cpu_offload.py`), for the GPUs of one node. Zero without offload.
pub fn cpu_offload_per_node(c: &Config, d: &Divisors, st: &Stage) -> Bytes {
    let optimizer = match c.offload {
        Offload::None => Bytes(0.0),
        Offload::Optimizer => {
            optimizer_on_gpu(c, d) + crate::finetune::trainable_params(c) * BytesPerParam(4.0) / d.optimizer
        }
        Offload::OptimizerNvme => crate::finetune::trainable_params(c) * BytesPerParam(4.0) / d.optimizer,
        // The weights' shards too, in their storage (a frozen base in its own).
        Offload::Params => {
            optimizer_on_gpu(c, d)
                + crate::finetune::trainable_params(c) * BytesPerParam(4.0) / d.optimizer
                + Bytes(weight_bytes(c) / d.model)
        }
    };
    // Offloaded activations (Megatron-Core's cpu_offload.py): each GPU's share, the stage's.
    let activations = activation_terms(c, st).offloaded_bytes();
    ((optimizer + activations) * gpus_in_node(c)).whole()
}

/// NVMe per node when the optimizer is offloaded there (ZeRO-Infinity,
/// Rajbhandari et al. 2021): the optimizer shards of the node's GPUs.
pub fn nvme_offload_per_node(c: &Config, d: &Divisors) -> Bytes {
    if c.offload != Offload::OptimizerNvme {
        return Bytes(0.0);
    }
    (optimizer_on_gpu(c, d) * gpus_in_node(c)).whole()
}
