//! One evaluation of a [`Config`]: every number the CLI, the JSON and the page show.

use crate::compute::{self, ComputeBreakdown, MIN_RECOMMENDED_TOKENS};
use crate::config::*;
use crate::keys::K;
use crate::memory::Part;
use crate::memory::{self, MemoryBreakdown};
use crate::page::View;
use crate::parallel;
use crate::step;
use crate::units::{format_count, Bytes, Flops, Params, Tokens};
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;
use std::fmt;

/// A rule of the article (or a paper) that the configuration bends. Each
/// carries its data so the page can word it in Korean or English.
#[derive(Clone, Debug, PartialEq)]
pub enum Warning {
    /// TP beyond one node crosses the slow inter-node link (article, "3D Parallelism").
    TpAcrossNodes { tp: u64, node: u64 },
    /// DeepSpeed blocks PP with ZeRO-2/3 (article, "Sharded Optimizers + 3D Parallelism").
    PipelineWithZero23 { zero: u8 },
    /// p does not divide L: stages are uneven; the busiest holds ⌈L/p⌉ layers.
    PipelineUneven { layers: u64, pp: u64 },
    /// m < p: the pipeline never fills; it idles (p−1)/(m+p−1) of the step.
    FewMicroBatches { grad_accum: u64, pp: u64 },
    /// D < 200B tokens (article: "we do not recommend training a LLM for less than 200B tokens").
    TokensBelowFloor { tokens: f64 },
    /// The given P is far from 12·L·h² + V·h: activations follow the shape, not P.
    ShapeMismatch { params: f64, shape_params: f64 },
    /// Sequence parallelism with t = 1 does nothing.
    SequenceParallelWithoutTp,
    /// Both partition activations across the TP ranks; counted once.
    PartitionWithSequenceParallel,
    /// τ above the datasheet peak.
    TflopsAbovePeak { tflops: f64, peak: f64 },
    /// Article: below 115 TFLOP/s per A100 something is wrong.
    A100BelowExpected { tflops: f64 },
    /// Offload needs ZeRO (ZeRO-Offload builds on ZeRO-2; DeepSpeed allows 1–3).
    OffloadWithoutZero,
    /// ZeRO-3 live parameters exceed what sharding saved.
    LiveParamsLarge,
    /// The article's count stores the s×s attention scores; FlashAttention, which
    /// today's runs use, does not: activations with it, when they differ by more than 10 %.
    ScoresStored { with_flash: f64 },
    /// 6PD leaves out attention, which adds more than 10 % at this sequence length (PaLM, Appendix B).
    AttentionFlops { share: f64, with_attention: f64 },
    /// The article divides gradients by p only; divided by t·p, as Megatron-LM
    /// shards them, the total is more than 10 % lower.
    TpGradients { gradients: f64, total: f64 },
    /// What offload puts in a node's CPU memory does not fit it.
    CpuMemory { needed: f64, capacity: f64 },
    /// Offload slows each step; the lesson gives 30–50 %, which time and cost leave out.
    OffloadSlower,
    /// The context served is beyond the model's position limit.
    ContextBeyondPositions { context: u64, limit: u64 },
    /// A hybrid model's linear layers (`attention-every`): serving counts their
    /// state, training counts them as attention layers (their activations and
    /// FLOPs are not modelled yet).
    LinearLayersTraining { linear: u64 },
    /// The optimizer's states as a paged optimizer keeps them (bitsandbytes'
    /// `paged_adamw_8bit`, QLoRA's paged optimizers, Dettmers et al. 2023 §3):
    /// in CUDA unified memory, which PyTorch's allocated and reserved counters
    /// leave out and nvidia-smi counts while they are resident; under memory
    /// pressure they move to CPU memory instead of failing. The total keeps them.
    PagedOptimizer { states: f64 },
    /// Beside C/(N·τ), the pipeline bubble and the communication compute does
    /// not hide add more than 10 % to a step (the step-time model, [`crate::step`]).
    StepOverhead { bubble: f64, comm: f64 },
    /// A catalogue model has parts the formulas leave out (DeepSeek-V3's MTP module, its FP8 training).
    NotModelled { model: &'static str, parts: &'static [crate::catalog::Unmodelled] },
}

impl Warning {
    /// Whether the warning changes what the verdict means: a layout that fits
    /// on paper but idles, is refused by DeepSpeed, or crosses the slow link.
    pub fn qualifies_verdict(&self) -> bool {
        matches!(
            self,
            Warning::FewMicroBatches { .. }
                | Warning::PipelineWithZero23 { .. }
                | Warning::TpAcrossNodes { .. }
                | Warning::CpuMemory { .. }
        )
    }
}

