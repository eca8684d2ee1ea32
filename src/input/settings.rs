//! The one vocabulary of the command line, the URL query and the JSON output.
//!
//! [`Settings`] holds what a person asked for (some fields unset, to be derived);
//! [`Settings::resolve`] checks it and builds the [`Config`] the formulas take.

use crate::catalog::{self, Gpu, Model};
use crate::config::*;
use crate::units::{Params, Tokens};
use std::fmt;

/// What a person asked for, before validation.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub model: Option<&'static Model>,
    /// Unset: from the model, else from `layers`/`hidden` if given, else 7B.
    pub params: Option<f64>,
    /// Unset: the model's, else `params`.
    pub active_params: Option<f64>,
    pub tokens: f64,
    pub seq_len: Option<u64>,
    pub micro_batch: u64,
    /// Unset: ⌈G/(b·d)⌉, from the global batch.
    pub grad_accum: Option<u64>,
    /// Sequences per optimizer step G, the calculator's and the planner's.
    pub global_batch: u64,
    pub hidden: Option<u64>,
    pub layers: Option<u64>,
    pub heads: Option<u64>,
    pub vocab: Option<u64>,
    /// Unset: the model's, else the article's shape (see [`Architecture::gpt`]).
    pub kv_heads: Option<u64>,
    pub head_dim: Option<u64>,
    pub ffn: Option<u64>,
    pub mlp: Option<Mlp>,
    pub tie_embeddings: Option<bool>,
    pub experts: Option<u64>,
    pub top_k: Option<u64>,
    pub shared_experts: Option<u64>,
    /// Unset: the model's, else `ffn`.
    pub moe_ffn: Option<u64>,
    pub dense_layers: Option<u64>,
    pub mtp_layers: Option<u64>,
    /// Multi-head latent attention: kv-lora-rank, q-lora-rank, qk-head-dim, qk-rope-head-dim, v-head-dim.
    pub kv_lora_rank: Option<u64>,
    pub q_lora_rank: Option<u64>,
    pub qk_head_dim: Option<u64>,
    pub qk_rope_head_dim: Option<u64>,
    pub v_head_dim: Option<u64>,
    pub sliding_window: Option<u64>,
    pub global_every: Option<u64>,
    pub attention_every: Option<u64>,
    pub linear_state: Option<u64>,
    pub linear_conv: Option<u64>,
    pub state_dtype: Option<crate::arch::StateDtype>,
    pub tp: u64,
    pub pp: u64,
    pub cp: u64,
    pub ep: u64,
    /// Unset: t.
    pub etp: Option<u64>,
    /// Unset: N/(t·p·cp), or 1.
    pub dp: Option<u64>,
    /// Unset: t·p·cp·d.
    pub gpus: Option<u64>,
    pub precision: Precision,
    /// Unset: the model dtype (article), fp32 under the megatron convention.
    pub grad_dtype: Option<GradDtype>,
    pub optimizer: Optimizer,
    pub exp_avg_dtype: ExpAvgDtype,
    pub main_params: MainParams,
    /// Share of the layers' stored activations offloaded to CPU memory, 0–1.
    pub offload_activations: f64,
    pub fp8: Fp8Recipe,
    pub fp8_param_gather: bool,
    pub recompute: Recompute,
    pub sequence_parallel: bool,
    pub partition_activations: bool,
    pub tsp: bool,
    /// Megatron-LM's `--tp-comm-overlap`.
    pub tp_comm_overlap: bool,
    pub zero: ZeroStage,
    pub offload: Offload,
    pub max_live_params: f64,
    pub gpu: &'static Gpu,
    /// Unset: the GPU's, as its driver reports it. In GiB (an "80 GB" A100 reports 80 GiB).
    pub gpu_mem: Option<f64>,
    /// Unset: the GPU's default achieved TFLOP/s.
    pub tflops: Option<f64>,
    pub usd_per_gpu_hour: Option<f64>,
    pub inference_dtype: InferenceDtype,
    pub batch: u64,
    /// Unset: the sequence length.
    pub context: Option<u64>,
    pub kv_dtype: KvDtype,
    /// One serving replica's tensor-parallel degree and pipeline stages.
    pub serve_tp: u64,
    pub serve_pp: u64,
    pub prompt_tokens: u64,
    pub output_tokens: u64,
    /// The share of a GPU's memory the serving engine takes.
    pub mem_util: f64,
    /// Unset: the GPU's datasheet bandwidth × its achieved share, GB/s.
    pub hbm_gbs: Option<f64>,
    /// Unset: the GPU's BF16 matmul ceiling (the FP8 one for FP8 weights on FP8 tensor cores), TFLOP/s.
    pub serve_tflops: Option<f64>,
    /// The engine's host time per decode step that the GPU waits for, ms.
    pub host_ms: f64,
    /// Unset: the model's, none for a custom shape.
    pub max_positions: Option<u64>,
    /// Unset: standard under the article's convention, flash under `megatron`.
    pub attention: Option<Attention>,
    pub schedule: Schedule,
    pub vpp: u64,
    pub pp_first_layers: Option<u64>,
    pub pp_last_layers: Option<u64>,
    /// Megatron-LM's `--pipeline-model-parallel-layout`, as given.
    pub pp_layout: Option<String>,
    pub loss: Loss,
    pub loss_chunks: u64,
    pub recompute_every: u64,
    /// Unset: 0 under the article's convention, the planner's 1.5 GB and 5 % under `megatron`.
    pub reserve_gb: Option<f64>,
    pub fragmentation_pct: Option<f64>,
    /// CPU memory per node, GB, and GPUs per node (offload, and the planner's nodes).
    pub cpu_mem: f64,
    pub gpus_per_node: u64,
    /// Per-GPU bandwidth inside a node and across nodes, GB/s per direction.
    pub intra_node_gbs: Option<f64>,
    pub inter_node_gbs: f64,
    pub convention: Convention,
    /// Fine-tuning: what is trained, the adapters' rank, targets and dropout, the
    /// frozen base's storage (unset: nf4 under QLoRA, else bf16), and whether the
    /// embeddings are trained whole beside the adapters.
    pub finetune: crate::finetune::Finetune,
    pub lora_rank: u64,
    pub lora_targets: crate::finetune::LoraTargets,
    pub lora_dropout: f64,
    pub base_dtype: Option<crate::finetune::BaseDtype>,
    pub train_embeddings: bool,
    pub kernels: Kernels,
    /// Post-training: the algorithm, completions per prompt, their tokens, the reward and
    /// value models' sizes (unset value model: the policy's P), the rollout engine and its share.
    pub post_training: crate::finetune::post::PostTraining,
    pub rollouts: u64,
    pub response_tokens: u64,
    pub reward_params: f64,
    pub critic_params: Option<f64>,
    pub rollout: crate::finetune::post::RolloutEngine,
    pub rollout_mem_util: f64,
}

