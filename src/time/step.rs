//! One step-time model for the calculator and the planner: how long one
//! optimizer step takes on the slowest pipeline stage, part by part. The
//! calculator's days under `megatron` and the planner's ranking both come from
//! [`step_time`], so for every layout they agree.
//!
//! Each part is a physical term with its source; the only rates are inputs:
//! the achieved FLOP/s per GPU τ (`tflops`, the GPU's default with its source)
//! and the per-GPU bandwidths inside a node and across nodes
//! (`intra-node-gbs`, `inter-node-gbs`). A collective over g ranks that are
//! `stride` apart in Megatron-LM's rank order (t innermost, then cp, then d,
//! then p) stays inside a node when g·stride ≤ GPUs per node. A ring moves
//! 2(g − 1)/g of the data per rank for an all-reduce and (g − 1)/g for an
//! all-gather or a reduce-scatter (Thakur et al. 2005; NCCL's bus bandwidth).

use crate::compute;
use crate::config::{Config, Recompute, Schedule};
use crate::memory::{self, model_bytes};
use crate::parallel;
use serde::Serialize;

/// One step's seconds by part (what the JSON's `step_time` holds).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct StepTime {
    /// The slowest stage's hardware FLOPs (recomputation included) at τ.
    pub compute: f64,
    /// The pipeline idling while it fills and drains.
    pub bubble: f64,
    /// Tensor-parallel (and sequence-parallel) collectives.
    pub tp_comm: f64,
    /// Pipeline sends between neighbouring stages.
    pub pp_comm: f64,
    /// Data-parallel gradient reduction, the distributed optimizer's and ZeRO-3's gathers.
    pub dp_comm: f64,
    /// Context parallelism's ring exchange of keys and values.
    pub cp_comm: f64,
    /// Expert parallelism's all-to-all dispatch and combine.
    pub ep_comm: f64,
    /// What of the tensor-parallel collectives compute does not hide: all of them,
    /// unless Transformer Engine overlaps them with the GEMMs (`tp-comm-overlap`).
    pub tp_exposed: f64,
    /// What of the pipeline's sends and the all-to-all compute does not hide: all of them,
    /// unless DualPipe runs them behind the paired forward and backward.
    pub pp_exposed: f64,
    pub ep_exposed: f64,
    /// What of the data-parallel and the context-parallel communication compute does not hide.
    pub dp_exposed: f64,
    pub cp_exposed: f64,
    /// What of the communication compute does not hide: the exposed tp, pp, dp, cp and ep.
    pub exposed_comm: f64,
    /// The optimizer's update of the rank's parameters once the gradients are reduced
    /// (`optimizer_step`): memory-bound, between one step's backward and the next forward.
    pub optimizer: f64,
    /// compute + bubble + exposed_comm + optimizer.
    pub total: f64,
    /// The achieved FLOP/s per GPU the compute is counted at ([`Config::tau`]),
    /// found once: where τ follows the shape, reading it means a pass through the model.
    #[serde(skip)]
    pub tau: f64,
}

impl StepTime {
    /// Communication in all, hidden or not.
    pub fn comm(&self) -> f64 {
        self.tp_comm + self.pp_comm + self.dp_comm + self.cp_comm + self.ep_comm
    }