impl Warning {
    /// The views whose subject the warning is about: a figure or a slide shows
    /// only its own section's warnings (the activations slide does not talk
    /// about 6PD); the full page shows them all. The memory total, and the
    /// project's sweeps and planner that size it, take every memory warning.
    pub fn views(&self) -> &'static [View] {
        use View::*;
        match self {
            Warning::TpAcrossNodes { .. } => &[ThreeD, Memory, Sweeps, Planner],
            Warning::PipelineWithZero23 { .. } => &[Zero, ThreeD, Memory, Sweeps, Planner],
            Warning::PipelineUneven { .. } => &[ThreeD, Memory, Sweeps, Planner],
            Warning::FewMicroBatches { .. } => &[ThreeD, Memory, Compute, Sweeps, Planner],
            Warning::TokensBelowFloor { .. } => &[Chinchilla, Compute],
            Warning::ShapeMismatch { .. } => &[Activations, Memory, Sweeps, Planner],
            Warning::SequenceParallelWithoutTp | Warning::PartitionWithSequenceParallel => {
                &[Activations, Memory, Sweeps, Planner]
            }
            Warning::TflopsAbovePeak { .. } | Warning::A100BelowExpected { .. } => &[Compute],
            Warning::OffloadWithoutZero | Warning::LiveParamsLarge => &[Zero, Memory, Sweeps, Planner],
            Warning::ScoresStored { .. } => &[Activations, Memory, Sweeps, Planner],
            Warning::AttentionFlops { .. } => &[Compute],
            Warning::StepOverhead { .. } => &[Compute, ThreeD, Planner],
            Warning::TpGradients { .. } => &[ThreeD, Memory, Sweeps, Planner],
            Warning::CpuMemory { .. } => &[Zero, Memory, Planner],
            Warning::OffloadSlower => &[Compute, Memory],
            Warning::ContextBeyondPositions { .. } => &[Inference],
            Warning::LinearLayersTraining { .. } => &[Memory, Activations, Compute, ThreeD, Sweeps, Planner],
            Warning::PagedOptimizer { .. } => &[Memory, ModelStates, Finetune],
            Warning::NotModelled { .. } => &[Memory, ModelStates, Activations, Inference, ThreeD, Sweeps, Planner],
        }
    }

    /// Whether `view` shows this warning.
    pub fn on_topic(&self, view: View) -> bool {
        self.views().contains(&view)
    }

    /// A stable identifier (the page's translation key).
    pub fn code(&self) -> &'static str {
        match self {
            Warning::TpAcrossNodes { .. } => "tp-across-nodes",
            Warning::PipelineWithZero23 { .. } => "pipeline-with-zero23",
            Warning::PipelineUneven { .. } => "pipeline-uneven",
            Warning::FewMicroBatches { .. } => "few-micro-batches",
            Warning::TokensBelowFloor { .. } => "tokens-below-floor",
            Warning::ShapeMismatch { .. } => "shape-mismatch",
            Warning::SequenceParallelWithoutTp => "sequence-parallel-without-tp",
            Warning::PartitionWithSequenceParallel => "partition-with-sequence-parallel",
            Warning::TflopsAbovePeak { .. } => "tflops-above-peak",
            Warning::A100BelowExpected { .. } => "a100-below-expected",
            Warning::OffloadWithoutZero => "offload-without-zero",
            Warning::LiveParamsLarge => "live-params-large",
            Warning::AttentionFlops { .. } => "attention-flops",
            Warning::StepOverhead { .. } => "step-overhead",
            Warning::ScoresStored { .. } => "scores-stored",
            Warning::TpGradients { .. } => "tp-gradients",
            Warning::CpuMemory { .. } => "cpu-memory",
            Warning::OffloadSlower => "offload-slower",
            Warning::ContextBeyondPositions { .. } => "context-beyond-positions",
            Warning::LinearLayersTraining { .. } => "linear-layers-training",
            Warning::PagedOptimizer { .. } => "paged-optimizer",
            Warning::NotModelled { .. } => "not-modelled",
        }
    }

    /// The key of the control that causes it (where the page shows it).
    pub fn key(&self) -> K {
        match self {
            Warning::TpAcrossNodes { .. } | Warning::SequenceParallelWithoutTp => K::Tp,
            Warning::PipelineWithZero23 { .. } => K::Zero,
            Warning::PipelineUneven { .. } => K::Pp,
            Warning::FewMicroBatches { .. } => K::GradAccum,
            Warning::TokensBelowFloor { .. } => K::Tokens,
            Warning::ShapeMismatch { .. } => K::Params,
            Warning::PartitionWithSequenceParallel => K::PartitionActivations,
            Warning::TflopsAbovePeak { .. } | Warning::A100BelowExpected { .. } => K::Tflops,
            Warning::OffloadWithoutZero => K::Offload,
            Warning::LiveParamsLarge => K::MaxLiveParams,
            Warning::AttentionFlops { .. } => K::SeqLen,
            Warning::StepOverhead { .. } => K::GradAccum,
            Warning::ScoresStored { .. } => K::Attention,
            Warning::TpGradients { .. } => K::Convention,
            Warning::CpuMemory { .. } => K::CpuMem,
            Warning::OffloadSlower => K::Offload,
            Warning::ContextBeyondPositions { .. } => K::Context,
            Warning::LinearLayersTraining { .. } => K::AttentionEvery,
            Warning::PagedOptimizer { .. } => K::Optimizer,
            Warning::NotModelled { .. } => K::Model,
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::TpAcrossNodes { tp, node } => {
                write!(f, "tensor parallelism {tp} > {node} GPUs per node crosses the slow inter-node link")
            }
            Warning::PipelineWithZero23 { zero } => {
                write!(f, "pipeline parallelism with ZeRO-{zero} is blocked in DeepSpeed (gradient sharding vs gradient accumulation)")
            }
            Warning::PipelineUneven { layers, pp } => {
                write!(f, "pp {pp} does not divide the {layers} layers: the busiest stage holds {} layers", layers.div_ceil(*pp))
            }
            Warning::FewMicroBatches { grad_accum, pp } => write!(
                f,
                "{grad_accum} {} for {pp} pipeline stages: the pipeline never fills and idles {:.0}% of the step",
                if *grad_accum == 1 { "micro-batch" } else { "micro-batches" },
                100.0 * parallel::bubble_fraction(*pp, *grad_accum)
            ),
            Warning::TokensBelowFloor { tokens } => write!(
                f,
                "{} tokens: the article advises against training an LLM on fewer than 200B tokens",
                format_count(*tokens)
            ),
            Warning::ShapeMismatch { params, shape_params } => write!(
                f,
                "P = {} but the shape (L, h, a, V, kv-heads, ffn, experts) counts {}: activations follow the shape",
                format_count(*params),
                format_count(*shape_params)
            ),
            Warning::SequenceParallelWithoutTp => write!(f, "sequence parallelism needs tp > 1 to change anything"),
            Warning::PartitionWithSequenceParallel => {
                write!(f, "activation partitioning and sequence parallelism both split activations over tp: counted once")
            }
            Warning::TflopsAbovePeak { tflops, peak } => {
                write!(f, "{tflops} TFLOP/s achieved is above the datasheet peak of {peak}")
            }
            Warning::A100BelowExpected { tflops } => write!(
                f,
                "{tflops} TFLOP/s per A100: the article says ~120 should always be reachable and below 115 something is wrong"
            ),
            Warning::OffloadWithoutZero => {
                write!(f, "ZeRO-Offload shards the offloaded optimizer: use ZeRO 1–3 (ZeRO-3 to offload the weights)")
            }
            Warning::LiveParamsLarge => {
                write!(f, "ZeRO-3 live parameters outweigh the sharded weights: lower max-live-params")
            }
            Warning::ScoresStored { with_flash } => write!(
                f,
                "the article's count stores the s×s attention scores; with FlashAttention (attention=flash) activations are {} GB",
                crate::units::format_sig(with_flash / 1e9)
            ),
            Warning::TpGradients { gradients, total } => write!(
                f,
                "the article divides gradients by p only; divided by t·p as Megatron-LM shards them (convention=megatron), gradients are {} GB and the total {} GB",
                crate::units::format_sig(gradients / 1e9),
                crate::units::format_sig(total / 1e9)
            ),
            Warning::CpuMemory { needed, capacity } => write!(
                f,
                "offload needs {} GB of CPU memory per node, above the {} GB it has",
                crate::units::group_thousands(&crate::units::format_sig(needed / 1e9)),
                crate::units::group_thousands(&crate::units::format_sig(capacity / 1e9))
            ),
            Warning::OffloadSlower => {
                write!(f, "offload slows each step by 30–50 % in the lesson's figures; time and cost here leave it out")
            }
            Warning::NotModelled { model, parts } => {
                let parts: Vec<&str> = parts.iter().map(|p| p.english()).collect();
                write!(f, "{model}: the figures leave out {}", parts.join(" and "))
            }
            Warning::PagedOptimizer { states } => write!(
                f,
                "with a paged optimizer (bitsandbytes' paged_adamw_8bit, QLoRA's) the optimizer states, {} GB, live in CUDA unified memory: torch.cuda.memory_allocated and memory_reserved leave them out, nvidia-smi counts them while they are on the GPU, and under memory pressure they move to CPU memory instead of failing; the total here keeps them on the GPU",
                crate::units::format_sig(states / 1e9)
            ),
            Warning::LinearLayersTraining { linear } => write!(
                f,
                "its {linear} linear layers: serving counts their fixed state; training counts them as attention layers (their activations and FLOPs are not modelled yet)"
            ),
            Warning::ContextBeyondPositions { context, limit } => write!(
                f,
                "a context of {} tokens is beyond the model's {} positions (max-position-embeddings)",
                crate::units::group_thousands(&context.to_string()),
                crate::units::group_thousands(&limit.to_string())
            ),
            Warning::AttentionFlops { share, with_attention } => write!(
                f,
                "6PD leaves out attention, {:.0} % more at this sequence length: {} FLOPs with it (PaLM, Appendix B)",
                100.0 * share,
                crate::units::format_sig(*with_attention)
            ),
            Warning::StepOverhead { bubble, comm } => write!(
                f,
                "C/(N·τ) leaves out the pipeline bubble (+{:.0} % of a step's compute) and the communication compute does not hide (+{:.0} %)",
                100.0 * bubble,
                100.0 * comm
            ),
        }
    }
}

