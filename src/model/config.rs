//! The validated configuration every formula takes, and its enums.

use crate::catalog::{Gpu, Model};
pub use crate::model::arch::{Architecture, Mla, Mlp, StateDtype};
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
        /// Muon (Jordan et al. 2024; Liu et al. 2025, "Muon is Scalable for LLM
        /// Training", §2): one momentum buffer for the hidden weight matrices,
        /// AdamW's two moments for the embeddings, the output layer and the norms.
        Muon = "muon",
    }
);

choice!(
    /// The fp32 master copy of the weights under mixed precision (Megatron-LM's
    /// precision-aware optimizer, `--main-params-dtype`): kept in fp32 (the
    /// article's 4 bytes), in fp16, or not kept (the optimizer updates the
    /// 16-bit weights in place).
    MainParams {
        Fp32 = "fp32",
        Fp16 = "fp16",
        None = "none",
    }
);

impl MainParams {
    /// Bytes per parameter of the master copy.
    pub fn bytes(self) -> f64 {
        match self {
            MainParams::Fp32 => 4.0,
            MainParams::Fp16 => 2.0,
            MainParams::None => 0.0,
        }
    }
}

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
        /// The weights' shards, their gradients and the optimizer in CPU memory
        /// (DeepSpeed's `offload_param` with `offload_optimizer`, PyTorch FSDP's
        /// `CPUOffload(offload_params=True)`): the GPU holds the layers it gathers.
        /// It takes ZeRO-3.
        Params = "params",
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
        /// Zero bubble, ZB-H1 (Qi et al. 2024, "Zero Bubble Pipeline Parallelism", §3;
        /// DualPipe's README names it ZB1P): the backward split into its input
        /// gradients and its weight gradients, the latter filling the bubble;
        /// 1F1B's memory, a bubble of (p − 1)(F + B − 2W).
        Zb1p = "zb1p",
        /// DualPipe (DeepSeek-AI 2024, DeepSeek-V3 §3.2.1; its README): micro-batches
        /// fed from both ends, rank i holding stages i and p − 1 − i: twice the
        /// parameters, p + 1 micro-batches' activations, a bubble of
        /// (p/2 − 1)(F&B + B − 3W), and the all-to-all and pipeline sends hidden
        /// behind the overlapped forward and backward. p even.
        DualPipe = "dualpipe",
    }
);

impl Schedule {
    /// Whether the schedule runs on `pp` stages: DualPipe pairs stage i with
    /// p − 1 − i on one rank, so its p is even (or 1, no pipeline).
    pub fn runs_on(self, pp: u64) -> bool {
        self != Schedule::DualPipe || pp <= 1 || pp.is_multiple_of(2)
    }
}

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
        /// FP8 (E4M3) weights with one scale per tensor or channel, as vLLM and
        /// TensorRT-LLM serve them: 1 byte per parameter.
        Fp8 = "fp8",
        Int8 = "int8",
        /// A refinement beyond the article: 4-bit weights.
        Int4 = "int4",
        /// GPTQ int4, groups of 128 (AutoGPTQ's packed layers): 4.156 bits and a g_idx (`crate::serving::formats`).
        GptqInt4 = "gptq-int4",
        /// AWQ int4, groups of 128: 4.156 bits on the blocks' linear layers.
        AwqInt4 = "awq-int4",
        /// NVFP4: E2M1 with an FP8 scale per 16, 4.5 bits.
        Nvfp4 = "nvfp4",
        /// MXFP4 (OCP): E2M1 with an E8M0 scale per 32, 4.25 bits; a MoE's experts alone, as gpt-oss is released.
        Mxfp4 = "mxfp4",
        /// GGUF files as llama.cpp quantizes them, tensor by tensor.
        GgufQ8 = "q8_0",
        GgufQ6K = "q6_k",
        GgufQ5KM = "q5_k_m",
        GgufQ4KM = "q4_k_m",
        GgufQ4 = "q4_0",
        GgufQ3KM = "q3_k_m",
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
    /// FP8 training with Transformer Engine, as Megatron-Core runs it (`--fp8-recipe`):
    /// the GEMMs of the layers (QKV, the attention's output projection, fc1, fc2,
    /// the experts') run in FP8; the embeddings, norms, router and output layer stay bf16.
    Fp8Recipe {
        None = "none",
        /// One scale per tensor (current or delayed scaling).
        Tensorwise = "tensorwise",
        /// DeepSeek-V3's: 1×128 blocks for activations, 128×128 for weights, fp32 scales.
        Blockwise = "blockwise",
        /// Blackwell's microscaling: one E8M0 scale per 32 values.
        Mxfp8 = "mxfp8",
    }
);

impl Fp8Recipe {
    /// Bytes per value of a quantized tensor beyond its FP8 byte: the scales
    /// (Transformer Engine: one fp32 per 128 values in 1×128 blocks, one E8M0
    /// byte per 32 values for MXFP8; one fp32 per tensor, nothing, tensorwise).
    pub fn scale_bytes(self) -> f64 {
        match self {
            Fp8Recipe::None | Fp8Recipe::Tensorwise => 0.0,
            Fp8Recipe::Blockwise | Fp8Recipe::Mxfp8 => 1.0 / 32.0,
        }
    }
}