    /// The step's segments in order, each a stable name and its seconds: what
    /// the page's step bar stacks (they add up to `total`).
    pub fn segments(&self) -> [(&'static str, f64); 8] {
        [
            ("step-compute", self.compute),
            ("step-bubble", self.bubble),
            ("step-tp", self.tp_exposed),
            ("step-pp", self.pp_exposed),
            ("step-dp", self.dp_exposed),
            ("step-cp", self.cp_exposed),
            ("step-ep", self.ep_exposed),
            ("step-optimizer", self.optimizer),
        ]
    }
}

/// Per-GPU bandwidth of a transfer among `group` ranks `stride` apart (bytes/s):
/// the link's rate, inside a node or across nodes. Point-to-point sends (the
/// pipeline's, the context-parallel ring, the experts' all-to-all) run at it.
pub fn bandwidth(c: &Config, group: u64, stride: u64) -> f64 {
    if within_node(c, group, stride) {
        c.system.intra_node_bytes_per_s
    } else {
        c.system.inter_node_bytes_per_s
    }
}

fn within_node(c: &Config, group: u64, stride: u64) -> bool {
    group.saturating_mul(stride) <= c.system.gpus_per_node
}

/// Per-GPU bandwidth of an all-reduce, all-gather or reduce-scatter of
/// `bytes` a rank over `group` ranks `stride` apart (bytes/s): inside a node
/// the link's rate times the share the GPU's measured all-reduce reaches at
/// that size ([`crate::catalog::Collective`]: 58 % of an A100's NVLink at
/// 128 MiB, 77 % at 8 GiB); across nodes the network's rate.
pub fn collective_bandwidth(c: &Config, group: u64, stride: u64, bytes: f64) -> f64 {
    if within_node(c, group, stride) {
        c.system.intra_node_bytes_per_s * c.system.gpu.allreduce.share(bytes)
    } else {
        c.system.inter_node_bytes_per_s
    }
}

/// Megatron-Core's gradient bucket: max(40M, 1M × the data-parallel ranks)
/// parameters (`DistributedDataParallelConfig.bucket_size`'s default), the
/// size of each data-parallel collective, in `bytes_per_param`.
pub fn dp_bucket_bytes(group: u64, bytes_per_param: f64) -> f64 {
    (40e6f64).max(1e6 * group as f64) * bytes_per_param
}

/// A micro-batch's passes through one stage, in units of its forward: the
/// backward is twice the forward (the input's gradients and the weights' each
/// a forward's FLOPs, Narayanan et al. 2021, §3.2), and the weights' gradients
/// half of it (W, which zero-bubble schedules move into the bubble). DualPipe's
/// F&B, a forward and a backward overlapped, hides communication, not
/// arithmetic: F + B.
const F: f64 = 1.0;
const B: f64 = 2.0;
const W: f64 = 1.0;

/// [`bubble_share`]'s formula for `c`'s schedule, as the page and the command line write it.
pub fn bubble_formula(c: &Config) -> &'static str {
    match c.schedule {
        Schedule::OneFOneB => "(p−1)/(v·m)",
        Schedule::Gpipe => "(p−1)/m",
        Schedule::Zb1p => "(p−1)/(3m)",
        Schedule::DualPipe => "(p/2−1)·2/(3m)",
    }
}

/// The pipeline bubble as a share of the ideal step, m·(F + B) a stage: (p − 1)/m
/// for GPipe and 1F1B, (p − 1)/(v·m) interleaved (Narayanan et al. 2021, §2.2);
/// ZB-H1's (p − 1)(F + B − 2W) and DualPipe's (p/2 − 1)(F&B + B − 3W), as
/// DualPipe's README tabulates them.
pub fn bubble_share(c: &Config) -> f64 {
    let (p, m) = (c.layout.pp as f64, c.grad_accum.max(1) as f64);
    let one_f_one_b = parallel::bubble_overhead(c.layout.pp, c.grad_accum);
    match c.schedule {
        Schedule::OneFOneB => one_f_one_b / c.layout.vpp.max(1) as f64,
        Schedule::Gpipe => one_f_one_b,
        Schedule::Zb1p => one_f_one_b * (F + B - 2.0 * W) / (F + B),
        Schedule::DualPipe => (p / 2.0 - 1.0).max(0.0) * ((F + B) + B - 3.0 * W) / (m * (F + B)),
    }
}