/// Everything evaluated for one configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub config: Config,
    /// The heaviest pipeline stage (the whole model with p = 1): the verdict's.
    pub stage: memory::Stage,
    /// Its memory per GPU.
    pub per_gpu: MemoryBreakdown,
    pub divisors: memory::Divisors,
    pub inference: Bytes,
    pub compute: ComputeBreakdown,
    pub cpu_per_node: Bytes,
    pub nvme_per_node: Bytes,
    /// One optimizer step's seconds by part ([`step::step_time`]).
    pub step: step::StepTime,
    /// One serving replica's memory, time and cost ([`crate::serving::evaluate`]).
    pub serving: crate::serving::ServingReport,
    /// Post-training's phases, each with its memory per GPU (none without post-training).
    pub phases: Vec<crate::finetune::post::Phase>,
    pub warnings: Vec<Warning>,
}

impl Report {
    pub fn gpu_mem(&self) -> Bytes {
        Bytes(self.config.system.gpu_mem_bytes)
    }
    /// Whether the per-GPU total is within the GPU's memory.
    pub fn fits(&self) -> bool {
        self.per_gpu.total().get() <= self.config.system.gpu_mem_bytes
    }
    /// Whether what offload puts in a node's CPU memory fits it.
    pub fn cpu_fits(&self) -> bool {
        self.cpu_per_node.get() <= self.config.system.cpu_mem_bytes
    }
    /// Capacity minus need: headroom when positive, the shortfall when negative.
    pub fn headroom(&self) -> Bytes {
        Bytes(self.config.system.gpu_mem_bytes - self.per_gpu.total().get())
    }
    /// What serving needs, against one GPU's memory: once a context or a
    /// batch is given, the weights plus their KV cache; else the article's
    /// 1.2 × weights.
    pub fn serving_bytes(&self) -> Bytes {
        if self.config.serving.serving_given {
            memory::inference_total_bytes(&self.config)
        } else {
            self.inference
        }
    }
    /// Whether serving fits one GPU ([`Report::serving_bytes`] against its memory).
    pub fn serving_fits(&self) -> bool {
        self.serving_bytes().get() <= self.config.system.gpu_mem_bytes
    }
    /// Serving memory per GPU when the weights are split over the same t·p GPUs
    /// (tensor and pipeline parallel); the whole model's figure is [`Report::inference`].
    pub fn inference_per_gpu(&self) -> Bytes {
        (self.inference / self.config.layout.model_parallel() as f64).whole()
    }
    /// The run's model FLOPs: the article's C, recomputation included (its
    /// 8PD with full recomputation); under `megatron`, the model FLOPs with
    /// attention, recomputation left out (it is hardware work, not the model's).
    /// The article's 6·P_active·D, whatever the convention counts (C adds attention under `megatron`).
    pub fn six_pd(&self) -> Flops {
        Flops(6.0 * self.config.active_params.get() * self.config.tokens.get())
    }
    pub fn flops(&self) -> Flops {
        match self.config.convention {
            Convention::Article => self.compute.total(),
            Convention::Megatron => self.compute.forward + self.compute.backward,
        }
    }
    /// What the GPUs execute, recomputation included: time and cost follow it.
    pub fn hardware_flops(&self) -> Flops {
        self.compute.total()
    }
    /// GPU-hours: C/τ under `article` (the article's count); under `megatron`
    /// the step-time model's, N GPUs for the run's steps.
    pub fn gpu_hours(&self) -> f64 {
        match self.config.convention {
            Convention::Article => compute::gpu_hours(self.hardware_flops(), self.step.tau),
            Convention::Megatron => self.days() * 24.0 * self.config.layout.gpus() as f64,
        }
    }
    /// Days: C/(N·τ) under `article`, verbatim (a warning gives the bubble's and
    /// the exposed communication's share where they add more than 10 %); under
    /// `megatron`, the step-time model's: D / tokens per step optimizer steps of
    /// [`Report::step`]'s total, τ the rate of compute alone (`tmath::throughput`
    /// holds this against measured runs).
    pub fn days(&self) -> f64 {
        match self.config.convention {
            Convention::Article => compute::days(self.hardware_flops(), self.config.layout.gpus(), self.step.tau),
            Convention::Megatron => {
                let steps = self.config.tokens.get() / parallel::tokens_per_step(&self.config).max(1.0);
                steps * self.step.total / 86_400.0
            }
        }
    }
    pub fn tokens_per_second_per_gpu(&self) -> f64 {
        step::tokens_per_second_per_gpu(&self.config, &self.step)
    }
    pub fn mfu(&self) -> f64 {
        step::mfu(&self.config, &self.step)
    }
    pub fn petaflop_days(&self) -> f64 {
        compute::petaflop_days(self.flops())
    }
    pub fn cost_usd(&self) -> f64 {
        compute::cost_usd(self.gpu_hours(), self.config.system.usd_per_gpu_hour)
    }
    pub fn chinchilla_tokens(&self) -> Tokens {
        compute::chinchilla_tokens(self.config.params)
    }
    /// D/P, against Chinchilla's 20.
    pub fn tokens_per_param(&self) -> f64 {
        self.config.tokens.get() / self.config.params.get()
    }
    /// The pipeline bubble relative to the ideal step, (p−1)/m, or (p−1)/(v·m)
    /// with v virtual stages interleaved: the step-time model's ([`step::bubble_share`]).
    pub fn bubble(&self) -> f64 {
        step::bubble_share(&self.config)
    }
    /// The share of the step the pipeline idles, (p−1)/(v·m + p − 1).
    pub fn bubble_fraction(&self) -> f64 {
        let b = self.bubble();
        b / (1.0 + b)
    }
    pub fn global_batch(&self) -> f64 {
        parallel::global_batch(&self.config)
    }
    /// Whether m is the global batch's, ⌈G/(b·d)⌉ (given so or derived), rather than an m of its own.
    pub fn m_follows_global_batch(&self) -> bool {
        let c = &self.config;
        c.grad_accum == crate::config::micro_batches_for(c.global_batch, c.micro_batch, c.layout.dp)
    }
    pub fn tokens_per_step(&self) -> f64 {
        parallel::tokens_per_step(&self.config)
    }
    pub fn dp_comm(&self) -> Bytes {
        parallel::dp_comm_bytes(&self.config)
    }
    /// Every pipeline stage with its memory per GPU, first to last (the page's
    /// stage chart and the JSON; the verdict needs only the heaviest, [`Report::stage`]).
    pub fn stages(&self) -> Vec<(memory::Stage, MemoryBreakdown)> {
        memory::stages(&self.config).map(|s| (s, memory::stage_memory(&self.config, &s))).collect()
    }