/// Where a configuration's shape (L, h, a, V) comes from.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeSource {
    /// A catalogue model's.
    Model,
    /// Given key by key (the rest from the default).
    Given,
    /// Derived from a bare P: the published shape nearest in size.
    Derived(&'static catalog::Shape),
    /// Nothing given: the 7B shape.
    Default,
}

/// The default shape when neither a model nor `layers`/`hidden` is given:
/// a 7B decoder (L = 32, h = 4096, a = 32, as Llama 2 7B and Pythia-6.9B).
pub const DEFAULT_ARCH: Architecture = Architecture::gpt(32, 4096, 32, 32000);
pub const DEFAULT_PARAMS: f64 = 7e9;
pub const DEFAULT_SEQ_LEN: u64 = 2048;
/// The global batch when none is given, in sequences: 2,048, Llama 3 405B's
/// 16M tokens at 8,192 per sequence (Llama 3 paper, §3.4.1) and GPT-3 175B's
/// 3.2M tokens at 2,048 within a factor of 1.3 (Brown et al. 2020, Table 2.1).
/// The calculator and the planner share it; m = ⌈G/(b·d)⌉ where m is not given.
pub const DEFAULT_GLOBAL_BATCH: u64 = 2048;

impl Default for Settings {
    /// 7B, mixed precision, AdamW, one A100 80 GB (the article's running example), on 300B tokens (GPT-3's count, above the article's 200B floor).
    fn default() -> Self {
        Settings {
            model: None,
            params: None,
            active_params: None,
            tokens: 300e9,
            seq_len: None,
            micro_batch: 1,
            grad_accum: None,
            global_batch: DEFAULT_GLOBAL_BATCH,
            hidden: None,
            layers: None,
            heads: None,
            vocab: None,
            kv_heads: None,
            head_dim: None,
            ffn: None,
            mlp: None,
            tie_embeddings: None,
            experts: None,
            top_k: None,
            shared_experts: None,
            moe_ffn: None,
            dense_layers: None,
            mtp_layers: None,
            kv_lora_rank: None,
            q_lora_rank: None,
            qk_head_dim: None,
            qk_rope_head_dim: None,
            v_head_dim: None,
            sliding_window: None,
            global_every: None,
            attention_every: None,
            linear_state: None,
            linear_conv: None,
            state_dtype: None,
            tp: 1,
            pp: 1,
            cp: 1,
            ep: 1,
            etp: None,
            dp: None,
            gpus: None,
            precision: Precision::Mixed,
            grad_dtype: None,
            optimizer: Optimizer::AdamW,
            exp_avg_dtype: ExpAvgDtype::Fp32,
            main_params: MainParams::Fp32,
            offload_activations: 0.0,
            fp8: Fp8Recipe::None,
            fp8_param_gather: false,
            recompute: Recompute::None,
            sequence_parallel: false,
            partition_activations: false,
            tsp: false,
            tp_comm_overlap: false,
            zero: ZeroStage::ALL[0],
            offload: Offload::None,
            max_live_params: 1e9,
            gpu: catalog::default_gpu(),
            gpu_mem: None,
            tflops: None,
            usd_per_gpu_hour: None,
            inference_dtype: InferenceDtype::Fp16,
            batch: 1,
            context: None,
            kv_dtype: KvDtype::Fp16,
            serve_tp: 1,
            serve_pp: 1,
            prompt_tokens: 1024,
            output_tokens: 256,
            mem_util: 0.9,
            hbm_gbs: None,
            serve_tflops: None,
            host_ms: 0.0,
            max_positions: None,
            attention: None,
            schedule: Schedule::OneFOneB,
            vpp: 1,
            pp_first_layers: None,
            pp_last_layers: None,
            pp_layout: None,
            loss: Loss::Fused,
            loss_chunks: 8,
            recompute_every: 1,
            reserve_gb: None,
            fragmentation_pct: None,
            cpu_mem: 512.0,
            gpus_per_node: 8,
            // The GPU's link inside a node unless given; across nodes one 400 Gb/s HCA per GPU.
            intra_node_gbs: None,
            inter_node_gbs: 50.0,
            convention: Convention::Article,
            finetune: crate::finetune::Finetune::Full,
            lora_rank: 16,
            lora_targets: crate::finetune::LoraTargets::AllLinear,
            lora_dropout: 0.0,
            base_dtype: None,
            train_embeddings: false,
            kernels: Kernels::Fused,
            post_training: crate::finetune::post::PostTraining::None,
            rollouts: 8,
            response_tokens: 1024,
            reward_params: 0.0,
            critic_params: None,
            rollout: crate::finetune::post::RolloutEngine::Colocated,
            // TRL's `vllm_gpu_memory_utilization` in colocate mode.
            rollout_mem_util: 0.3,
        }
    }
}

