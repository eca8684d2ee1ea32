//! Serving: one replica of `serve-tp` × `serve-pp` GPUs, its memory as an
//! engine budgets it, and its time on the roofline (Kipply, "Transformer
//! Inference Arithmetic", 2022, made live). The article sizes serving by memory
//! alone (1.2 × weights, [`crate::memory::inference_memory`]); this is the rest.
//!
//! Each term is one function with its source: [`memory`] (the replica's
//! weights, KV cache and the engine's budget), [`time`] (prefill, decode, the
//! collectives, the crossover), and [`evaluate`] puts them together in a
//! [`ServingReport`], the JSON's `serving` object.

pub mod formats;
pub mod memory;
pub mod time;

use crate::config::Config;
use serde::Serialize;

/// Which resource bounds a decode step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// Reading the weights and the cache from memory takes longer than the arithmetic.
    Memory,
    /// The arithmetic takes longer.
    Compute,
}

/// Every serving number of one configuration (the JSON's `serving` object).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ServingReport {
    /// GPUs in one replica: serve-tp × serve-pp.
    pub gpus: u64,
    /// The weights one GPU holds, bytes.
    pub weights_bytes: f64,
    /// The KV cache of one token on one GPU, bytes.
    pub kv_bytes_per_token: f64,
    /// What the engine keeps beside the weights and the cache: the profiled forward
    /// pass's peak activations and the memory outside PyTorch's allocator, bytes.
    pub engine_reserve_bytes: f64,
    /// mem-util × capacity − weights − reserve: the KV cache's pool on one GPU, bytes.
    pub kv_pool_bytes: f64,
    /// The pool's tokens as vLLM logs them ("GPU KV cache size"), [`memory::kv_pool_tokens`].
    pub kv_pool_tokens: f64,
    /// The pool in vLLM's blocks (16 tokens of every layer behind a block, [`memory::KvGroups`]).
    pub kv_pool_blocks: f64,
    /// Requests of prompt-tokens + output-tokens the pool holds at once, as vLLM logs it
    /// ("Maximum concurrency"; a sliding layer holds its window, [`memory::kv_bytes_per_request_per_gpu`]).
    pub max_concurrency: f64,
    /// Whether the weights, the reserve and the batch's cache fit the engine's share of the memory.
    pub fits: bool,
    /// The batch's KV cache at its longest (every request at prompt + output tokens), per GPU, bytes.
    pub batch_kv_bytes: f64,
    pub prefill_seconds: f64,
    pub ttft_seconds: f64,
    pub tpot_seconds: f64,
    pub decode_bound: Bound,
    /// The batch at which a decode step turns compute-bound (short context).
    pub crossover_batch: f64,
    /// The same at the requests' mean context; infinite (JSON null) where no batch does.
    pub crossover_batch_at_context: f64,
    pub tokens_per_second_per_user: f64,
    pub output_tokens_per_second_per_gpu: f64,
    pub request_seconds: f64,
    pub usd_per_million_output_tokens: f64,
    /// A decode step's parts, seconds (the roofline's two sides and the collectives).
    pub decode: time::Step,
    /// The share of 16-bit weights' bandwidth the format's kernels reach ([`formats::read_share`]).
    pub weight_read_share: f64,
}

/// The serving numbers of `c`.
pub fn evaluate(c: &Config) -> ServingReport {
    let s = &c.serving;
    let gpus = s.serve_tp * s.serve_pp;
    let weights = memory::weight_bytes_per_gpu(c);
    let per_token = memory::kv_bytes_per_token_per_gpu(c);
    let reserve = memory::engine_reserve_bytes(c);
    let pool = memory::kv_pool_bytes(c);
    let blocks = memory::kv_pool_blocks(c);
    let request_tokens = (s.prompt_tokens + s.output_tokens) as f64;
    let per_request = memory::kv_bytes_per_request_per_gpu(c, request_tokens);
    let request_blocks = memory::kv_blocks_per_request(c, request_tokens);
    let batch_kv = per_request * s.batch as f64;
    let decode = time::decode_step(c, s.batch);
    let tpot = decode.total;
    let prefill = time::prefill_seconds(c, s.prompt_tokens);
    let ttft = time::ttft_seconds(c);
    let per_second = s.batch as f64 / tpot;
    ServingReport {
        gpus,
        weights_bytes: weights,
        kv_bytes_per_token: per_token,
        engine_reserve_bytes: reserve,
        kv_pool_bytes: pool,
        kv_pool_tokens: memory::kv_pool_tokens(c),
        kv_pool_blocks: blocks,
        // vLLM's "Maximum concurrency": the pool's blocks over one request's (a sliding group's fewer).
        max_concurrency: if request_blocks > 0.0 { blocks / request_blocks } else { 0.0 },
        fits: pool >= batch_kv,
        batch_kv_bytes: batch_kv,
        prefill_seconds: prefill,
        ttft_seconds: ttft,
        tpot_seconds: tpot,
        decode_bound: decode.bound(),
        crossover_batch: time::crossover_batch(c),
        crossover_batch_at_context: time::crossover_batch_at_context(c),
        tokens_per_second_per_user: 1.0 / tpot,
        output_tokens_per_second_per_gpu: per_second / gpus as f64,
        request_seconds: ttft + s.output_tokens as f64 * tpot,
        usd_per_million_output_tokens: gpus as f64 * c.system.usd_per_gpu_hour / 3600.0 / per_second * 1e6,
        decode,
        weight_read_share: formats::read_share(s.inference_dtype),
    }
}