choice!(
    /// How the layers' elementwise operations run, which decides what they keep
    /// for the backward pass (practice beyond the article).
    Kernels {
        /// Fused kernels (Megatron-Core's `bias_swiglu`, Transformer Engine's
        /// norms, a compiled model): SwiGLU keeps its 2f-wide input, a norm its
        /// 16-bit input (Korthikanti et al. 2022's count).
        Fused = "fused",
        /// PyTorch's eager operations (transformers, LitGPT, torchtune without
        /// compile): `silu(gate) * up` keeps the SiLU's input, its output and
        /// the up-projection (f more than fused), and an RMSNorm that upcasts
        /// (`hidden_states.to(torch.float32)`, transformers' LlamaRMSNorm) keeps
        /// its fp32 input (2 bytes more a value).
        Eager = "eager",
    }
);

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

/// Parallel layout: tensor (t), pipeline (p), data (d) and context (cp)
/// degrees, the virtual stages per rank (v), and the experts' split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Layout {
    pub tp: u64,
    pub pp: u64,
    pub dp: u64,
    /// Context parallelism: each rank holds s/cp of every sequence (1: none).
    pub cp: u64,
    /// Virtual pipeline stages per rank (interleaved 1F1B; 1: none).
    pub vpp: u64,
    /// Expert parallelism: experts ÷ ep within the d·cp ranks (1: none).
    pub ep: u64,
    /// Expert tensor parallelism: each expert split over etp ranks (`None`: t, whatever t a layout gives).
    pub etp: Option<u64>,
}

impl Layout {
    /// t·p·d without context parallelism.
    pub const fn new(tp: u64, pp: u64, dp: u64) -> Layout {
        Layout { tp, pp, dp, cp: 1, vpp: 1, ep: 1, etp: None }
    }
    /// Expert tensor parallelism: the given etp, else t.
    pub fn expert_tp(self) -> u64 {
        self.etp.unwrap_or(self.tp)
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
    /// The GPUs of one data-parallel replica, t·p·cp: N = d times this.
    pub fn replica(self) -> u64 {
        self.tp * self.pp * self.cp
    }
}

/// The types a run keeps its states in (the training dtypes).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Dtypes {
    /// The weights (and, under mixed precision, the fp32 master copy's presence).
    pub precision: Precision,
    pub grad_dtype: GradDtype,
    /// The master copy under mixed precision (fp32 unless given).
    pub main_params: MainParams,
    /// The optimizer's moments' type (fp32 unless given).
    pub exp_avg_dtype: ExpAvgDtype,
    /// FP8 training's recipe (none unless given) and whether the weights are kept in FP8
    /// alone (Megatron-LM's `--fp8-param-gather`).
    pub fp8: Fp8Recipe,
    pub fp8_param_gather: bool,
}

/// The machine a run is sized for.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct System {
    pub gpu: &'static Gpu,
    /// Usable memory per GPU in bytes.
    pub gpu_mem_bytes: f64,
    /// Achieved FLOP/s per GPU (τ), not the datasheet peak: the `tflops` key's or the GPU's default.
    pub flops_per_gpu: f64,
    /// τ follows the shape: under `megatron` without `tflops`, each layout's own
    /// rate ([`crate::shape::shape_rate`]) in place of `flops_per_gpu` ([`Config::tau`]).
    pub tau_from_shape: bool,
    pub usd_per_gpu_hour: f64,
    /// Memory per GPU the formulas leave out (CUDA context, NCCL, framework), bytes.
    pub reserve_bytes: f64,
    /// Allocator fragmentation, a fraction of the formulas' total.
    pub fragmentation: f64,
    /// CPU memory per node (bytes) and GPUs per node, for offload.
    pub cpu_mem_bytes: f64,
    pub gpus_per_node: u64,
    /// Per-GPU bandwidth inside a node (NVLink) and across nodes (InfiniBand), bytes/s per direction.
    pub intra_node_bytes_per_s: f64,
    pub inter_node_bytes_per_s: f64,
}

/// Serving: what the inference bars are sized with.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Serving {
    pub inference_dtype: InferenceDtype,
    /// Beyond the article's 1.2×: sequences at once, tokens per sequence, the cache's type.
    pub batch: u64,
    pub context: u64,
    pub kv_dtype: KvDtype,
    /// A context other than the sequence length, or a batch above 1, was given:
    /// serving is sized with its KV cache, not the article's 1.2×.
    pub serving_given: bool,
    /// The model's position limit (`max_position_embeddings`): the longest context it reads.
    pub max_positions: Option<u64>,
    /// One serving replica of serve_tp × serve_pp GPUs, independent of the training layout.
    pub serve_tp: u64,
    pub serve_pp: u64,
    /// Tokens each request reads (its prompt) and writes.
    pub prompt_tokens: u64,
    pub output_tokens: u64,
    /// The share of each GPU's memory the engine takes (vLLM's `--gpu-memory-utilization`).
    pub mem_util: f64,
    /// Achieved memory bandwidth per GPU, bytes/s (decode reads the weights and the cache at it).
    pub hbm_bytes_per_s: f64,
    /// Achieved dense FLOP/s per GPU of prefill (the FP8 rate for FP8 weights on a GPU with FP8 tensor cores).
    pub flops_per_gpu: f64,
    /// The engine's host time per step that the GPU waits for, seconds (0: overlapped).
    pub host_seconds: f64,
}

