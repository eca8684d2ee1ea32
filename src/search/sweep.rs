//! Sweeps: one quantity against one input, everything else held, for the
//! charts (memory against model size, sequence length and GPU count; days
//! against GPU count). Each point is an ordinary evaluation.

use crate::config::{Architecture, Config, Layout, Serving, ZeroStage};
use crate::memory::training_memory;
use crate::report::evaluate;
use crate::units::Params;

/// `n` points from `lo` to `hi` (both exactly), evenly spaced on a log axis.
/// (`exp` of a multiple of `ln`, not `powf`: the crate keeps to one family of
/// libm functions; `powf` alone would bring `pow` and its tables, 3.8 KB
/// gzipped, into the browser's wasm.)
pub fn log_points(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let n = n.max(2);
    let step = (hi / lo).ln() / (n - 1) as f64;
    (0..n).map(|i| if i == n - 1 { hi } else { lo * (step * i as f64).exp() }).collect()
}

/// A shape for `params` grown from `base` by k = (P/P₀)^(1/3) in layers and
/// width alike, width kept a multiple of the heads: the family the Megatron
/// paper's figure sweeps (22B to 1T), not a published model.
pub fn scaled_arch(base: &Architecture, base_params: Params, params: f64) -> Architecture {
    // exp∘ln rather than cbrt, as in log_points: cbrt brings libm's fused multiply-add.
    let k = ((params / base_params.get()).ln() / 3.0).exp();
    let heads = base.heads.max(1);
    let width_per_head = ((base.hidden as f64 * k) / heads as f64).round().max(1.0) as u64;
    let hidden = width_per_head * heads;
    // The MLP keeps its ratio to the width.
    let wider = |f: u64| ((f as f64 * hidden as f64 / base.hidden as f64).round() as u64).max(1);
    Architecture {
        layers: ((base.layers as f64 * k).round() as u64).max(1),
        hidden,
        ffn: wider(base.ffn),
        moe_ffn: wider(base.moe_ffn),
        ..*base
    }
}

/// Per-GPU total (bytes) against the parameter count, the shape scaled with it.
pub fn memory_vs_params(base: &Config, params: &[f64]) -> Vec<(f64, f64)> {
    params
        .iter()
        .map(|&p| {
            let arch = scaled_arch(&base.arch, base.params, p);
            let layers_ok = arch.layers.is_multiple_of(base.layout.pp) || base.layout.pp == 1;
            let arch = if layers_ok {
                arch
            } else {
                Architecture { layers: arch.layers.next_multiple_of(base.layout.pp), ..arch }
            };
            let active = Params(p * base.active_params.get() / base.params.get());
            let c = Config { params: Params(p), active_params: active, arch, ..base.clone() };
            (p, training_memory(&c).total().get())
        })
        .collect()
}

/// Per-GPU total (bytes) against the sequence length: the 5·a·s/h attention term grows as s².
pub fn memory_vs_seq_len(base: &Config, seq_lens: &[u64]) -> Vec<(f64, f64)> {
    seq_lens
        .iter()
        .map(|&s| (s as f64, training_memory(&Config { seq_len: s, ..base.clone() }).total().get()))
        .collect()
}

/// Data-parallel degrees giving the GPU counts, for the base's t·p.
fn dp_for(base: &Config, gpus: &[u64]) -> Vec<(u64, u64)> {
    let mp = base.layout.replica();
    gpus.iter().filter(|&&n| n >= mp && n.is_multiple_of(mp)).map(|&n| (n, n / mp)).collect()
}

/// Per-GPU total (bytes) against N, one series per ZeRO stage.
pub fn memory_vs_gpus(base: &Config, gpus: &[u64]) -> [Vec<(f64, f64)>; 4] {
    ZeroStage::ALL.map(|zero| {
        dp_for(base, gpus)
            .into_iter()
            .map(|(n, d)| {
                let c = Config { zero, ..base.on_layout(Layout { dp: d, ..base.layout }) };
                (n as f64, training_memory(&c).total().get())
            })
            .collect()
    })
}

/// Wall-clock days against N: the report's days (C/(N·τ) under `article`, the
/// step-time model's under `megatron`), d grown at the same t·p·cp.
pub fn days_vs_gpus(base: &Config, gpus: &[u64]) -> Vec<(f64, f64)> {
    dp_for(base, gpus)
        .into_iter()
        .map(|(n, d)| (n as f64, evaluate(&base.on_layout(Layout { dp: d, ..base.layout })).days()))
        .collect()
}

/// Powers of two from t·p·cp up to `max`.
pub fn gpu_counts(base: &Config, max: u64) -> Vec<u64> {
    let mp = base.layout.replica();
    (0..40).map(|k| mp << k).take_while(|&n| n <= max.max(mp)).collect()
}

/// Serving memory (weights in the inference type + KV cache) against the
/// context length at the configured batch: powers of two from 512 tokens to
/// 1M, and the configured context.
pub fn serving_vs_context(c: &Config) -> Vec<(f64, f64)> {
    // In order, the configured context in its place (inserted, not sorted in).
    let mut contexts: Vec<u64> = (9..=20).map(|e| 1u64 << e).collect();
    if let Err(at) = contexts.binary_search(&c.serving.context) {
        contexts.insert(at, c.serving.context);
    }
    contexts
        .into_iter()
        .map(|context| {
            let at = Config { serving: Serving { context, ..c.serving }, ..c.clone() };
            (context as f64, crate::memory::inference_total_bytes(&at).get())
        })
        .collect()
}