    /// The same configuration under another ZeRO stage (the ZeRO paper's figure).
    pub fn with_zero(&self, zero: ZeroStage) -> Report {
        self.with(|c| c.zero = zero)
    }

    /// The same configuration with one change: another recomputation, layout, optimizer…
    pub fn with(&self, change: impl FnOnce(&mut Config)) -> Report {
        let mut c = self.config.clone();
        change(&mut c);
        evaluate(&c)
    }
}

/// The rules of [`Warning`] that `c` bends; `m` is its memory per GPU and
/// `cpu` what offload puts in a node's CPU memory.
pub fn warnings(
    c: &Config,
    stage: &memory::Stage,
    m: &MemoryBreakdown,
    cpu: Bytes,
    st: &step::StepTime,
) -> Vec<Warning> {
    let mut w = Vec::new();
    let Layout { tp, pp, .. } = c.layout;
    if tp > c.system.gpus_per_node {
        w.push(Warning::TpAcrossNodes { tp, node: c.system.gpus_per_node });
    }
    if pp > 1 && c.zero.shards_gradients() {
        w.push(Warning::PipelineWithZero23 { zero: c.zero.get() });
    }
    // Layers spread evenly that do not divide; a given layout (pp-layout, the first and last stages') is deliberate.
    let laid_out = c.pp_layout.is_some() || c.pp_first_layers.is_some() || c.pp_last_layers.is_some();
    if !c.arch.layers.is_multiple_of(pp) && !laid_out {
        w.push(Warning::PipelineUneven { layers: c.arch.layers, pp });
    }
    if pp > 1 && c.grad_accum < pp {
        w.push(Warning::FewMicroBatches { grad_accum: c.grad_accum, pp });
    }
    if c.tokens.get() < MIN_RECOMMENDED_TOKENS {
        w.push(Warning::TokensBelowFloor { tokens: c.tokens.get() });
    }
    let shape = c.arch.exact_params().get();
    let ratio = c.params.get() / shape;
    if !(0.5..=2.0).contains(&ratio) {
        w.push(Warning::ShapeMismatch { params: c.params.get(), shape_params: shape });
    }
    if (c.sequence_parallel || c.tsp) && tp == 1 {
        w.push(Warning::SequenceParallelWithoutTp);
    }
    if c.partition_activations && c.splits_sequence() {
        w.push(Warning::PartitionWithSequenceParallel);
    }
    let tflops = st.tau / 1e12;
    if tflops > c.system.gpu.peak_tflops {
        w.push(Warning::TflopsAbovePeak { tflops, peak: c.system.gpu.peak_tflops });
    }
    if c.system.gpu.name.starts_with("a100") && tflops < 115.0 {
        w.push(Warning::A100BelowExpected { tflops });
    }
    if c.offload.is_on() && (!c.zero.shards_optimizer() || (c.offload == Offload::Params && !c.zero.shards_params())) {
        w.push(Warning::OffloadWithoutZero);
    }
    if c.zero.shards_params() && m[Part::LiveParams] > m[Part::Model] {
        w.push(Warning::LiveParamsLarge);
    }
    if c.attention == Attention::Standard && c.recompute == Recompute::None {
        let flash = memory::activation_terms(&Config { attention: Attention::Flash, ..c.clone() }, stage).bytes().get();
        if m[Part::Activations].get() > 1.1 * flash {
            w.push(Warning::ScoresStored { with_flash: flash });
        }
    }
    if c.convention == Convention::Article && !c.tsp && tp > 1 {
        let sharded = m[Part::Gradients].get() / tp as f64;
        let total = m.total().get() - m[Part::Gradients].get() + sharded;
        if m.total().get() > 1.1 * total {
            w.push(Warning::TpGradients { gradients: sharded, total });
        }
    }
    if c.offload.is_on() {
        if cpu.get() > c.system.cpu_mem_bytes {
            w.push(Warning::CpuMemory { needed: cpu.get(), capacity: c.system.cpu_mem_bytes });
        }
        w.push(Warning::OffloadSlower);
    }
    if let Some(model) = c.model.filter(|m| !m.unmodelled.is_empty()) {
        // The MTP module is modelled once mtp-layers is given, FP8 once fp8 is.
        use crate::catalog::Unmodelled::{Fp8, Mtp};
        let parts: &'static [crate::catalog::Unmodelled] =
            match (model.unmodelled, c.arch.mtp_layers > 0, c.dtypes.fp8 != Fp8Recipe::None) {
                ([Mtp, Fp8], true, true) => &[],
                ([Mtp, Fp8], true, false) => &[Fp8],
                ([Mtp, Fp8], false, true) => &[Mtp],
                ([Mtp, rest @ ..], true, _) => rest,
                (all, ..) => all,
            };
        if !parts.is_empty() {
            w.push(Warning::NotModelled { model: model.label, parts });
        }
    }
    // 8-bit Adam is bitsandbytes'; QLoRA's recipe pages its optimizer (Dettmers et al. 2023, §3).
    if c.optimizer == crate::config::Optimizer::Adam8bit || c.finetune.method == crate::finetune::Finetune::Qlora {
        w.push(Warning::PagedOptimizer { states: m[Part::Optimizer].get() });
    }
    if c.arch.linear_layers() > 0 {
        w.push(Warning::LinearLayersTraining { linear: c.arch.linear_layers() });
    }
    if let Some(limit) = c.serving.max_positions.filter(|&l| c.serving.context > l) {
        w.push(Warning::ContextBeyondPositions { context: c.serving.context, limit });
    }
    let (six_pd, with_attention) =
        (6.0 * c.active_params.get() * c.tokens.get(), compute::flops_with_attention(c).get());
    if c.convention == Convention::Article && with_attention > 1.1 * six_pd {
        w.push(Warning::AttentionFlops { share: with_attention / six_pd - 1.0, with_attention });
    }
    // Under `megatron` the days are the step's; under `article` they leave it out, and say so.
    if c.convention == Convention::Article && st.bubble + st.exposed_comm > 0.1 * st.compute {
        w.push(Warning::StepOverhead { bubble: st.bubble / st.compute, comm: st.exposed_comm / st.compute });
    }
    w
}