/// A combination that no GPU cluster can have.
#[derive(Clone, Debug, PartialEq)]
pub enum ConfigError {
    /// QLoRA quantizes the base to NF4: another base-dtype is plain LoRA.
    QloraNeedsNf4 { base: &'static str },
    /// N ≠ t·p·cp·d.
    GpuMismatch { gpus: u64, tp: u64, pp: u64, cp: u64, dp: u64 },
    /// N is not a multiple of t·p·cp, so d = N/(t·p·cp) is not whole.
    GpusNotDivisible { gpus: u64, tp: u64, pp: u64, cp: u64 },
    /// Expert parallelism splits the experts of a layer: ep must divide E.
    EpNotDividingExperts { ep: u64, experts: u64 },
    /// Expert-parallel groups are carved from the d·cp ranks: ep must divide d·cp.
    EpNotDividingDataParallel { ep: u64, ranks: u64 },
    /// Expert tensor and expert parallelism take etp·ep of the t·d·cp ranks: it must divide them.
    ExpertGroups { etp: u64, ep: u64, ranks: u64 },
    /// t must divide the heads (article, "3D parallelism"; Megatron splits heads).
    TpNotDividingHeads { tp: u64, heads: u64 },
    /// t must divide the key/value heads too (Megatron-LM splits the query groups over the ranks).
    TpNotDividingKvHeads { tp: u64, kv_heads: u64 },
    /// t·p·d beyond 10⁹ GPUs.
    TooManyGpus,
    /// h is not a whole number of heads.
    HeadsNotDividingHidden { hidden: u64, heads: u64 },
    /// GQA groups the query heads: k must divide a.
    KvHeadsNotDividingHeads { kv_heads: u64, heads: u64 },
    /// A token cannot use more experts than a layer has.
    TopKAboveExperts { top_k: u64, experts: u64 },
    /// More parameters active per token than the model has.
    ActiveAboveParams { active: f64, params: f64 },
    /// The layers do not lay out on the stages: the first and last stages'
    /// layers leave a middle stage none, or a stage's layers do not split into
    /// its `vpp` virtual stages (Megatron-LM asks both).
    StageLayers { layers: u64, pp: u64, vpp: u64 },
    /// DualPipe pairs stage i with stage p − 1 − i on one rank: p must be even.
    DualPipeOdd { pp: u64 },
    /// `pp-layout` does not read, or does not place this model on these stages.
    PpLayout(crate::pp_layout::LayoutError),
    /// MXFP8 runs on Blackwell's tensor cores (compute capability 10.0 and up) only.
    Mxfp8NeedsBlackwell { gpu: &'static str },
    /// A serving replica splits the attention heads over its tensor ranks: serve-tp must divide them.
    ServeTpNotDividingHeads { tp: u64, heads: u64 },
    /// A serving replica's pipeline stages hold at least one layer each.
    ServePpAboveLayers { pp: u64, layers: u64 },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Mxfp8NeedsBlackwell { gpu } => {
                write!(f, "fp8 mxfp8 needs a Blackwell GPU (B200); the {gpu} runs tensorwise or blockwise")
            }
            ConfigError::GpuMismatch { gpus, tp, pp, cp: 1, dp } => {
                write!(f, "gpus {gpus} ≠ tp·pp·dp = {tp}·{pp}·{dp} = {}", tp * pp * dp)
            }
            ConfigError::GpuMismatch { gpus, tp, pp, cp, dp } => {
                write!(f, "gpus {gpus} ≠ tp·pp·cp·dp = {tp}·{pp}·{cp}·{dp} = {}", tp * pp * cp * dp)
            }
            ConfigError::GpusNotDivisible { gpus, tp, pp, cp: 1 } => {
                write!(f, "gpus {gpus} is not a multiple of tp·pp = {}", tp * pp)
            }
            ConfigError::GpusNotDivisible { gpus, tp, pp, cp } => {
                write!(f, "gpus {gpus} is not a multiple of tp·pp·cp = {}", tp * pp * cp)
            }
            ConfigError::EpNotDividingExperts { ep, experts } => {
                write!(f, "ep {ep} does not divide the {experts} experts")
            }
            ConfigError::EpNotDividingDataParallel { ep, ranks } => {
                write!(f, "ep {ep} does not divide dp·cp = {ranks}")
            }
            ConfigError::ExpertGroups { etp, ep, ranks } => {
                write!(f, "etp·ep = {etp}·{ep} does not divide tp·dp·cp = {ranks}")
            }
            ConfigError::TpNotDividingHeads { tp, heads } => {
                write!(f, "tp {tp} does not divide the {heads} attention heads")
            }
            ConfigError::TpNotDividingKvHeads { tp, kv_heads } => {
                write!(f, "tp {tp} does not divide the {kv_heads} key/value heads")
            }
            ConfigError::TooManyGpus => write!(f, "tp·pp·dp exceeds 10⁹ GPUs"),
            ConfigError::QloraNeedsNf4 { base } => {
                write!(f, "QLoRA quantizes the base to nf4: with base-dtype {base} it is LoRA (finetune=lora)")
            }
            ConfigError::HeadsNotDividingHidden { hidden, heads } => {
                write!(f, "hidden {hidden} is not a multiple of heads {heads}")
            }
            ConfigError::KvHeadsNotDividingHeads { kv_heads, heads } => {
                write!(f, "kv-heads {kv_heads} does not divide heads {heads}")
            }
            ConfigError::TopKAboveExperts { top_k, experts } => write!(f, "top-k {top_k} is above experts {experts}"),
            ConfigError::StageLayers { layers, pp, vpp: 1 } => {
                write!(f, "the {layers} layers do not lay out on {pp} stages with pp-first-layers and pp-last-layers")
            }
            ConfigError::DualPipeOdd { pp } => {
                write!(f, "DualPipe pairs stage i with stage p − 1 − i on one rank: {pp} stages are not an even number")
            }
            ConfigError::StageLayers { layers, pp, vpp } => {
                write!(f, "the {layers} layers do not split into {pp} stages of {vpp} virtual stages each")
            }
            ConfigError::PpLayout(why) => write!(f, "pp-layout: {why}"),
            ConfigError::ServeTpNotDividingHeads { tp, heads } => {
                write!(f, "serve-tp {tp} does not divide the {heads} attention heads")
            }
            ConfigError::ServePpAboveLayers { pp, layers } => {
                write!(f, "serve-pp {pp} is above the {layers} layers")
            }
            ConfigError::ActiveAboveParams { active, params } => write!(
                f,
                "active-params {} is above params {}",
                crate::units::format_count(*active),
                crate::units::format_count(*params)
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

impl Settings {
    /// Applies a catalogue model: its fields become explicit values that later keys override.
    pub fn with_model(mut self, model: &'static Model) -> Self {
        self.model = Some(model);
        self.params = Some(model.params);
        self.active_params = Some(model.active_params);
        let a = model.arch;
        self.layers = Some(a.layers);
        self.hidden = Some(a.hidden);
        self.heads = Some(a.heads);
        self.vocab = Some(a.vocab);
        self.kv_heads = Some(a.kv_heads);
        self.head_dim = (a.head_dim > 0).then_some(a.head_dim);
        self.ffn = Some(a.ffn);
        self.mlp = Some(a.mlp);
        self.tie_embeddings = Some(a.tie_embeddings);
        self.experts = Some(a.experts);
        self.top_k = Some(a.top_k);
        self.shared_experts = Some(a.shared_experts);
        self.moe_ffn = Some(a.moe_ffn);
        self.dense_layers = Some(a.dense_layers);
        self.mtp_layers = Some(a.mtp_layers);
        // A model without latent attention leaves its keys unset.
        let mla = a.mla.is_on();
        self.kv_lora_rank = mla.then_some(a.mla.kv_lora_rank);
        self.q_lora_rank = mla.then_some(a.mla.q_lora_rank);
        self.qk_head_dim = mla.then_some(a.mla.qk_head_dim);
        self.qk_rope_head_dim = mla.then_some(a.mla.qk_rope_head_dim);
        self.v_head_dim = mla.then_some(a.mla.v_head_dim);
        self.sliding_window = (a.sliding_window > 0).then_some(a.sliding_window);
        self.global_every = (a.sliding_window > 0).then_some(a.global_every);
        // A model without linear layers leaves the hybrid keys unset.
        let hybrid = a.attention_every > 0;
        self.attention_every = hybrid.then_some(a.attention_every);
        self.linear_state = hybrid.then_some(a.linear_state);
        self.linear_conv = hybrid.then_some(a.linear_conv);
        self.state_dtype = hybrid.then_some(a.state_dtype);
        self.seq_len = Some(model.seq_len);
        self.max_positions = Some(model.max_positions);
        self
    }

    /// Where the shape comes from.
    pub fn shape_source(&self) -> ShapeSource {
        let given = self.layers.is_some() || self.hidden.is_some() || self.heads.is_some() || self.vocab.is_some();
        match (self.model, given, self.params) {
            (Some(_), _, _) => ShapeSource::Model,
            (None, true, _) => ShapeSource::Given,
            (None, false, Some(p)) => ShapeSource::Derived(catalog::nearest_shape(p)),
            (None, false, None) => ShapeSource::Default,
        }
    }

    /// Whether a key of today's shapes (GQA, the MLP, embeddings, experts) is set.
    fn refined(&self) -> bool {
        self.kv_heads.is_some()
            || self.head_dim.is_some()
            || self.ffn.is_some()
            || self.mlp.is_some()
            || self.tie_embeddings.is_some()
            || self.experts.is_some()
            || self.top_k.is_some()
            || self.shared_experts.is_some()
            || self.moe_ffn.is_some()
            || self.dense_layers.is_some()
            || self.mtp_layers.is_some()
            || self.kv_lora_rank.is_some()
    }

    /// The architecture after defaults: the model's or the given fields; for a
    /// bare P, the published shape nearest in size (see [`catalog::SHAPES`]);
    /// else the 7B shape. A refinement not given is the article's for the
    /// resolved L, h, a, V (f = 4h, k = a, …).
    pub fn architecture(&self) -> Architecture {
        let base = match self.shape_source() {
            ShapeSource::Derived(shape) => shape.arch,
            _ => DEFAULT_ARCH,
        };
        let gpt = Architecture::gpt(
            self.layers.unwrap_or(base.layers),
            self.hidden.unwrap_or(base.hidden),
            self.heads.unwrap_or(base.heads),
            self.vocab.unwrap_or(base.vocab),
        );
        let ffn = self.ffn.unwrap_or(gpt.ffn);
        Architecture {
            kv_heads: self.kv_heads.unwrap_or(gpt.kv_heads),
            // h/a given is h/a: the same shape as none given.
            head_dim: self.head_dim.filter(|&d| d * gpt.heads != gpt.hidden).unwrap_or(0),
            ffn,
            mlp: self.mlp.unwrap_or(gpt.mlp),
            tie_embeddings: self.tie_embeddings.unwrap_or(gpt.tie_embeddings),
            experts: self.experts.unwrap_or(gpt.experts),
            top_k: self.top_k.unwrap_or(gpt.top_k),
            shared_experts: self.shared_experts.unwrap_or(gpt.shared_experts),
            moe_ffn: self.moe_ffn.unwrap_or(ffn),
            dense_layers: self.dense_layers.unwrap_or(0),
            mtp_layers: self.mtp_layers.unwrap_or(0),
            // Without a KV latent, no MLA (its other keys are then without effect).
            mla: match self.kv_lora_rank {
                Some(kv_lora_rank) if kv_lora_rank > 0 => crate::config::Mla {
                    kv_lora_rank,
                    q_lora_rank: self.q_lora_rank.unwrap_or(0),
                    // Unset head dimensions: the plain part and the value h/a, the rotary part 64 (DeepSeek-V2's).
                    qk_head_dim: self.qk_head_dim.unwrap_or(gpt.hidden / gpt.heads.max(1)),
                    qk_rope_head_dim: self.qk_rope_head_dim.unwrap_or(64),
                    v_head_dim: self.v_head_dim.unwrap_or(gpt.hidden / gpt.heads.max(1)),
                },
                _ => crate::config::Mla::default(),
            },
            sliding_window: self.sliding_window.unwrap_or(0),
            global_every: self.global_every.unwrap_or(0),
            attention_every: self.attention_every.unwrap_or(0),
            linear_state: self.linear_state.unwrap_or(0),
            linear_conv: self.linear_conv.unwrap_or(0),
            state_dtype: self.state_dtype.unwrap_or(gpt.state_dtype),
            ..gpt
        }
    }

    /// P after defaults: given; else, when the shape is given, counted from
    /// it: 12·L·h² + V·h under the article's convention for the article's
    /// shape, the exact count (see [`Architecture::exact_params`]) once a key of
    /// today's shapes is set or under `megatron`; else 7B.
    pub fn resolved_params(&self) -> Params {
        let shaped = self.layers.is_some() || self.hidden.is_some() || self.refined();
        match self.params {
            // A given P counts the main model, as DeepSeek-V3's 671B does: MTP modules add theirs.
            Some(p) if self.mtp_layers.unwrap_or(0) > 0 => Params(p + self.architecture().mtp_params().get()),
            Some(p) => Params(p),
            None if shaped && (self.refined() || self.convention == Convention::Megatron) => {
                self.architecture().exact_params()
            }
            None if shaped => self.architecture().approx_params(),
            None => Params(DEFAULT_PARAMS),
        }
    }

    /// Active parameters after defaults: given; else, for a mixture of experts
    /// whose P is counted from its shape, the exact active count; else P.
    pub fn resolved_active_params(&self) -> Params {
        let arch = self.architecture();
        match self.active_params {
            Some(a) => Params(a),
            None if self.params.is_none() && arch.is_moe() => arch.exact_active_params(),
            None => self.resolved_params(),
        }
    }

    /// The attention after defaults: standard under the article's convention
    /// (its 5·a·s/h term), flash under `megatron`, as today's runs do.
    pub fn resolved_attention(&self) -> Attention {
        self.attention.unwrap_or(match self.convention {
            Convention::Article => Attention::Standard,
            Convention::Megatron => Attention::Flash,
        })
    }

    /// The reserve per GPU after defaults, GB: none under the article's
    /// convention (its formulas are the whole bar), the planner's 1.5 GB
    /// (CUDA context, NCCL and framework buffers) under `megatron`.
    pub fn resolved_reserve_gb(&self) -> f64 {
        self.reserve_gb.unwrap_or(match self.convention {
            Convention::Article => 0.0,
            Convention::Megatron => 1.5,
        })
    }

    /// Whether τ follows the shape ([`crate::config::System::tau_from_shape`]):
    /// under `megatron` with no `tflops` given, for a run that trains every
    /// weight (an adapter's backward skips the frozen weights' gradients, which
    /// the shape's pass times).
    pub fn tau_from_shape(&self) -> bool {
        self.tflops.is_none()
            && self.convention == Convention::Megatron
            && self.finetune == crate::finetune::Finetune::Full
    }

    /// τ as the page shows it before any is given, TFLOP/s: the shape's for
    /// this run where τ follows the shape, to four significant digits (the
    /// entry showed "578.29973…" cut by its box), else the GPU's default.
    pub fn default_tflops(&self) -> f64 {
        if self.tau_from_shape() {
            if let Ok(c) = self.resolve() {
                let tflops = c.tau() / 1e12;
                let scale = 10f64.powi(3 - tflops.log10().floor() as i32);
                return (tflops * scale).round() / scale;
            }
        }
        self.gpu.achieved_tflops
    }

    /// Prefill's achieved TFLOP/s after defaults: given, else the GPU's measured
    /// BF16 matmul ceiling ([`crate::catalog::Gpu::matmul_tflops`]), for FP8
    /// weights on a GPU with FP8 tensor cores (compute capability 8.9 and up:
    /// Ada, Hopper, Blackwell) the measured FP8 ceiling
    /// ([`crate::catalog::FP8_MATMUL_OVER_BF16`], 1.92× it).
    pub fn resolved_serve_tflops(&self) -> f64 {
        let fp8 = self.inference_dtype == InferenceDtype::Fp8 && self.gpu.sm >= 89;
        let ratio = if fp8 { crate::catalog::FP8_MATMUL_OVER_BF16 } else { 1.0 };
        self.serve_tflops.unwrap_or(self.gpu.matmul_tflops() * ratio)
    }

    /// Allocator fragmentation after defaults, % of the formulas' total: 0
    /// under the article's convention, 5 under `megatron`.
    pub fn resolved_fragmentation_pct(&self) -> f64 {
        self.fragmentation_pct.unwrap_or(match self.convention {
            Convention::Article => 0.0,
            Convention::Megatron => 5.0,
        })
    }

    /// d after defaults, read leniently ([`Settings::resolve`] checks it): the
    /// given d, else N/(t·p·cp), else 1.
    pub fn data_parallel(&self) -> u64 {
        let mp = self.tp.saturating_mul(self.pp).saturating_mul(self.cp).max(1);
        self.dp.or(self.gpus.map(|n| n / mp)).unwrap_or(1).max(1)
    }

    /// m after defaults: given, else ⌈G/(b·d)⌉ ([`micro_batches_for`]).
    pub fn resolved_grad_accum(&self) -> u64 {
        self.grad_accum.unwrap_or_else(|| micro_batches_for(self.global_batch, self.micro_batch, self.data_parallel()))
    }

    /// Checks the combination and builds the [`Config`].
    pub fn resolve(&self) -> Result<Config, ConfigError> {
        let arch = self.architecture();
        let (tp, pp, cp) = (self.tp, self.pp, self.cp);
        let mp = tp
            .checked_mul(pp)
            .and_then(|x| x.checked_mul(cp))
            .filter(|&x| x <= 1_000_000_000)
            .ok_or(ConfigError::TooManyGpus)?;
        let dp = match (self.gpus, self.dp) {
            (None, None) => 1,
            (None, Some(dp)) => dp,
            (Some(gpus), None) => {
                if !gpus.is_multiple_of(mp) {
                    return Err(ConfigError::GpusNotDivisible { gpus, tp, pp, cp });
                }
                gpus / mp
            }
            (Some(gpus), Some(dp)) => {
                if mp.checked_mul(dp) != Some(gpus) {
                    return Err(ConfigError::GpuMismatch { gpus, tp, pp, cp, dp });
                }
                dp
            }
        };
        if mp.checked_mul(dp).is_none_or(|n| n > 1_000_000_000) {
            return Err(ConfigError::TooManyGpus);
        }
        if !arch.heads.is_multiple_of(tp) {
            return Err(ConfigError::TpNotDividingHeads { tp, heads: arch.heads });
        }
        if !arch.heads.is_multiple_of(self.serve_tp) {
            return Err(ConfigError::ServeTpNotDividingHeads { tp: self.serve_tp, heads: arch.heads });
        }
        if self.serve_pp > arch.layers {
            return Err(ConfigError::ServePpAboveLayers { pp: self.serve_pp, layers: arch.layers });
        }
        // QLoRA is LoRA on a 4-bit base: another base is LoRA's (Dettmers et al. 2023).
        let ft = self.resolved_finetune();
        if ft.method == crate::finetune::Finetune::Qlora && ft.base_dtype != crate::finetune::BaseDtype::Nf4 {
            return Err(ConfigError::QloraNeedsNf4 { base: ft.base_dtype.as_str() });
        }
        if self.fp8 == Fp8Recipe::Mxfp8 && self.gpu.sm < 100 {
            return Err(ConfigError::Mxfp8NeedsBlackwell { gpu: self.gpu.label });
        }
        if !arch.tp_divides().is_multiple_of(tp) && arch.heads.is_multiple_of(arch.kv_heads.max(1)) {
            return Err(ConfigError::TpNotDividingKvHeads { tp, kv_heads: arch.kv_heads });
        }
        // A head's width is h/a unless given (Qwen3.5-27B: 24 heads of 256 on a hidden of 5,120).
        if arch.head_dim == 0 && !arch.mla.is_on() && !arch.hidden.is_multiple_of(arch.heads) {
            return Err(ConfigError::HeadsNotDividingHidden { hidden: arch.hidden, heads: arch.heads });
        }
        if !arch.heads.is_multiple_of(arch.kv_heads) {
            return Err(ConfigError::KvHeadsNotDividingHeads { kv_heads: arch.kv_heads, heads: arch.heads });
        }
        if arch.top_k > arch.experts {
            return Err(ConfigError::TopKAboveExperts { top_k: arch.top_k, experts: arch.experts });
        }
        if !arch.experts.is_multiple_of(self.ep) {
            return Err(ConfigError::EpNotDividingExperts { ep: self.ep, experts: arch.experts });
        }
        match self.etp {
            // Megatron-LM carves etp·ep expert ranks from the t·d·cp of each stage.
            Some(etp) if !(tp * dp * cp).is_multiple_of(etp * self.ep) => {
                return Err(ConfigError::ExpertGroups { etp, ep: self.ep, ranks: tp * dp * cp });
            }
            Some(_) => {}
            None if !(dp * cp).is_multiple_of(self.ep) => {
                return Err(ConfigError::EpNotDividingDataParallel { ep: self.ep, ranks: dp * cp });
            }
            None => {}
        }
        let mut config = self.build(Layout { tp, pp, dp, cp, ..Layout::new(1, 1, 1) });
        if let Some(text) = self.pp_layout.as_deref().filter(|t| !t.trim().is_empty()) {
            use crate::pp_layout::{LayoutError, PpLayout};
            let layout = PpLayout::parse(text).map_err(ConfigError::PpLayout)?;
            if self.pp_first_layers.is_some() || self.pp_last_layers.is_some() {
                return Err(ConfigError::PpLayout(LayoutError::WithFirstLast));
            }
            config.layout.vpp =
                layout.fits(pp, self.vpp, arch.layers, arch.mtp_layers).map_err(ConfigError::PpLayout)?;
            config.pp_layout = Some(std::sync::Arc::new(layout));
        }
        if !config.schedule.runs_on(pp) {
            return Err(ConfigError::DualPipeOdd { pp });
        }
        if !crate::memory::stages_lay_out(&config) {
            return Err(ConfigError::StageLayers { layers: arch.layers, pp, vpp: self.vpp });
        }
        let (params, active) = (self.resolved_params().get(), self.resolved_active_params().get());
        if active > params {
            return Err(ConfigError::ActiveAboveParams { active, params });
        }
        Ok(config)
    }

    /// The [`Config`] of these settings on `layout`, which [`Settings::resolve`] has checked.
    fn build(&self, layout: Layout) -> Config {
        let params = self.resolved_params();
        let active = self.resolved_active_params();
        let grad_dtype = self.grad_dtype.unwrap_or(match (self.convention, self.precision) {
            (_, Precision::Fp32) => GradDtype::Fp32,
            // Megatron-LM accumulates gradients in fp32 main_grad buffers.
            (Convention::Megatron, _) => GradDtype::Fp32,
            (Convention::Article, _) => GradDtype::Fp16,
        });
        let layout = Layout { vpp: self.vpp, ep: self.ep, etp: self.etp, ..layout };
        Config {
            model: self.model,
            params,
            active_params: active,
            tokens: Tokens(self.tokens),
            arch: self.architecture(),
            seq_len: self.seq_len.unwrap_or(DEFAULT_SEQ_LEN),
            micro_batch: self.micro_batch,
            grad_accum: self
                .grad_accum
                .unwrap_or_else(|| micro_batches_for(self.global_batch, self.micro_batch, layout.dp)),
            global_batch: self.global_batch,
            layout,
            dtypes: Dtypes {
                precision: self.precision,
                grad_dtype,
                main_params: self.main_params,
                exp_avg_dtype: self.exp_avg_dtype,
                fp8: self.fp8,
                fp8_param_gather: self.fp8_param_gather,
            },
            optimizer: self.optimizer,
            recompute: self.recompute,
            sequence_parallel: self.sequence_parallel,
            partition_activations: self.partition_activations,
            tsp: self.tsp,
            tp_comm_overlap: self.tp_comm_overlap,
            zero: self.zero,
            offload: self.offload,
            max_live_params: Params(self.max_live_params),
            system: System {
                gpu: self.gpu,
                gpu_mem_bytes: self.gpu_mem.map_or(self.gpu.mem_bytes(), |gb| gb * crate::units::Bytes::GIB),
                flops_per_gpu: self.tflops.unwrap_or(self.gpu.achieved_tflops) * 1e12,
                tau_from_shape: self.tau_from_shape(),
                usd_per_gpu_hour: self.usd_per_gpu_hour.unwrap_or(self.gpu.usd_per_hour),
                reserve_bytes: self.resolved_reserve_gb() * 1e9,
                fragmentation: self.resolved_fragmentation_pct() / 100.0,
                cpu_mem_bytes: self.cpu_mem * 1e9,
                gpus_per_node: self.gpus_per_node,
                intra_node_bytes_per_s: self.intra_node_gbs.unwrap_or(self.gpu.nvlink_gbs) * 1e9,
                inter_node_bytes_per_s: self.inter_node_gbs * 1e9,
            },
            serving: Serving {
                inference_dtype: self.inference_dtype,
                batch: self.batch,
                context: self.context.unwrap_or(self.seq_len.unwrap_or(DEFAULT_SEQ_LEN)),
                kv_dtype: self.kv_dtype,
                // By value, not by whether a key was written: a link that spells out the default reads the same.
                serving_given: self.context.is_some_and(|x| Some(x) != self.seq_len.or(Some(DEFAULT_SEQ_LEN)))
                    || self.batch > 1,
                max_positions: self.max_positions,
                serve_tp: self.serve_tp,
                serve_pp: self.serve_pp,
                prompt_tokens: self.prompt_tokens,
                output_tokens: self.output_tokens,
                mem_util: self.mem_util,
                hbm_bytes_per_s: self.hbm_gbs.unwrap_or(self.gpu.achieved_hbm_gbs()) * 1e9,
                flops_per_gpu: self.resolved_serve_tflops() * 1e12,
                host_seconds: self.host_ms / 1e3,
            },
            attention: self.resolved_attention(),
            schedule: self.schedule,
            pp_first_layers: self.pp_first_layers,
            pp_last_layers: self.pp_last_layers,
            pp_layout: None,
            loss: self.loss,
            loss_chunks: self.loss_chunks,
            recompute_every: self.recompute_every,
            offload_activations: self.offload_activations,
            convention: self.convention,
            finetune: self.resolved_finetune(),
            kernels: self.kernels,
            post: crate::finetune::post::PostConfig {
                method: self.post_training,
                rollouts: self.rollouts,
                response_tokens: self.response_tokens,
                reward_params: self.reward_params,
                critic_params: self.critic_params.unwrap_or(params.get()),
                engine: self.rollout,
                engine_mem_util: self.rollout_mem_util,
            },
        }
    }

    /// The fine-tuning choices after defaults: an unset base is NF4 under QLoRA, else bf16.
    pub fn resolved_finetune(&self) -> crate::finetune::FinetuneConfig {
        use crate::finetune::{BaseDtype, Finetune};
        let default_base = if self.finetune == Finetune::Qlora { BaseDtype::Nf4 } else { BaseDtype::Bf16 };
        crate::finetune::FinetuneConfig {
            method: self.finetune,
            rank: self.lora_rank,
            targets: self.lora_targets,
            dropout: self.lora_dropout,
            base_dtype: self.base_dtype.unwrap_or(default_base),
            train_embeddings: self.train_embeddings,
        }
    }
}

impl Default for Config {
    /// The configuration of [`Settings::default`] on one GPU, built without a
    /// fallible step (the page shows it when a link opens on an impossible combination).
    fn default() -> Self {
        Settings::default().build(Layout::new(1, 1, 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(pairs: &[(&str, &str)]) -> Settings {
        let (s, errors) = Settings::from_pairs(pairs.iter().copied());
        assert!(errors.is_empty(), "{errors:?}");
        s
    }

    #[test]
    fn default_is_the_articles_7b_on_one_a100() {
        let c = Settings::default().resolve().unwrap();
        assert_eq!(c.params, Params(7e9));
        assert_eq!(c.layout.gpus(), 1);
        assert_eq!(c.system.gpu.name, "a100-80gb");
        assert_eq!(c.dtypes.precision, Precision::Mixed);
        assert_eq!(c.optimizer, Optimizer::AdamW);
        assert!(Settings::default().to_pairs().is_empty());
        assert_eq!(Settings::default().resolve(), Ok(Config::default()));
    }

    #[test]
    fn model_applies_first_and_explicit_keys_override_it() {
        let s = settings(&[("layers", "40"), ("model", "llama-2-7b")]);
        assert_eq!(s.layers, Some(40));
        assert_eq!(s.hidden, Some(4096));
        assert_eq!(s.params, Some(6_738_415_616.0));
    }

    #[test]
    fn params_derived_from_shape_when_absent() {
        let c = settings(&[("layers", "32"), ("hidden", "4096"), ("vocab", "50000")]).resolve().unwrap();
        assert_eq!(c.params.get(), 12.0 * 32.0 * 4096.0 * 4096.0 + 50000.0 * 4096.0);
    }

    #[test]
    fn gpus_and_degrees() {
        let c = settings(&[("gpus", "64"), ("tp", "8")]).resolve().unwrap();
        assert_eq!(c.layout, Layout::new(8, 1, 8));
        let e = settings(&[("gpus", "64"), ("tp", "8"), ("dp", "4")]).resolve().unwrap_err();
        assert_eq!(e, ConfigError::GpuMismatch { gpus: 64, tp: 8, pp: 1, cp: 1, dp: 4 });
        let e = settings(&[("gpus", "12"), ("tp", "8")]).resolve().unwrap_err();
        assert_eq!(e, ConfigError::GpusNotDivisible { gpus: 12, tp: 8, pp: 1, cp: 1 });
        let e = settings(&[("tp", "3")]).resolve().unwrap_err();
        assert_eq!(e, ConfigError::TpNotDividingHeads { tp: 3, heads: 32 });
    }

    #[test]
    fn bad_pairs_are_reported_and_the_rest_applies() {
        let (s, errors) =
            Settings::from_pairs([("params", "-1"), ("zero", "7"), ("bogus", "1"), ("tp", "2.5"), ("tokens", "2T")]);
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert_eq!(s.tokens, 2e12);
        assert_eq!(s.params, None);
        assert_eq!(errors.iter().map(|e| e.key().to_string()).collect::<Vec<_>>(), ["params", "zero", "bogus", "tp"]);
    }

    #[test]
    fn pairs_round_trip() {
        let s = settings(&[
            ("model", "llama-3-405b"),
            ("tp", "8"),
            ("pp", "16"),
            ("dp", "128"),
            ("zero", "1"),
            ("recompute", "selective"),
            ("sequence-parallel", "1"),
            ("gpu", "h100-80gb"),
            ("tokens", "15.6T"),
            ("layers", "120"),
        ]);
        let (back, errors) = Settings::from_pairs(s.to_pairs());
        assert!(errors.is_empty());
        assert_eq!(back, s);
    }

    #[test]
    fn every_key_has_a_value_that_reads_back() {
        let s = settings(&[("model", "llama-2-70b"), ("gpus", "16"), ("zero", "3")]);
        for k in crate::keys::KEYS.iter().filter(|k| k.target() == crate::keys::Target::Calc) {
            let v = s.value(k.name).unwrap();
            if v.is_empty() {
                continue;
            }
            let mut back = s.clone();
            back.set(k.name, &v).unwrap();
            assert_eq!(back.resolve(), s.resolve(), "{}", k.name);
        }
        assert_eq!(s.value("dp").as_deref(), Some("16"));
        assert_eq!(s.value("gpu-mem").as_deref(), Some("80"));
        assert_eq!(s.value("nope"), None);
    }

    #[test]
    fn long_values_are_cut_in_messages() {
        let long = "9".repeat(10_000);
        let (_, errors) = Settings::from_pairs([("params", long.as_str())]);
        assert!(errors[0].to_string().len() < 200);
    }
}
