//! A serving replica's memory per GPU: the weights split over its ranks, the
//! KV cache per token as the ranks hold it, and what an engine keeps for itself
//! before the rest becomes the cache's pool.

use super::formats;
use crate::config::Config;

/// vLLM's KV-cache block: 16 tokens (`--block-size`, default 16).
pub const BLOCK_TOKENS: f64 = 16.0;

/// Layers on the busiest pipeline stage of the replica: ⌈L/serve-pp⌉.
pub fn stage_layers(c: &Config) -> f64 {
    c.arch.layers.div_ceil(c.serving.serve_pp.max(1)) as f64
}

/// Layers with a KV cache on the busiest stage: ⌈attending layers/serve-pp⌉.
pub fn stage_attention_layers(c: &Config) -> f64 {
    c.arch.attention_layers().div_ceil(c.serving.serve_pp.max(1)) as f64
}

/// Linear-attention or state-space layers on the busiest stage (hybrid models).
pub fn stage_linear_layers(c: &Config) -> f64 {
    c.arch.linear_layers().div_ceil(c.serving.serve_pp.max(1)) as f64
}

/// Bytes of one value of the activations: the convolution states' type.
fn activation_bytes(c: &Config) -> f64 {
    if c.serving.inference_dtype == crate::config::InferenceDtype::Fp32 {
        4.0
    } else {
        2.0
    }
}

/// One linear layer's state for one sequence on one GPU: its recurrent and
/// convolution states ([`crate::arch::Architecture::linear_state_bytes`]),
/// split over the tensor ranks with the heads (vLLM's
/// `MambaStateShapeCalculator`: H_v/t value heads, the convolved width /t).
pub fn state_bytes_per_layer_per_gpu(c: &Config) -> f64 {
    c.arch.linear_state_bytes(activation_bytes(c)) / c.serving.serve_tp.max(1) as f64
}

/// A sequence's fixed state on one GPU: every linear layer's on the busiest
/// stage. It does not grow with the context.
pub fn state_bytes_per_sequence_per_gpu(c: &Config) -> f64 {
    stage_linear_layers(c) * state_bytes_per_layer_per_gpu(c)
}

/// The weights one GPU holds: the model's in its format ([`formats::weight_bytes`]:
/// P·bytes, or a quantized file's tensors) ÷ (serve-tp · serve-pp). Tensor
/// parallelism splits every matrix (Megatron-style column and row splits, the
/// embedding by vocabulary); the stages split the layers.
pub fn weight_bytes_per_gpu(c: &Config) -> f64 {
    let s = &c.serving;
    formats::weight_bytes(c) / (s.serve_tp * s.serve_pp) as f64
}

/// The KV cache of one token on one GPU: 2·(L/serve-pp)·⌈k/serve-tp⌉·d_head·bytes.
/// The key/value heads split over the tensor ranks while they last and are
/// replicated beyond (t > k: each rank keeps one, vLLM's and TensorRT-LLM's
/// rule). Multi-head latent attention keeps its latent and rotary key,
/// (r_kv + d_R) per layer, whole on every rank (DeepSeek-V2 §2.1.2).
/// Llama 3 70B in fp16: 327,680 bytes; at serve-tp 8 and 16, 40,960. A hybrid
/// model's linear layers keep no KV cache: only its attending layers count.
pub fn kv_bytes_per_token_per_gpu(c: &Config) -> f64 {
    let a = c.arch;
    let bytes = c.serving.kv_dtype.bytes();
    let layers = stage_attention_layers(c);
    if a.mla.is_on() {
        return layers * (a.mla.kv_lora_rank + a.mla.qk_rope_head_dim) as f64 * bytes;
    }
    let heads = a.kv_heads.div_ceil(c.serving.serve_tp.max(1)) as f64;
    2.0 * layers * heads * a.d_head() * bytes
}

/// Whether vLLM takes this GPU for a large one: 70 GiB or more and not an
/// A100 (`vllm/engine/arg_utils.py`, `_set_default_args`, v0.11–v0.19:
/// "Setting large max_num_batched_tokens for A100 reduces throughput").
fn large_gpu(c: &Config) -> bool {
    let g = c.system.gpu;
    g.mem_bytes >= 70.0 * crate::units::Bytes::GIB && !g.name.starts_with("a100")
}

/// Tokens of the engine's profiling forward pass: vLLM's default
/// `max_num_batched_tokens` for its OpenAI server, 8192 on a large GPU, else
/// 2048 ([`large_gpu`]).
pub fn profile_tokens(c: &Config) -> u64 {
    if large_gpu(c) {
        8192
    } else {
        2048
    }
}

