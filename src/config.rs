//! The validated configuration every formula takes, and its enums.

use crate::catalog::{Gpu, Model};
use crate::units::{Params, Tokens};
use serde::Serialize;

choice!(
    /// Training precision of the weights (article, "Model Parameters").
    Precision {
        Fp32 = "fp32",
        Fp16 = "fp16",
        Bf16 = "bf16",
        /// fp16/bf16 weights with an fp32 master copy (counted in the optimizer).
        Mixed = "mixed",
    }
);

choice!(
    /// Storage of the gradients (article, "Gradients").
    GradDtype {
        Fp32 = "fp32",
        /// 2 bytes: fp16 or bf16.
        Fp16 = "fp16",
    }
);

choice!(
    /// Optimizer (article, "Optimizer States").
    Optimizer {
        AdamW = "adamw",
        Adam8bit = "adam-8bit",
        SgdMomentum = "sgd-momentum",
        Sgd = "sgd",
    }
);

choice!(
    /// Activation recomputation (Korthikanti et al. 2022).
    Recompute {
        None = "none",
        Selective = "selective",
        Full = "full",
    }
);

choice!(
    /// Where the optimizer states live (ZeRO-Offload, Ren et al. 2021).
    Offload {
        None = "none",
        Optimizer = "optimizer",
    }
);

choice!(
    /// How model states are divided over tensor and pipeline ranks.
    Convention {
        /// Transformer Math 101 verbatim: M/(p·t), gradients ÷ p only.
        Article = "article",
        /// Per-rank accounting as in Megatron-LM: every model state ÷ t·p, fp32 gradients.
        Megatron = "megatron",
    }
);

choice!(
    /// Data type of the weights when serving (article, "Inference").
    InferenceDtype {
        Fp32 = "fp32",
        Fp16 = "fp16",
        Bf16 = "bf16",
        Int8 = "int8",
        /// A refinement beyond the article: 4-bit weights.
        Int4 = "int4",
    }
);

/// ZeRO stage (Rajbhandari et al. 2020): 0 = off, 1 = optimizer states,
/// 2 = + gradients, 3 = + parameters partitioned over the data-parallel ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(into = "u8")]
pub struct ZeroStage(u8);

impl ZeroStage {
    pub const ALL: [ZeroStage; 4] = [ZeroStage(0), ZeroStage(1), ZeroStage(2), ZeroStage(3)];

    /// `None` outside 0–3.
    pub fn new(stage: u64) -> Option<Self> {
        (stage <= 3).then_some(ZeroStage(stage as u8))
    }
    pub fn get(self) -> u8 {
        self.0
    }
    pub fn shards_optimizer(self) -> bool {
        self.0 >= 1
    }
    pub fn shards_gradients(self) -> bool {
        self.0 >= 2
    }
    pub fn shards_params(self) -> bool {
        self.0 >= 3
    }
}

impl From<ZeroStage> for u8 {
    fn from(z: ZeroStage) -> u8 {
        z.0
    }
}

/// Parallel layout: tensor (t), pipeline (p) and data (d) degrees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Layout {
    pub tp: u64,
    pub pp: u64,
    pub dp: u64,
}

impl Layout {
    /// N = t·p·d.
    pub fn gpus(self) -> u64 {
        self.tp * self.pp * self.dp
    }
    /// t·p: the GPUs that share one model replica.
    pub fn model_parallel(self) -> u64 {
        self.tp * self.pp
    }
}

/// Transformer shape. `kv_heads` and `ffn` are informative (the article's
/// formulas use only h, L, a, V).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Architecture {
    pub layers: u64,
    pub hidden: u64,
    pub heads: u64,
    pub vocab: u64,
}

impl Architecture {
    /// P ≈ 12·L·h² + V·h (article convention: attention 4h², MLP 8h², embeddings).
    pub fn approx_params(self) -> Params {
        let (l, h, v) = (self.layers as f64, self.hidden as f64, self.vocab as f64);
        Params(12.0 * l * h * h + v * h)
    }
}

/// Everything a formula may read, already checked: built by
/// [`crate::settings::Settings::resolve`] and never mutated afterwards.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Config {
    pub model: Option<&'static Model>,
    pub params: Params,
    pub active_params: Params,
    pub tokens: Tokens,
    pub arch: Architecture,
    pub seq_len: u64,
    pub micro_batch: u64,
    pub grad_accum: u64,
    pub layout: Layout,
    pub precision: Precision,
    pub grad_dtype: GradDtype,
    pub optimizer: Optimizer,
    pub recompute: Recompute,
    pub sequence_parallel: bool,
    pub partition_activations: bool,
    /// Folded tensor+sequence parallelism: the t axis shards model states and activations alike.
    pub tsp: bool,
    pub zero: ZeroStage,
    pub offload: Offload,
    /// DeepSpeed `stage3_max_live_parameters` (default 1e9).
    pub max_live_params: Params,
    pub gpu: &'static Gpu,
    /// Usable memory per GPU in bytes.
    pub gpu_mem_bytes: f64,
    /// Achieved FLOP/s per GPU (τ), not the datasheet peak.
    pub flops_per_gpu: f64,
    pub usd_per_gpu_hour: f64,
    pub inference_dtype: InferenceDtype,
    pub convention: Convention,
}