/// Evaluates every formula once.
pub fn evaluate(c: &Config) -> Report {
    let (stage, training) = memory::peak_stage(c);
    // Post-training's phases, one after the other: the verdict is the heaviest's.
    let phases = crate::finetune::post::phases(c, training);
    let per_gpu = phases.iter().map(|p| p.per_gpu).fold(training, |a, b| if b.total() > a.total() { b } else { a });
    let divisors = memory::stage_divisors(c, &stage);
    let cpu_per_node = memory::cpu_offload_per_node(c, &divisors, &stage);
    let step = step::step_time(c);
    Report {
        warnings: warnings(c, &stage, &per_gpu, cpu_per_node, &step),
        stage,
        per_gpu,
        divisors,
        // The article's 1.2 × the weights, a quantized file's as its tensors add up.
        inference: Bytes(memory::INFERENCE_OVERHEAD * crate::serving::formats::weight_bytes(c)).whole(),
        compute: compute::compute(c),
        cpu_per_node,
        nvme_per_node: memory::nvme_offload_per_node(c, &divisors),
        step,
        serving: crate::serving::evaluate(c),
        phases,
        config: c.clone(),
    }
}

/// The JSON's `phases`: one object per phase, its name and its own `per_gpu_bytes`.
struct PhasesJson<'a>(&'a [crate::finetune::post::Phase]);