/// Sequences of the engine's profiling sampler run: vLLM's default
/// `max_num_seqs` for its OpenAI server, 1024 on a large GPU, else 256
/// ([`large_gpu`]; the v0.19.0 logs print "Defaulting max_num_seqs to 1024").
pub fn profile_sequences(c: &Config) -> u64 {
    if large_gpu(c) {
        1024
    } else {
        256
    }
}

/// The peak of a forward pass over T = [`profile_tokens`] tokens, which the
/// engine profiles before sizing the cache: one layer's largest live tensors in
/// 16-bit, the residual stream and the MLP's input beside its up-projection
/// (2f wide for a gated MLP) and its activation, split over the tensor ranks.
pub fn activation_peak_bytes(c: &Config) -> f64 {
    let a = c.arch;
    let t = profile_tokens(c) as f64;
    let tp = c.serving.serve_tp as f64;
    let up = a.mlp_width_factor() * a.ffn.max(a.moe_ffn) as f64;
    let act = a.ffn.max(a.moe_ffn) as f64;
    2.0 * t * (2.0 * a.hidden as f64 + (up + act) / tp)
}

/// The peak of the profiling sampler run (vLLM V1 `_dummy_sampler_run`: one
/// row of logits per [`profile_sequences`], with top-k and top-p on so that
/// every path runs), on every rank of the last stage (the logits are gathered
/// whole): per vocabulary entry the model's logits in the activations' type
/// (`compute_logits`), their fp32 copy (`Sampler.forward`: "Use float32 for
/// the logits"), the fp32 probabilities (`logits.softmax(dim=-1,
/// dtype=torch.float32)`) and the random sampler's fp32 exponential draws
/// (`random_sample`: `q = torch.empty_like(probs)`): 2 + 4 + 4 + 4 = 14 bytes
/// (`vllm/v1/sample/`, v0.19.0). Llama 3 (128,256 entries) at 1024
/// sequences: 1.71 GiB; its logs print 1.89 GiB of peak activation.
pub fn sampler_peak_bytes(c: &Config) -> f64 {
    let logits = if c.serving.inference_dtype == crate::config::InferenceDtype::Fp32 { 4.0 } else { 2.0 };
    profile_sequences(c) as f64 * c.arch.vocab as f64 * (logits + 4.0 + 4.0 + 4.0)
}

/// What the engine keeps beside the weights and the cache: the profiled peak,
/// the larger of the forward pass ([`activation_peak_bytes`]) and the sampler
/// run ([`sampler_peak_bytes`]), which follow each other. vLLM 0.8–0.19
/// subtract that, the weights and the memory outside PyTorch that grew while
/// profiling (NCCL's buffers: 0.25 GiB on one H100, about 2.1 GiB at t ≥ 2 in
/// the v0.19.0 logs; not modelled) from mem-util × the memory CUDA reports;
/// the CUDA graphs are captured after the cache is sized, in the 1 − mem-util
/// left (subtracted first only from v0.21: vLLM PR #30515).
pub fn engine_reserve_bytes(c: &Config) -> f64 {
    activation_peak_bytes(c).max(sampler_peak_bytes(c))
}

/// The memory the engine sizes its share from: what CUDA reports
/// (`torch.cuda.mem_get_info`), the driver's own reservation less than
/// nvidia-smi's figure ([`crate::catalog::Gpu::cuda_reserved_bytes`]).
pub fn engine_total_bytes(c: &Config) -> f64 {
    (c.system.gpu_mem_bytes - c.system.gpu.cuda_reserved_bytes()).max(0.0)
}

/// How vLLM lays out the KV cache of a model whose layers keep different
/// amounts (`_get_kv_cache_groups_uniform_page_size`, vllm/v1/core/kv_cache_utils.py,
/// v0.11–v0.21): each kind of layer in groups of `group_size` layers (the
/// fewer kind's count; the larger one's where it is under 1.5× the fewer),
/// the last group of a kind padded with empty layers ("Add 8 padding layers"
/// for Gemma 3 27B: 10 global, 52 sliding in 6 groups of 10). Every group
/// draws on one pool of blocks; a block is `group_size` pages. A model whose
/// layers all keep every token is one group of its layers.
///
/// A hybrid model's linear layers keep one page per sequence, their state; so
/// that every page is the same size, vLLM raises the attention's block from
/// 16 tokens to the fewest multiple of 16 whose page holds a state, and pads
/// the state's page to it (`HybridAttentionMambaModelConfig.verify_and_update_config`,
/// vllm/model_executor/models/config.py, v0.10–v0.19: "Setting attention block
/// size to 784 tokens" for Qwen3.5-27B).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KvGroups {
    /// Layers behind one block, padding included.
    pub group_size: f64,
    /// Groups of layers that keep every token.
    pub full: f64,
    /// Groups of sliding layers.
    pub sliding: f64,
    /// Groups of linear layers (one block per sequence each).
    pub linear: f64,
    /// Tokens of an attending layer's page: 16, or more beside linear layers.
    pub block_tokens: f64,
    /// One layer's page on one GPU, bytes.
    pub page_bytes: f64,
}