/// Micro-batches per step that reach a global batch of `g` sequences with
/// micro-batch `b` on `d` data-parallel ranks: ⌈G/(b·d)⌉, at least 1.
pub fn micro_batches_for(g: u64, b: u64, d: u64) -> u64 {
    g.div_ceil(b.saturating_mul(d).max(1)).max(1)
}

/// Everything a formula may read, already checked: built by
/// [`crate::settings::Settings::resolve`] and never mutated afterwards. In
/// groups, as Calculon and llm-analysis split theirs: the model's shape
/// (`arch`, with P and D beside it), the layout (t, p, d, cp, v, ep, etp; one
/// function moves a run to another, [`Config::on_layout`]), the training
/// dtypes, the system and serving; what stays flat is the run's recipe
/// (batch, recomputation, ZeRO, attention, schedule, loss, convention).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Config {
    pub model: Option<&'static Model>,
    pub params: Params,
    pub active_params: Params,
    pub tokens: Tokens,
    pub arch: Architecture,
    pub seq_len: u64,
    pub micro_batch: u64,
    /// m: given, or ⌈G/(b·d)⌉ from the global batch.
    pub grad_accum: u64,
    /// The global batch asked for, G sequences (what m follows when it was not given).
    pub global_batch: u64,
    pub layout: Layout,
    /// The types the states and activations are kept in.
    pub dtypes: Dtypes,
    pub optimizer: Optimizer,
    pub recompute: Recompute,
    pub sequence_parallel: bool,
    pub partition_activations: bool,
    /// Folded tensor+sequence parallelism: the t axis shards model states and activations alike.
    pub tsp: bool,
    /// Transformer Engine's overlap of the tensor-parallel collectives with the GEMMs (`--tp-comm-overlap`).
    pub tp_comm_overlap: bool,
    pub zero: ZeroStage,
    pub offload: Offload,
    /// DeepSpeed `stage3_max_live_parameters` (default 1e9).
    pub max_live_params: Params,
    /// The machine: the GPU, its memory and rate, the price, the nodes and their links.
    pub system: System,
    /// Serving: the weights' type, sequences at once, their context, the cache's type.
    pub serving: Serving,
    /// Standard under the article's convention, flash under `megatron`, unless given.
    pub attention: Attention,
    pub schedule: Schedule,
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
    /// Share of the layers' stored activations moved to CPU memory (0: none).
    pub offload_activations: f64,
    pub convention: Convention,
    /// Full fine-tuning (the article's training) or adapters on a frozen base.
    pub finetune: crate::finetune::FinetuneConfig,
    /// Fused kernels or PyTorch's eager operations (what the elementwise operations keep).
    pub kernels: Kernels,
    /// Post-training: DPO, PPO or GRPO, in phases (none: the article's training alone).
    pub post: crate::finetune::post::PostConfig,
}

impl Config {
    /// The achieved FLOP/s per GPU the time is counted at: the shape's rate for
    /// this very layout, micro-batch and recomputation where τ follows the
    /// shape ([`System::tau_from_shape`]), else `flops_per_gpu`.
    pub fn tau(&self) -> f64 {
        if self.system.tau_from_shape {
            crate::shape::shape_rate(self)
        } else {
            self.system.flops_per_gpu
        }
    }

    /// This configuration on another layout: the one way the planner, the
    /// remedies and the sweeps move a run. A new pipeline degree drops what
    /// was laid out for the old one (`pp-layout`, the first and last stages'
    /// layers), and keeps `vpp` only where the layers still split into p·v.
    /// The global batch G stays: an m that reaches it follows the new d.
    pub fn on_layout(&self, layout: Layout) -> Config {
        let mut c = Config { layout, ..self.clone() };
        // An m that is G's (by value: given or not) follows G to the new d.
        if self.grad_accum == micro_batches_for(self.global_batch, self.micro_batch, self.layout.dp) {
            c.grad_accum = micro_batches_for(self.global_batch, self.micro_batch, layout.dp);
        }
        if layout.pp != self.layout.pp {
            c.pp_layout = None;
            c.pp_first_layers = None;
            c.pp_last_layers = None;
            if !self.arch.layers.is_multiple_of(layout.pp.max(1) * self.layout.vpp.max(1)) {
                c.layout.vpp = 1;
            }
        }
        c
    }

    /// Whether activations are split along the sequence over the tensor ranks:
    /// sequence parallelism or folded TSP, with t > 1.
    pub fn splits_sequence(&self) -> bool {
        (self.sequence_parallel || self.tsp) && self.layout.tp > 1
    }
}
