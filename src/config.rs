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
        /// The optimizer on NVMe (ZeRO-Infinity, Rajbhandari et al. 2021).
        OptimizerNvme = "optimizer-nvme",
    }
);

impl Offload {
    /// Whether the optimizer leaves the GPU.
    pub fn is_on(self) -> bool {
        self != Offload::None
    }
}

choice!(
    /// The pipeline schedule (Narayanan et al. 2021, §2.2).
    Schedule {
        /// One forward, one backward: a stage holds at most p micro-batches.
        OneFOneB = "1f1b",
        /// All forwards, then all backwards: a stage holds all m micro-batches.
        Gpipe = "gpipe",
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

choice!(
    /// Data type of the KV cache when serving (practice beyond the article).
    KvDtype {
        Fp32 = "fp32",
        Fp16 = "fp16",
        Bf16 = "bf16",
        Fp8 = "fp8",
        Int8 = "int8",
        Int4 = "int4",
    }
);

impl KvDtype {
    /// Bytes per cached value.
    pub fn bytes(self) -> f64 {
        match self {
            KvDtype::Fp32 => 4.0,
            KvDtype::Fp16 | KvDtype::Bf16 => 2.0,
            KvDtype::Fp8 | KvDtype::Int8 => 1.0,
            KvDtype::Int4 => 0.5,
        }
    }
}

choice!(
    /// How attention keeps its scores (practice beyond the article).
    Attention {
        /// The s×s scores are stored: the article's 5·a·s/h term.
        Standard = "standard",
        /// FlashAttention recomputes them in the backward pass: no s×s term.
        Flash = "flash",
    }
);

choice!(
    /// The data type of the optimizer's moments (Adam's m and v, SGD's momentum):
    /// fp32 as the article counts them; bf16 where the states follow pure-bf16
    /// weights (`torch.optim.AdamW` on bf16 parameters, as torchtune trains) or
    /// Megatron-LM's precision-aware optimizer (`--exp-avg-dtype`).
    ExpAvgDtype {
        Fp32 = "fp32",
        Bf16 = "bf16",
        Fp8 = "fp8",
    }
);

impl ExpAvgDtype {
    /// Bytes per moment value.
    pub fn bytes(self) -> f64 {
        match self {
            ExpAvgDtype::Fp32 => 4.0,
            ExpAvgDtype::Bf16 => 2.0,
            ExpAvgDtype::Fp8 => 1.0,
        }
    }
}

choice!(
    /// How the loss computes the cross-entropy of the logits (practice beyond the
    /// article; what the last pipeline stage holds at its peak, [`crate::memory::logit_terms`]).
    Loss {
        /// PyTorch's `cross_entropy` on an fp32 copy of the whole logits
        /// (torchtitan, torchtune's plain path, Hugging Face).
        Standard = "standard",
        /// Megatron-LM's vocab-parallel cross-entropy: one fp32 copy, computed in
        /// place (its default and its `--cross-entropy-loss-fusion` alike).
        Fused = "fused",
        /// torchtune's `CEWithChunkedOutputLoss`: the logits in `loss-chunks`
        /// pieces, each upcast to fp32 on its own.
        Chunked = "chunked",
    }
);

choice!(
    /// The MLP block's form (practice beyond the article).
    Mlp {
        /// Two h×f matrices (GPT, the article's 8h² with f = 4h).
        Gelu = "gelu",
        /// Three h×f matrices: gate, up and down (Llama, Mistral, Qwen).
        Swiglu = "swiglu",
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
    /// Context parallelism: each rank holds s/cp of every sequence (1: none).
    pub cp: u64,
}

impl Layout {
    /// t·p·d without context parallelism.
    pub const fn new(tp: u64, pp: u64, dp: u64) -> Layout {
        Layout { tp, pp, dp, cp: 1 }
    }
    /// N = t·p·cp·d.
    pub fn gpus(self) -> u64 {
        self.tp * self.pp * self.cp * self.dp
    }
    /// d·cp: the ranks over which ZeRO and the distributed optimizer shard.
    pub fn shard_group(self) -> u64 {
        self.dp * self.cp
    }
    /// t·p: the GPUs that share one model replica.
    pub fn model_parallel(self) -> u64 {
        self.tp * self.pp
    }
}

/// Transformer shape: the article's L, h, a, V, and the refinements of today's
/// models (GQA, the MLP's width and form, untied embeddings, experts). The
/// article's formulas read only L, h, a, V; the exact parameter count reads all.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Architecture {
    pub layers: u64,
    pub hidden: u64,
    pub heads: u64,
    pub vocab: u64,
    /// Key/value heads (GQA, MQA); = heads in the article's shape.
    pub kv_heads: u64,
    /// The MLP's inner size f (4h in the article's shape).
    pub ffn: u64,
    pub mlp: Mlp,
    /// One V×h matrix for input and output.
    pub tie_embeddings: bool,
    /// Experts per MoE layer (1: dense), experts per token, always-on experts.
    pub experts: u64,
    pub top_k: u64,
    pub shared_experts: u64,
    /// Inner size of one expert.
    pub moe_ffn: u64,
    /// MoE models whose first k layers are dense (DeepSeek: 3), with the MLP of `ffn`.
    pub dense_layers: u64,
    /// Multi-token prediction modules (DeepSeek-V3 §2.2: 1), each a projection
    /// of 2h to h, three norms and one transformer layer of the model's last
    /// kind, sharing the embedding and the output head.
    pub mtp_layers: u64,
    /// Multi-head latent attention (DeepSeek-V2/V3): the compressed KV's rank
    /// (0: none), the query's (0: a full query projection), and the head
    /// dimensions of the query/key's plain and rotary parts and of the value.
    pub mla: Mla,
}

/// Multi-head latent attention's shape (DeepSeek-AI 2024, DeepSeek-V2 §2.1):
/// keys and values come from one latent of `kv_lora_rank` plus a shared
/// rotary key of `qk_rope_head_dim`, which is all the KV cache keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Mla {
    pub kv_lora_rank: u64,
    pub q_lora_rank: u64,
    pub qk_head_dim: u64,
    pub qk_rope_head_dim: u64,
    pub v_head_dim: u64,
}

impl Mla {
    pub fn is_on(self) -> bool {
        self.kv_lora_rank > 0
    }
}

impl Architecture {
    /// The article's shape for L, h, a, V: multi-head attention, a GELU MLP of
    /// 4h, tied embeddings, no experts.
    pub const fn gpt(layers: u64, hidden: u64, heads: u64, vocab: u64) -> Architecture {
        Architecture {
            layers,
            hidden,
            heads,
            vocab,
            kv_heads: heads,
            ffn: 4 * hidden,
            mlp: Mlp::Gelu,
            tie_embeddings: true,
            experts: 1,
            top_k: 1,
            shared_experts: 0,
            moe_ffn: 4 * hidden,
            dense_layers: 0,
            mtp_layers: 0,
            mla: Mla { kv_lora_rank: 0, q_lora_rank: 0, qk_head_dim: 0, qk_rope_head_dim: 0, v_head_dim: 0 },
        }
    }

    /// A dense shape as model cards give it: L, h, (a, k), f, V, and the MLP's
    /// form with whether the embeddings are tied.
    pub const fn dense(
        layers: u64,
        hidden: u64,
        (heads, kv_heads): (u64, u64),
        ffn: u64,
        vocab: u64,
        (mlp, tie_embeddings): (Mlp, bool),
    ) -> Architecture {
        Architecture {
            kv_heads,
            ffn,
            mlp,
            tie_embeddings,
            moe_ffn: ffn,
            ..Architecture::gpt(layers, hidden, heads, vocab)
        }
    }

    /// Whether this is the article's shape for its L, h, a, V.
    pub fn is_gpt(self) -> bool {
        self == Architecture::gpt(self.layers, self.hidden, self.heads, self.vocab)
    }

    /// Whether the MLP is a mixture of experts.
    pub fn is_moe(self) -> bool {
        self.experts > 1 || self.shared_experts > 0
    }

    /// P ≈ 12·L·h² + V·h (article convention: attention 4h², MLP 8h², embeddings).
    pub fn approx_params(self) -> Params {
        let (l, h, v) = (self.layers as f64, self.hidden as f64, self.vocab as f64);
        Params(12.0 * l * h * h + v * h)
    }

    /// The exact parameter count of this shape (no biases): per layer, attention
    /// 2h² + 2·h·k·(h/a), the MLP g·h·f (g = 3 for SwiGLU, else 2) or, with
    /// experts, g·h·f_e·(E + S) + h·E with the router, and 2h of norms; plus
    /// V·h of embeddings (2·V·h untied) and h for the final norm.
    pub fn exact_params(self) -> Params {
        self.count(self.experts)
    }

    /// Parameters a token passes through: the same with top-k experts of E.
    pub fn exact_active_params(self) -> Params {
        self.count(self.top_k.min(self.experts))
    }

    /// Parameters of the routed experts (their MLPs, not the router or shared experts).
    pub fn expert_params(self) -> Params {
        if !self.is_moe() {
            return Params(0.0);
        }
        Params(self.moe_layers() * self.mlp_matrices() * (self.hidden * self.moe_ffn) as f64 * self.experts as f64)
    }

    /// Layers with experts: all but the first `dense-layers` of a MoE model.
    pub fn moe_layers(self) -> f64 {
        if self.is_moe() {
            self.layers.saturating_sub(self.dense_layers) as f64
        } else {
            0.0
        }
    }

    /// One layer's attention weights. Standard and GQA: 2h² + 2·h·k·(h/a).
    /// MLA (DeepSeek-V2 §2.1; the `q_a_proj`, `q_b_proj`, `kv_a_proj_with_mqa`,
    /// `kv_b_proj` and `o_proj` of its released weights): the query h·r_q +
    /// r_q + r_q·a·(d + d_R) (h·a·(d + d_R) without a query latent), the keys
    /// and values h·(r_kv + d_R) + r_kv + r_kv·a·(d + d_v), the output a·d_v·h,
    /// with the latents' norms.
    pub fn attention_params(self) -> f64 {
        let (h, a) = (self.hidden as f64, self.heads as f64);
        if !self.mla.is_on() {
            return 2.0 * h * h + 2.0 * h * self.kv_heads as f64 * (h / a);
        }
        let m = self.mla;
        let (rq, rkv) = (m.q_lora_rank as f64, m.kv_lora_rank as f64);
        let (d, dr, dv) = (m.qk_head_dim as f64, m.qk_rope_head_dim as f64, m.v_head_dim as f64);
        let query = if rq > 0.0 { h * rq + rq + rq * a * (d + dr) } else { h * a * (d + dr) };
        query + h * (rkv + dr) + rkv + rkv * a * (d + dv) + a * dv * h
    }

    /// The embedding matrices: V·h, twice when untied.
    pub fn embedding_params(self) -> Params {
        let vh = (self.vocab * self.hidden) as f64;
        Params(if self.tie_embeddings { vh } else { 2.0 * vh })
    }

    fn mlp_matrices(self) -> f64 {
        match self.mlp {
            Mlp::Gelu => 2.0,
            Mlp::Swiglu => 3.0,
        }
    }

    fn count(self, experts_used: u64) -> Params {
        let (l, h, v) = (self.layers as f64, self.hidden as f64, self.vocab as f64);
        let g = self.mlp_matrices();
        let dense = g * h * self.ffn as f64;
        // MoE layers: the experts used and the shared ones, and the router; the first dense-layers are dense.
        let moe = g * h * self.moe_ffn as f64 * (experts_used + self.shared_experts) as f64 + h * self.experts as f64;
        let moe_layers = self.moe_layers();
        let mlp = moe_layers * moe + (l - moe_layers) * dense;
        let embeddings = if self.tie_embeddings { v * h } else { 2.0 * v * h };
        // An MTP module: its layer (of the last layer's kind), the 2h×h projection and three norms.
        let last_mlp = if moe_layers > 0.0 { moe } else { dense };
        let mtp = self.mtp_layers as f64 * (self.attention_params() + 2.0 * h + last_mlp + 2.0 * h * h + 3.0 * h);
        Params(l * (self.attention_params() + 2.0 * h) + mlp + embeddings + h + mtp)
    }

    /// One layer's parameters by kind: a dense layer, a MoE layer, and the
    /// routed experts within a MoE layer (0 without experts).
    pub fn layer_params(self) -> (f64, f64, f64) {
        let h = self.hidden as f64;
        let g = self.mlp_matrices();
        let common = self.attention_params() + 2.0 * h;
        let routed = if self.is_moe() { g * h * self.moe_ffn as f64 * self.experts as f64 } else { 0.0 };
        let shared = g * h * self.moe_ffn as f64 * self.shared_experts as f64 + h * self.experts as f64;
        (common + g * h * self.ffn as f64, common + routed + shared, routed)
    }

    /// Whether layer `index` (from 0) has experts: every layer of a MoE model after its `dense-layers`.
    pub fn is_moe_layer(self, index: u64) -> bool {
        self.is_moe() && index >= self.dense_layers
    }

    /// Parameters of the MTP modules (0 without).
    pub fn mtp_params(self) -> Params {
        Params(self.exact_params().get() - Architecture { mtp_layers: 0, ..self }.exact_params().get())
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
    /// The optimizer's moments' type (fp32 unless given).
    pub exp_avg_dtype: ExpAvgDtype,
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
    /// Serving beyond the article's 1.2×: sequences at once, tokens per sequence, the cache's type.
    pub batch: u64,
    pub context: u64,
    pub kv_dtype: KvDtype,
    /// A context other than the sequence length, or a batch above 1, was given:
    /// serving is sized with its KV cache, not the article's 1.2×.
    pub serving_given: bool,
    /// The model's position limit (`max_position_embeddings`): the longest context it reads.
    pub max_positions: Option<u64>,
    /// Standard under the article's convention, flash under `megatron`, unless given.
    pub attention: Attention,
    pub schedule: Schedule,
    /// Virtual pipeline stages per rank (interleaved 1F1B; 1: none).
    pub vpp: u64,
    /// Layers of the first and of the last pipeline stage (`None`: spread evenly).
    pub pp_first_layers: Option<u64>,
    pub pp_last_layers: Option<u64>,
    /// Megatron-LM's layout string, read and checked against the model and p (`None`: none given).
    #[serde(skip)]
    pub pp_layout: Option<std::sync::Arc<crate::pp_layout::PpLayout>>,
    /// The loss's cross-entropy, and its pieces when chunked.
    pub loss: Loss,
    pub loss_chunks: u64,
    /// With full recomputation, a checkpoint every k-th layer (1: every layer).
    pub recompute_every: u64,
    /// Memory per GPU the formulas leave out (CUDA context, NCCL, framework), bytes.
    pub reserve_bytes: f64,
    /// Allocator fragmentation, a fraction of the formulas' total.
    pub fragmentation: f64,
    /// CPU memory per node (bytes) and GPUs per node, for offload.
    pub cpu_mem_bytes: f64,
    pub gpus_per_node: u64,
    /// Expert parallelism: experts ÷ ep within the d·cp ranks (1: none).
    pub ep: u64,
    /// Expert tensor parallelism: each expert split over etp ranks (`None`: t, whatever t a layout gives).
    pub etp: Option<u64>,
    pub convention: Convention,
}

impl Config {
    /// Expert tensor parallelism: the given etp, else t.
    pub fn expert_tp(&self) -> u64 {
        self.etp.unwrap_or(self.layout.tp)
    }

    /// Whether activations are split along the sequence over the tensor ranks:
    /// sequence parallelism or folded TSP, with t > 1.
    pub fn splits_sequence(&self) -> bool {
        (self.sequence_parallel || self.tsp) && self.layout.tp > 1
    }
}