/// A decode step at one batch: the roofline's two sides and the step with its fixed costs, seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchPoint {
    pub batch: f64,
    /// Reading the weights the batch touches and its cache.
    pub memory: f64,
    /// The arithmetic.
    pub compute: f64,
    /// The time per output token: the larger side, the kernels, the collectives, the host.
    pub tpot: f64,
}

/// Time per output token against the batch (the serving figure's chart):
/// powers of two from 1 to 4096, and the configured batch in its place.
pub fn serving_vs_batch(c: &Config) -> Vec<BatchPoint> {
    let mut batches: Vec<u64> = (0..=12).map(|e| 1u64 << e).collect();
    if let Err(at) = batches.binary_search(&c.serving.batch) {
        batches.insert(at, c.serving.batch);
    }
    batches
        .into_iter()
        .map(|b| {
            let s = crate::serving::time::decode_step(c, b);
            BatchPoint { batch: b as f64, memory: s.memory, compute: s.compute, tpot: s.total }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Settings;

    fn base(pairs: &[(&str, &str)]) -> Config {
        Settings::from_pairs(pairs.iter().copied()).0.resolve().unwrap()
    }

    /// The chart's points: memory flat then rising with the cache, compute linear in the batch, the
    /// step never below either side; the two sides cross near the core's crossover batch.
    #[test]
    fn serving_points_follow_the_roofline() {
        let c = base(&[("model", "llama-2-13b"), ("gpu", "a100-80gb"), ("prompt-tokens", "1"), ("output-tokens", "1")]);
        let p = serving_vs_batch(&c);
        assert_eq!(p.len(), 13);
        for w in p.windows(2) {
            assert!(w[1].compute > w[0].compute && w[1].tpot >= w[0].tpot);
        }
        for x in &p {
            assert!(x.tpot >= x.memory.max(x.compute));
        }
        let cross = crate::serving::time::crossover_batch(&c);
        let after = p.iter().find(|x| x.compute > x.memory).unwrap();
        assert!(after.batch >= cross && after.batch / 2.0 < cross, "{} vs {cross}", after.batch);
        let with = base(&[("model", "llama-2-13b"), ("batch", "24")]);
        assert!(serving_vs_batch(&with).iter().any(|x| x.batch == 24.0));
    }

    #[test]
    fn log_points_span_the_range() {
        let p = log_points(1e9, 1e12, 4);
        assert_eq!(p.len(), 4);
        assert!((p[1] - 1e10).abs() < 1.0 && (p[3] - 1e12).abs() < 1e3);
    }

    #[test]
    fn scaled_shape_keeps_the_parameter_count_close() {
        let c = base(&[("model", "megatron-22b")]);
        for p in [1e9, 22e9, 175e9, 1e12] {
            let a = scaled_arch(&c.arch, c.params, p);
            let ratio = a.approx_params().get() / p;
            assert!((0.8..1.25).contains(&ratio), "{p}: {ratio}");
            assert_eq!(a.hidden % a.heads, 0);
        }
    }

    #[test]
    fn sweeps_are_monotone_where_the_formulas_are() {
        let c = base(&[("model", "llama-2-7b"), ("tp", "2")]);
        let mem = memory_vs_params(&c, &log_points(1e9, 1e12, 12));
        assert!(mem.windows(2).all(|w| w[1].1 > w[0].1), "bigger models need more memory");
        let seq = memory_vs_seq_len(&c, &[512, 1024, 2048, 4096, 8192]);
        assert!(seq.windows(2).all(|w| w[1].1 > w[0].1));
        // The s² term: the increment per doubling grows.
        assert!(seq[4].1 - seq[3].1 > 2.0 * (seq[3].1 - seq[2].1) * 0.99);
        let gpus = gpu_counts(&c, 1024);
        assert_eq!(gpus.first(), Some(&2));
        let by_zero = memory_vs_gpus(&c, &gpus);
        assert!(by_zero[0].windows(2).all(|w| w[1].1 == w[0].1), "ZeRO-0 does not shrink with N");
        assert!(by_zero[3].windows(2).all(|w| w[1].1 <= w[0].1));
        let days = days_vs_gpus(&c, &gpus);
        assert!((days[0].1 / days[1].1 - 2.0).abs() < 1e-9, "twice the GPUs, half the days");
    }

    /// The days line passes through the run it marks, context parallelism
    /// included (its N is t·p·cp·d: the line's N once counted t·p·d), under both conventions.
    #[test]
    fn the_days_line_passes_through_the_run() {
        for convention in ["article", "megatron"] {
            let c = base(&[
                ("model", "llama-3-70b"),
                ("tp", "4"),
                ("pp", "4"),
                ("cp", "2"),
                ("dp", "2"),
                ("grad-accum", "64"),
                ("convention", convention),
            ]);
            let n = c.layout.gpus();
            assert_eq!(n, 64);
            let line = days_vs_gpus(&c, &gpu_counts(&c, 1024));
            let at = line.iter().find(|(x, _)| *x == n as f64).expect("the run's N is on the line");
            assert_eq!(at.1, evaluate(&c).days(), "{convention}");
        }
    }
}
