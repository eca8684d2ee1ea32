//! Beyond the article: pipeline bubble, batch and communication volume.

use crate::config::Config;
use crate::memory::{gradient_bytes, model_bytes};
use crate::units::Bytes;

/// The pipeline bubble relative to the ideal step time: (p − 1)/m for m
/// micro-batches (GPipe, Huang et al. 2019; 1F1B, Narayanan et al. 2021, §2.2).
/// p = 4, m = 16 → 0.1875; it exceeds 1 when m < p (m = 1, p = 4 → 3).
pub fn bubble_overhead(pp: u64, micro_batches: u64) -> f64 {
    (pp as f64 - 1.0) / micro_batches as f64
}

/// The share of a step the pipeline idles: (p − 1)/(m + p − 1), the same bubble
/// read as part of the step (always below 1). p = 4, m = 16 → 0.1579.
pub fn bubble_fraction(pp: u64, micro_batches: u64) -> f64 {
    let (p, m) = (pp as f64, micro_batches as f64);
    (p - 1.0) / (m + p - 1.0)
}

/// Global batch in sequences = b·m·d.
pub fn global_batch(c: &Config) -> f64 {
    (c.micro_batch * c.grad_accum) as f64 * c.layout.dp as f64
}

/// Tokens per optimizer step = b·m·d·s.
pub fn tokens_per_step(c: &Config) -> f64 {
    global_batch(c) * c.seq_len as f64
}

/// Bytes each GPU sends per step for data parallelism, over the d·cp ranks
/// that hold the same weights, each rank P/(t·p) of them (G their gradients'
/// bytes, W the weights'; a ring moves (g − 1)/g of an all-gather or a
/// reduce-scatter per rank, twice that of an all-reduce):
///
/// - ZeRO-0 all-reduces the gradients: 2(g − 1)/g·G;
/// - ZeRO-1/2, the distributed optimizer, reduce-scatters them and
///   all-gathers the updated weights: (g − 1)/g·(G + W);
/// - ZeRO-3 (FSDP) gathers the weights for every micro-batch's forward and
///   again for its backward, and reduce-scatters its gradients:
///   m·(g − 1)/g·(2W + G) (Rajbhandari et al. 2020, §7, for one micro-batch:
///   1.5× an all-reduce).
pub fn dp_comm_bytes(c: &Config) -> Bytes {
    let g = c.layout.shard_group() as f64;
    let shard = c.params.get() / c.layout.model_parallel() as f64;
    let grads = shard * gradient_bytes(c.dtypes.grad_dtype).0;
    let weights = shard * model_bytes(c.dtypes.precision).0;
    let ring = (g - 1.0) / g;
    Bytes(if c.zero.shards_params() {
        c.grad_accum as f64 * ring * (2.0 * weights + grads)
    } else if c.zero.shards_optimizer() {
        ring * (grads + weights)
    } else {
        2.0 * ring * grads
    })
}