impl KvGroups {
    pub fn groups(&self) -> f64 {
        self.full + self.sliding + self.linear
    }

    /// The tokens vLLM logs for a pool of `blocks` ([`kv_pool_tokens`]).
    pub fn tokens_of(&self, blocks: f64) -> f64 {
        (blocks / self.groups().max(1.0)).floor() * self.block_tokens
    }
}

/// The KV-cache groups of the busiest pipeline stage ([`KvGroups`]).
pub fn kv_groups(c: &Config) -> KvGroups {
    let a = c.arch;
    let attending = stage_attention_layers(c);
    let per_token = if attending > 0.0 { kv_bytes_per_token_per_gpu(c) / attending } else { 0.0 };
    let pp = c.serving.serve_pp.max(1);
    let global = a.global_layers().div_ceil(pp) as f64;
    let sliding = if a.sliding_window == 0 { 0.0 } else { (attending - global).max(0.0) };
    let linear = stage_linear_layers(c);
    let state = state_bytes_per_layer_per_gpu(c);
    let block_tokens = if linear > 0.0 && per_token > 0.0 {
        BLOCK_TOKENS * (state / (BLOCK_TOKENS * per_token)).ceil().max(1.0)
    } else {
        BLOCK_TOKENS
    };
    let page_bytes = if per_token > 0.0 { block_tokens * per_token } else { state };
    let kinds = [global, sliding, linear];
    let present = || kinds.into_iter().filter(|&n| n > 0.0);
    let fewest = present().fold(f64::INFINITY, f64::min);
    let most = present().fold(0.0, f64::max);
    let group_size = if most < 1.5 * fewest { most } else { fewest };
    let groups = |n: f64| if n > 0.0 { (n / group_size).ceil() } else { 0.0 };
    KvGroups {
        group_size: group_size.max(1.0),
        full: groups(global),
        sliding: groups(sliding),
        linear: groups(linear),
        block_tokens,
        page_bytes,
    }
}

/// The blocks one request of `tokens` holds, as vLLM's hybrid cache manager
/// budgets it (`max_memory_usage_bytes` of each group's spec,
/// vllm/v1/kv_cache_interface.py): ⌈tokens/block⌉ in a group that keeps every
/// token; in a sliding group the window less one and a step's batched tokens
/// (the profiled [`profile_tokens`]) at most, and one block more; one block in
/// a group of linear layers (prefix caching off, vLLM's default for hybrid
/// models: `mamba_cache_mode` "none").
pub fn kv_blocks_per_request(c: &Config, tokens: f64) -> f64 {
    let g = kv_groups(c);
    let full = (tokens / g.block_tokens).ceil();
    let window = (c.arch.sliding_window as f64 - 1.0 + profile_tokens(c) as f64).min(tokens);
    g.full * full + g.sliding * ((window / g.block_tokens).ceil() + 1.0) + g.linear
}

/// The KV cache one request of `tokens` holds on one GPU: its blocks
/// ([`kv_blocks_per_request`]) × the layers behind a block × a page.
pub fn kv_bytes_per_request_per_gpu(c: &Config, tokens: f64) -> f64 {
    let g = kv_groups(c);
    kv_blocks_per_request(c, tokens) * g.group_size * g.page_bytes
}

/// The pool's blocks (vLLM's `get_num_blocks`: pool ÷ page ÷ layers behind a block).
pub fn kv_pool_blocks(c: &Config) -> f64 {
    let g = kv_groups(c);
    if g.page_bytes > 0.0 {
        (kv_pool_bytes(c) / g.page_bytes / g.group_size).floor()
    } else {
        0.0
    }
}

/// The tokens vLLM logs for the pool ("GPU KV cache size: N tokens",
/// `_report_kv_cache_config`): the blocks shared out evenly over the groups,
/// a block's tokens each (v0.10–v0.19; v0.20 prints the users × the model's
/// length instead, vLLM PR #41069). A sliding or hybrid model's request holds
/// fewer blocks than this suggests: the users are [`kv_blocks_per_request`]'s.
pub fn kv_pool_tokens(c: &Config) -> f64 {
    kv_groups(c).tokens_of(kv_pool_blocks(c))
}

/// The KV cache's pool on one GPU: mem-util × the memory CUDA reports − the
/// weights − the engine's reserve (vLLM's `determine_available_memory`), never below 0.
pub fn kv_pool_bytes(c: &Config) -> f64 {
    let budget = c.serving.mem_util * engine_total_bytes(c);
    (budget - weight_bytes_per_gpu(c) - engine_reserve_bytes(c)).max(0.0)
}
