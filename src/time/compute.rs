//! Compute (article, "Compute Requirements"), time, money and Chinchilla.

use crate::config::{Config, Convention, Recompute};
use crate::units::{Flops, Params, Tokens};
use serde::Serialize;

/// C_forward ≈ 2·P·D, C_backward ≈ 4·P·D (article; Kaplan et al. 2020).
/// With mixture-of-experts, P is the parameters active per token.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct ComputeBreakdown {
    pub forward: Flops,
    pub backward: Flops,
    /// Forward work re-run by activation recomputation.
    pub recompute: Flops,
}

impl ComputeBreakdown {
    /// C = C_forward + C_backward (+ recomputation).
    pub fn total(&self) -> Flops {
        self.forward + self.backward + self.recompute
    }
}

/// C ≈ 6·P·D, split into forward 2PD and backward 4PD.
pub fn training_flops(active: Params, tokens: Tokens) -> ComputeBreakdown {
    let pd = active.get() * tokens.get();
    ComputeBreakdown { forward: Flops(2.0 * pd), backward: Flops(4.0 * pd), recompute: Flops(0.0) }
}

/// Extra forward work of recomputation. Full re-runs the forward pass: +2PD
/// (C ≈ 8PD). Selective re-runs only the attention core (QKᵀ and attention
/// over V): 4·s·h·L FLOPs per token (Korthikanti et al. 2022, §5). The article
/// bounds it as 2PD ≤ C_forward ≤ 4PD.
pub fn recompute_flops(c: &Config) -> Flops {
    let pd = c.active_params.get() * c.tokens.get();
    match c.recompute {
        Recompute::None => Flops(0.0),
        Recompute::Selective => {
            Flops(4.0 * c.seq_len as f64 * c.arch.attention_width() * c.arch.layers as f64 * c.tokens.get())
                .min(2.0 * pd)
        }
        Recompute::Full => Flops(2.0 * pd),
    }
}

impl Flops {
    fn min(self, cap: f64) -> Flops {
        Flops(self.0.min(cap))
    }
}

/// The whole run's compute with recomputation. Under `megatron` the forward
/// and backward passes count attention too (PaLM's 12·L·h·s per token, split
/// 1 : 2 as the matrix products are), and full recomputation re-runs that forward.
pub fn compute(c: &Config) -> ComputeBreakdown {
    with_adapters(c, base_compute(c))
}

/// LoRA's compute: the frozen weights get no gradient, so the backward's
/// weight-gradient products (2·P·D of its 4·P·D) go, while the gradient still
/// flows through them to every adapter below; the adapters' own forward and
/// backward add 6·T·D (Hu et al. 2021, §4.2: no gradients "for the vast
/// majority of the parameters"; T the adapters a token passes through). A
/// trained output layer adds its weight gradient, 2·V·h per token.
fn with_adapters(c: &Config, b: ComputeBreakdown) -> ComputeBreakdown {
    let f = c.finetune;
    if !f.is_adapter() {
        return b;
    }
    let d = c.tokens.get();
    let pd = c.active_params.get() * d;
    let td = crate::finetune::lora_params_per_token(&c.arch, f.rank, f.targets) * d;
    let output = if f.train_embeddings { 2.0 * (c.arch.vocab * c.arch.hidden) as f64 * d } else { 0.0 };
    let recompute = if b.recompute.get() > 0.0 && c.recompute == Recompute::Full { 2.0 * td } else { 0.0 };
    ComputeBreakdown {
        forward: Flops(b.forward.get() + 2.0 * td),
        backward: Flops(b.backward.get() - 2.0 * pd + 4.0 * td + output),
        recompute: Flops(b.recompute.get() + recompute),
    }
}

fn base_compute(c: &Config) -> ComputeBreakdown {
    match c.convention {
        Convention::Article => {
            ComputeBreakdown { recompute: recompute_flops(c), ..training_flops(c.active_params, c.tokens) }
        }
        Convention::Megatron => {
            let total = flops_with_attention(c).get();
            let forward = total / 3.0;
            let recompute = match c.recompute {
                Recompute::Full => Flops(forward),
                _ => recompute_flops(c),
            };
            ComputeBreakdown { forward: Flops(forward), backward: Flops(total - forward), recompute }
        }
    }
}

/// Training FLOPs with attention (PaLM, Chowdhery et al. 2022, Appendix B):
/// (6·P_active + 12·L·h·s)·D. 6PD counts the weight matrices only; the
/// attention scores and their use over V add 12·L·h·s per token.
pub fn flops_with_attention(c: &Config) -> Flops {
    // The scores and their use over V are a·d_head wide (h in the article's shape).
    let attention = 12.0 * c.arch.layers as f64 * c.arch.attention_width() * c.seq_len as f64;
    Flops((6.0 * c.active_params.get() + attention) * c.tokens.get())
}

/// GPU-hours = C / τ / 3600, τ the achieved FLOP/s per GPU.
pub fn gpu_hours(flops: Flops, flops_per_gpu: f64) -> f64 {
    flops.get() / flops_per_gpu / 3600.0
}

/// T = C / (N·τ), in days.
pub fn days(flops: Flops, gpus: u64, flops_per_gpu: f64) -> f64 {
    flops.get() / (gpus as f64 * flops_per_gpu) / 86_400.0
}

/// PetaFLOP-days = C / (10¹⁵ · 86 400) (article, the scaling-law papers' unit).
pub fn petaflop_days(flops: Flops) -> f64 {
    flops.get() / (1e15 * 86_400.0)
}

/// Cost = GPU-hours × price per GPU-hour.
pub fn cost_usd(gpu_hours: f64, usd_per_gpu_hour: f64) -> f64 {
    gpu_hours * usd_per_gpu_hour
}

/// Compute-optimal tokens D = 20·P (Hoffmann et al. 2022, "Chinchilla"; article,
/// "Parameter vs Dataset Tradeoffs").
pub const CHINCHILLA_TOKENS_PER_PARAM: f64 = 20.0;

/// The article: "We do not recommend training a LLM for less than 200B tokens."
pub const MIN_RECOMMENDED_TOKENS: f64 = 200e9;

/// D = 20·P.
pub fn chinchilla_tokens(params: Params) -> Tokens {
    Tokens(CHINCHILLA_TOKENS_PER_PARAM * params.get())
}
