//! Beyond the article: pipeline bubble, batch and communication volume.

use crate::config::{Config, ZeroStage};
use crate::memory::gradient_bytes;
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

/// Bytes each GPU sends per step for data parallelism: a ring all-reduce moves
/// 2·(d−1)/d × the gradient bytes of its model-parallel shard; ZeRO-1/2 the
/// same (reduce-scatter + all-gather); ZeRO-3 1.5× that (Rajbhandari et al. 2020, §7).
pub fn dp_comm_bytes(c: &Config) -> Bytes {
    // The gradients are reduced over the d·cp ranks that hold the same weights.
    let d = c.layout.shard_group() as f64;
    let shard = c.params.get() / c.layout.model_parallel() as f64;
    let ring = 2.0 * (d - 1.0) / d * shard * gradient_bytes(c.grad_dtype).0;
    let zero3 = if c.zero >= ZeroStage::ALL[3] { 1.5 } else { 1.0 };
    Bytes(ring * zero3)
}