impl Serialize for PhasesJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{SerializeSeq, SerializeStruct};
        struct One<'a>(&'a crate::finetune::post::Phase);
        impl Serialize for One<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut o = s.serialize_struct("Phase", 2)?;
                o.serialize_field("name", self.0.name)?;
                o.serialize_field("per_gpu_bytes", &self.0.per_gpu)?;
                o.end()
            }
        }
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for p in self.0 {
            seq.serialize_element(&One(p))?;
        }
        seq.end()
    }
}

/// The JSON's `stages`: one object per stage, its place and its own `per_gpu_bytes`.
struct StagesJson<'a>(&'a Report);

impl Serialize for StagesJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let stages = self.0.stages();
        let mut seq = s.serialize_seq(Some(stages.len()))?;
        for (stage, m) in &stages {
            seq.serialize_element(&StageJson(stage, m))?;
        }
        seq.end()
    }
}

/// One stage's object: its place, then its `per_gpu_bytes` (a map written by
/// hand: serde's `flatten` cost the page 3 KiB).
struct StageJson<'a>(&'a memory::Stage, &'a MemoryBreakdown);

impl Serialize for StageJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let StageJson(st, m) = self;
        let mut o = s.serialize_struct("Stage", 6)?;
        o.serialize_field("index", &st.index)?;
        o.serialize_field("layers", &st.layers)?;
        o.serialize_field("first", &st.first)?;
        o.serialize_field("last", &st.last)?;
        o.serialize_field("mtp_modules", &st.mtp)?;
        // Interleaved, the rank's forwards in flight are of one chunk's layers each: micro-batches' worth of them.
        o.serialize_field("micro_batches_in_flight", &(st.layer_forwards as f64 / st.layers.max(1) as f64))?;
        o.serialize_field("virtual_stages", &st.chunks)?;
        o.serialize_field("per_gpu_bytes", m)?;
        o.end()
    }
}

/// Parameters as a bare number in JSON.
fn p(x: Params) -> f64 {
    x.get()
}

