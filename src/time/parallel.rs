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

/// Bytes each GPU sends per step for data parallelism, by group ([`DpTraffic`]).
/// A rank holds P/(t·p) of the weights, its routed experts' share split over
/// etp·ep instead of t, twice that under DualPipe (two stages a rank); G their
/// gradients' bytes, W the weights'; a ring over g ranks moves (g − 1)/g of an
/// all-gather or a reduce-scatter per rank, twice that of an all-reduce:
///
/// - ZeRO-0 all-reduces the gradients: 2(g − 1)/g·G;
/// - ZeRO-1/2, the distributed optimizer, reduce-scatters them and
///   all-gathers the updated weights: (g − 1)/g·(G + W);
/// - ZeRO-3 (FSDP) gathers the weights for every micro-batch's forward and
///   again for its backward, and reduce-scatters its gradients:
///   m·(g − 1)/g·(2W + G) (Rajbhandari et al. 2020, §7, for one micro-batch:
///   1.5× an all-reduce).
///
/// The dense weights reduce over the d·cp ranks that hold the same ones; the
/// routed experts over the expert data-parallel group, t·d·cp/(etp·ep) ranks
/// (Megatron-Core's `expert_data_parallel` group; DeepSeek-V3 §3.2: 64-way
/// expert parallelism on 2,048 GPUs leaves each expert 2 copies to reduce).
pub fn dp_traffic(c: &Config) -> DpTraffic {
    let l = c.layout;
    let a = c.arch;
    let pair = if c.schedule == crate::config::Schedule::DualPipe && l.pp > 1 { 2.0 } else { 1.0 };
    let expert_share = a.expert_params().get() / a.exact_params().get().max(1.0);
    let experts = c.params.get() * expert_share;
    let dense_shard = (c.params.get() - experts) * pair / l.model_parallel() as f64;
    let expert_shard = experts * pair / (l.expert_tp() * l.ep * l.pp) as f64;
    let over = |shard: f64, group: u64| {
        let g = group.max(1) as f64;
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
    };
    DpTraffic { dense: over(dense_shard, l.shard_group()), experts: over(expert_shard, expert_data_parallel(c)) }
}

/// One rank's data-parallel traffic per step: its dense weights' over the
/// d·cp ranks, its routed experts' over the expert data-parallel group.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DpTraffic {
    pub dense: Bytes,
    pub experts: Bytes,
}

/// The ranks that hold the same routed experts: t·d·cp/(etp·ep), at least 1.
pub fn expert_data_parallel(c: &Config) -> u64 {
    let l = c.layout;
    (l.tp * l.dp * l.cp / (l.expert_tp() * l.ep).max(1)).max(1)
}

/// [`dp_traffic`] in all, bytes per GPU per step.
pub fn dp_comm_bytes(c: &Config) -> Bytes {
    let t = dp_traffic(c);
    Bytes(t.dense.get() + t.experts.get())
}