/// One step of `c` ([`StepTime`]):
///
/// - compute: the step's hardware FLOPs (`compute::compute`: 6PD or, under
///   `megatron`, with attention; recomputation's forward again) over the N
///   GPUs at τ, on the slowest stage (its layers against the mean L/p);
/// - bubble: (compute + tp + ep) × [`bubble_share`];
/// - tp: per layer and micro-batch, two all-reduces forward and two backward
///   of s/cp·b·h activations (Shoeybi et al. 2019, §3), two more forward
///   with full recomputation; sequence parallelism's all-gather and
///   reduce-scatter move the same (Korthikanti et al. 2022, §4.2.2), at the
///   bandwidth a collective of that size measures ([`collective_bandwidth`]);
///   exposed, or with `tp-comm-overlap` hidden up to the compute's length;
/// - pp: each micro-batch sends its activations forward and their gradient
///   back once per model chunk, s/cp·b·h/t with sequence parallelism; exposed;
/// - dp over the d·cp ranks, the experts' over theirs ([`parallel::dp_traffic`]), in
///   Megatron-Core's buckets ([`dp_bucket_bytes`]): ZeRO-0's
///   all-reduce and ZeRO-1/2's reduce-scatter and all-gather hidden behind
///   one micro-batch (the last one's backward and the next step's first
///   forward: Megatron-LM's `--overlap-grad-reduce` and
///   `--overlap-param-gather`, PyTorch DDP's buckets); ZeRO-3's gathers and
///   reduce-scatter of each micro-batch hidden behind its own compute (FSDP's
///   prefetch), what is longer exposed;
/// - cp: per layer and micro-batch, each rank passes its keys and values
///   around the ring, cp − 1 hops forward and twice that backward (ring
///   attention, Liu et al. 2023; Megatron-Core's context parallelism), hidden
///   behind the attention's own compute;
/// - ep: per MoE layer and micro-batch, an all-to-all to the experts and one
///   back, forward and backward (two more with full recomputation), of each
///   rank's s/(cp·t)·b tokens × top-k × h; exposed;
/// - the optimizer's update once the gradients are reduced (`optimizer_step`: the
///   rank holding the most parameters, the first or the last stage, its optimizer
///   states read and written, its gradients read twice and zeroed, the master read
///   and the weights written, at the achieved bandwidth).
pub fn step_time(c: &Config) -> StepTime {
    let l = c.layout;
    let (t, p, cp) = (l.tp as f64, l.pp as f64, l.cp as f64);
    let n = l.gpus() as f64;
    let m = c.grad_accum as f64;
    let a = c.arch;
    let tokens_per_step = parallel::tokens_per_step(c);
    let per_token = hardware_flops_per_token(c);
    let stages = candidate_stages(c);
    let slowest = slowest_layers(c, &stages) as f64;
    let stage_share = slowest * p / a.layers.max(1) as f64;
    let tau = c.tau();
    let compute = tokens_per_step * per_token / (n * tau) * stage_share;
    let full = c.recompute == Recompute::Full;
    let act_bytes = model_bytes(c.dtypes.precision).0;
    // One micro-batch's activations at a layer boundary, of this rank's share of the sequence.
    let act = c.seq_len as f64 / cp * c.micro_batch as f64 * a.hidden as f64 * act_bytes;

    let tp_comm = if l.tp > 1 {
        let collectives = if full { 6.0 } else { 4.0 };
        slowest * m * collectives * 2.0 * (t - 1.0) / t * act / collective_bandwidth(c, l.tp, 1, act)
    } else {
        0.0
    };
    let v = if c.schedule == Schedule::OneFOneB { c.layout.vpp.max(1) as f64 } else { 1.0 };
    let pp_comm = if l.pp > 1 {
        let sent = if c.splits_sequence() { act / t } else { act };
        2.0 * m * v * sent / bandwidth(c, 2, l.tp * l.cp * l.dp)
    } else {
        0.0
    };

    // Data parallelism ([`parallel::dp_traffic`]): the dense weights over the d·cp ranks t apart,
    // the routed experts over their expert data-parallel group, etp·ep apart.
    let traffic = parallel::dp_traffic(c);
    let grad_bytes = memory::gradient_bytes(c.dtypes.grad_dtype).0;
    let (dense_group, expert_group) = (l.shard_group(), parallel::expert_data_parallel(c));
    let dp_comm = traffic.dense.get()
        / collective_bandwidth(c, dense_group, l.tp, dp_bucket_bytes(dense_group, grad_bytes))
        + traffic.experts.get()
            / collective_bandwidth(c, expert_group, l.expert_tp() * l.ep, dp_bucket_bytes(expert_group, grad_bytes));
    let per_micro_batch = compute / m;
    let dp_exposed = if c.zero.shards_params() {
        m * (dp_comm / m - per_micro_batch).max(0.0)
    } else {
        (dp_comm - per_micro_batch).max(0.0)
    };

    let (cp_comm, cp_exposed) = if l.cp > 1 {
        let kv_heads = if a.mla.is_on() { a.heads } else { a.kv_heads } as f64;
        let kv = 2.0 * act * kv_heads * a.d_head() / a.hidden as f64;
        let time = slowest * m * 3.0 * (cp - 1.0) * kv / bandwidth(c, l.cp, l.tp);
        // The ring hides behind the attention it feeds: its share of the FLOPs per token.
        let attention = 12.0 * a.layers as f64 * a.attention_width() * c.seq_len as f64;
        let share = attention / (6.0 * c.active_params.get() + attention);
        (time, (time - compute * share).max(0.0))
    } else {
        (0.0, 0.0)
    };

    let ep_comm = if c.layout.ep > 1 {
        let e = c.layout.ep as f64;
        let moe_layers = a.moe_layers() * slowest / a.layers.max(1) as f64;
        let sent = act / t * a.top_k as f64;
        let passes = if full { 6.0 } else { 4.0 };
        moe_layers * m * passes * (e - 1.0) / e * sent / bandwidth(c, c.layout.ep, l.tp)
    } else {
        0.0
    };

    // DualPipe overlaps a forward with a backward so that the all-to-all and the pipeline's
    // sends run behind the other's arithmetic (DeepSeek-V3 §3.2.1): what is longer shows.
    let (pp_exposed, ep_exposed) = if c.schedule == Schedule::DualPipe {
        let hidden = (pp_comm + ep_comm).min(compute);
        (pp_comm - hidden.min(pp_comm), ep_comm - (hidden - hidden.min(pp_comm)))
    } else {
        (pp_comm, ep_comm)
    };
    // Transformer Engine's userbuffers split each all-gather and reduce-scatter into chunks that
    // run beside the GEMM chunks consuming them (`initialize_ub`'s ring exchange and pipeline
    // overlaps): hidden up to the compute's length, what is longer shows.
    let tp_exposed = if c.tp_comm_overlap { (tp_comm - compute).max(0.0) } else { tp_comm };
    let bubble = (compute + tp_exposed + ep_exposed) * bubble_share(c);
    let exposed_comm = tp_exposed + pp_exposed + dp_exposed + cp_exposed + ep_exposed;
    let optimizer = optimizer_step(c, &stages);
    StepTime {
        compute,
        bubble,
        tp_comm,
        pp_comm,
        dp_comm,
        cp_comm,
        ep_comm,
        tp_exposed,
        pp_exposed,
        ep_exposed,
        dp_exposed,
        cp_exposed,
        exposed_comm,
        optimizer,
        total: compute + bubble + exposed_comm + optimizer,
        tau,
    }
}