/// The SPEC's JSON object (all keys always present), then details it allows.
impl Serialize for Report {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let c = &self.config;
        let m = &self.per_gpu;
        let mut o = s.serialize_struct("Report", 131)?;
        o.serialize_field("params", &p(c.params))?;
        o.serialize_field("active_params", &p(c.active_params))?;
        o.serialize_field("trainable_params", &p(crate::finetune::trainable_params(c)))?;
        o.serialize_field("tokens", &c.tokens.get())?;
        o.serialize_field("gpus", &c.layout.gpus())?;
        o.serialize_field("tp", &c.layout.tp)?;
        o.serialize_field("pp", &c.layout.pp)?;
        o.serialize_field("dp", &c.layout.dp)?;
        o.serialize_field("cp", &c.layout.cp)?;
        o.serialize_field("ep", &c.layout.ep)?;
        o.serialize_field("etp", &c.layout.expert_tp())?;
        o.serialize_field("per_gpu_bytes", m)?;
        o.serialize_field("peak_stage", &self.stage.index)?;
        o.serialize_field("stages", &StagesJson(self))?;
        o.serialize_field("gpu_mem_bytes", &c.system.gpu_mem_bytes)?;
        o.serialize_field("fits", &self.fits())?;
        o.serialize_field("inference_bytes", &self.inference.get())?;
        o.serialize_field("kv_cache_bytes", &memory::kv_cache_bytes(c).get())?;
        o.serialize_field("inference_total_bytes", &memory::inference_total_bytes(c).get())?;
        o.serialize_field("max_context_tokens", &memory::max_context_tokens(c))?;
        o.serialize_field("longest_context_tokens", &memory::longest_context(c).0)?;
        o.serialize_field("serving_bytes", &self.serving_bytes().get())?;
        o.serialize_field("serving_fits", &self.serving_fits())?;
        o.serialize_field("batch", &c.serving.batch)?;
        o.serialize_field("context", &c.serving.context)?;
        o.serialize_field("kv_dtype", &c.serving.kv_dtype)?;
        o.serialize_field("max_position_embeddings", &c.serving.max_positions)?;
        o.serialize_field("serving", &self.serving)?;
        o.serialize_field("serve_tp", &c.serving.serve_tp)?;
        o.serialize_field("serve_pp", &c.serving.serve_pp)?;
        o.serialize_field("prompt_tokens", &c.serving.prompt_tokens)?;
        o.serialize_field("output_tokens", &c.serving.output_tokens)?;
        o.serialize_field("mem_util", &c.serving.mem_util)?;
        o.serialize_field("hbm_gbs", &(c.serving.hbm_bytes_per_s / 1e9))?;
        o.serialize_field("serve_tflops", &(c.serving.flops_per_gpu / 1e12))?;
        o.serialize_field("host_ms", &(c.serving.host_seconds * 1e3))?;
        o.serialize_field("flops", &self.flops().get())?;
        o.serialize_field("flops_with_attention", &compute::flops_with_attention(c).get())?;
        o.serialize_field("gpu_hours", &self.gpu_hours())?;
        o.serialize_field("days", &self.days())?;
        o.serialize_field("step_time", &self.step)?;
        o.serialize_field("tokens_per_second_per_gpu", &self.tokens_per_second_per_gpu())?;
        o.serialize_field("mfu", &self.mfu())?;
        o.serialize_field("petaflop_days", &self.petaflop_days())?;
        o.serialize_field("cost_usd", &self.cost_usd())?;
        o.serialize_field("chinchilla_tokens", &self.chinchilla_tokens().get())?;
        o.serialize_field("warnings", &self.warnings.iter().map(|w| w.to_string()).collect::<Vec<_>>())?;
        o.serialize_field("notes", &self.notes())?;
        // Details beyond the SPEC's required keys.
        o.serialize_field("warning_codes", &self.warnings.iter().map(|w| w.code()).collect::<Vec<_>>())?;
        o.serialize_field("inference_bytes_per_gpu", &self.inference_per_gpu().get())?;
        o.serialize_field("model_states_bytes", &m.model_states().get())?;
        o.serialize_field("cpu_bytes_per_node", &self.cpu_per_node.get())?;
        o.serialize_field("cpu_fits", &self.cpu_fits())?;
        o.serialize_field("nvme_bytes_per_node", &self.nvme_per_node.get())?;
        o.serialize_field("flops_forward", &self.compute.forward.get())?;
        o.serialize_field("flops_backward", &self.compute.backward.get())?;
        o.serialize_field("flops_recompute", &self.compute.recompute.get())?;
        o.serialize_field("hardware_flops", &self.hardware_flops().get())?;
        o.serialize_field("tokens_per_param", &self.tokens_per_param())?;
        o.serialize_field("pipeline_bubble", &self.bubble())?;
        o.serialize_field("bubble_fraction", &self.bubble_fraction())?;
        o.serialize_field("global_batch", &self.global_batch())?;
        o.serialize_field("tokens_per_step", &self.tokens_per_step())?;
        o.serialize_field("dp_comm_bytes_per_step", &self.dp_comm().get())?;
        o.serialize_field("tflops", &(self.step.tau / 1e12))?;
        o.serialize_field("tau_from_shape", &c.system.tau_from_shape)?;
        o.serialize_field("usd_per_gpu_hour", &c.system.usd_per_gpu_hour)?;
        o.serialize_field("convention", &c.convention)?;
        let f = &c.finetune;
        o.serialize_field("finetune", &f.method)?;
        o.serialize_field("lora_rank", &f.rank)?;
        o.serialize_field("lora_targets", &f.targets)?;
        o.serialize_field("lora_dropout", &f.dropout)?;
        o.serialize_field("base_dtype", &f.base_dtype)?;
        o.serialize_field("train_embeddings", &f.train_embeddings)?;
        o.serialize_field("kernels", &c.kernels)?;
        let post = &c.post;
        o.serialize_field("post_training", &post.method)?;
        o.serialize_field("rollouts", &post.rollouts)?;
        o.serialize_field("response_tokens", &post.response_tokens)?;
        o.serialize_field("reward_params", &post.reward_params)?;
        o.serialize_field("critic_params", &post.critic_params)?;
        o.serialize_field("rollout", &post.engine)?;
        o.serialize_field("rollout_mem_util", &post.engine_mem_util)?;
        o.serialize_field("phases", &PhasesJson(&self.phases))?;
        o.serialize_field("zero", &c.zero)?;
        o.serialize_field("model", &c.model.map_or("custom", |m| m.name))?;
        o.serialize_field("seq_len", &c.seq_len)?;
        o.serialize_field("micro_batch", &c.micro_batch)?;
        o.serialize_field("grad_accum", &c.grad_accum)?;
        o.serialize_field("precision", &c.dtypes.precision)?;
        o.serialize_field("grad_dtype", &c.dtypes.grad_dtype)?;
        o.serialize_field("optimizer", &c.optimizer)?;
        o.serialize_field("exp_avg_dtype", &c.dtypes.exp_avg_dtype)?;
        o.serialize_field("main_params", &c.dtypes.main_params)?;
        o.serialize_field("fp8", &c.dtypes.fp8)?;
        o.serialize_field("fp8_param_gather", &c.dtypes.fp8_param_gather)?;
        o.serialize_field("recompute", &c.recompute)?;
        o.serialize_field("sequence_parallel", &c.sequence_parallel)?;
        o.serialize_field("partition_activations", &c.partition_activations)?;
        o.serialize_field("tsp", &c.tsp)?;
        o.serialize_field("tp_comm_overlap", &c.tp_comm_overlap)?;
        o.serialize_field("max_live_params", &c.max_live_params.get())?;
        o.serialize_field("gpu", &c.system.gpu.name)?;
        o.serialize_field("inference_dtype", &c.serving.inference_dtype)?;
        o.serialize_field("offload", &c.offload)?;
        o.serialize_field("attention", &c.attention)?;
        o.serialize_field("schedule", &c.schedule)?;
        o.serialize_field("vpp", &c.layout.vpp)?;
        // The layers the first and last stages hold, given or spread evenly.
        let p = c.layout.pp;
        o.serialize_field("pp_first_layers", &memory::stage(c, 0).layers)?;
        o.serialize_field("pp_last_layers", &memory::stage(c, p - 1).layers)?;
        o.serialize_field("pp_layout", c.pp_layout.as_ref().map_or("", |l| l.text.as_str()))?;
        o.serialize_field("loss", &c.loss)?;
        o.serialize_field("loss_chunks", &c.loss_chunks)?;
        o.serialize_field("recompute_every", &c.recompute_every)?;
        o.serialize_field("offload_activations", &c.offload_activations)?;
        o.serialize_field("reserve_gb", &(c.system.reserve_bytes / 1e9))?;
        o.serialize_field("fragmentation_pct", &(c.system.fragmentation * 100.0))?;
        o.serialize_field("cpu_mem_bytes", &c.system.cpu_mem_bytes)?;
        o.serialize_field("gpus_per_node", &c.system.gpus_per_node)?;
        o.serialize_field("intra_node_gbs", &(c.system.intra_node_bytes_per_s / 1e9))?;
        o.serialize_field("inter_node_gbs", &(c.system.inter_node_bytes_per_s / 1e9))?;
        // The shape the counts and the activations use (the practice keys echoed).
        let a = &c.arch;
        o.serialize_field("layers", &a.layers)?;
        o.serialize_field("hidden", &a.hidden)?;
        o.serialize_field("heads", &a.heads)?;
        o.serialize_field("vocab", &a.vocab)?;
        o.serialize_field("kv_heads", &a.kv_heads)?;
        o.serialize_field("head_dim", &a.d_head())?;
        o.serialize_field("ffn", &a.ffn)?;
        o.serialize_field("mlp", &a.mlp)?;
        o.serialize_field("tie_embeddings", &a.tie_embeddings)?;
        o.serialize_field("experts", &a.experts)?;
        o.serialize_field("top_k", &a.top_k)?;
        o.serialize_field("shared_experts", &a.shared_experts)?;
        o.serialize_field("moe_ffn", &a.moe_ffn)?;
        o.serialize_field("dense_layers", &a.dense_layers)?;
        o.serialize_field("mtp_layers", &a.mtp_layers)?;
        o.serialize_field("kv_lora_rank", &a.mla.kv_lora_rank)?;
        o.serialize_field("q_lora_rank", &a.mla.q_lora_rank)?;
        o.serialize_field("qk_head_dim", &a.mla.qk_head_dim)?;
        o.serialize_field("qk_rope_head_dim", &a.mla.qk_rope_head_dim)?;
        o.serialize_field("v_head_dim", &a.mla.v_head_dim)?;
        o.serialize_field("sliding_window", &a.sliding_window)?;
        o.serialize_field("global_every", &a.global_every)?;
        o.serialize_field("attention_every", &a.attention_every)?;
        o.serialize_field("linear_state", &a.linear_state)?;
        o.serialize_field("linear_conv", &a.linear_conv)?;
        o.serialize_field("state_dtype", &a.state_dtype)?;
        o.end()
    }
}