/// The optimizer step on the rank that holds the most parameters (the first
/// stage with the embedding or the last with the output layer), seconds: a
/// memory-bound pass at the GPU's achieved bandwidth over the parameters
/// whose optimizer states the rank holds (all of its own, or its ZeRO
/// shard), as Megatron-LM's mixed-precision optimizer runs it
/// (`megatron/core/optimizer/optimizer.py`, `MixedPrecisionOptimizer.step`):
/// the gradient norm for clipping reads the gradients (`clip_grad_norm_fp32`),
/// the fused Adam reads the gradients and reads and writes every optimizer
/// state, the fp32 master copy included (apex `multi_tensor_adam`), and
/// `_copy_main_params_to_model_params` reads the master and writes the
/// weights; the next step's `zero_grad` writes the rank's whole gradient
/// buffer. An optimizer offloaded to the CPU leaves the GPU no update to
/// run (its CPU time is not modelled).
fn optimizer_step(c: &Config, stages: &[memory::Stage]) -> f64 {
    if c.offload.is_on() {
        return 0.0;
    }
    let trained = crate::finetune::trainable_params(c).get();
    let [weights, gradients, states] = memory::state_bytes_per_param(c).map(|b| b.0);
    let per_shard_param = 2.0 * states + 2.0 * gradients + weights + memory::master_bytes(c);
    let last = c.layout.pp.max(1) - 1;
    let bytes = stages
        .iter()
        .filter(|st| st.index == 0 || st.index == last)
        .map(|st| {
            let d = memory::stage_divisors(c, st);
            trained * (per_shard_param / d.optimizer + gradients / d.gradients)
        })
        .fold(0.0, f64::max);
    bytes / (c.system.gpu.achieved_hbm_gbs() * 1e9)
}

/// The hardware FLOPs of one trained token ([`compute::compute`] over D):
/// 6·P, attention under `megatron`, recomputation's forward again. The
/// achieved rate τ is counted against it.
pub fn hardware_flops_per_token(c: &Config) -> f64 {
    compute::compute(c).total().get() / c.tokens.get().max(1.0)
}

/// The stages that can be the slowest: without a layout string only the
/// first, the second and the last can hold the most (the even split gives its
/// extra layers to the first ones); with one, or under DualPipe, any.
fn candidate_stages(c: &Config) -> Vec<memory::Stage> {
    let p = c.layout.pp.max(1);
    let any = c.pp_layout.is_some() || c.schedule == Schedule::DualPipe;
    let mut indices: Vec<u64> = if any { (0..p).collect() } else { vec![0, 1.min(p - 1), p - 1] };
    indices.dedup();
    indices.into_iter().map(|i| memory::stage(c, i)).collect()
}

/// The most layers a stage holds: the pipeline runs at its pace.
fn slowest_layers(c: &Config, stages: &[memory::Stage]) -> u64 {
    // A DualPipe rank runs each micro-batch through one of its two stages: their mean.
    let per_micro_batch =
        |s: &memory::Stage| if c.schedule == Schedule::DualPipe { s.layers.div_ceil(2) } else { s.layers };
    stages.iter().map(per_micro_batch).max().unwrap_or(c.arch.layers)
}

/// Tokens each GPU trains on per second at this step time.
pub fn tokens_per_second_per_gpu(c: &Config, st: &StepTime) -> f64 {
    parallel::tokens_per_step(c) / st.total / c.layout.gpus() as f64
}

/// Model FLOPs utilisation: the model's FLOPs per token with attention
/// ((6·P_active + 12·L·h·s), PaLM, Chowdhery et al. 2022, Appendix B; no
/// recomputation) at this throughput, over the GPU's dense peak.
pub fn mfu(c: &Config, st: &StepTime) -> f64 {
    let a = c.arch;
    let per_token = 6.0 * c.active_params.get() + 12.0 * a.layers as f64 * a.attention_width() * c.seq_len as f64;
    tokens_per_second_per_gpu(c, st) * per_token / (c.system.gpu.peak_tflops * 1e12)
}
